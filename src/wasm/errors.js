// How failures reach the user: every C++ failure arrives from the bindings
// (src/wasm/envelope.h) as a JSON envelope and leaves as an ordinary Error
// with a `kind`; every bad argument gets a message naming what it got.
//
// Plain JavaScript: word-attention.js (which the page imports directly) uses
// describeValue too.

/**
 * Every error the package raises is a Seq2SeqError, of the class its `kind`
 * names, so callers test it with instanceof or by kind:
 *   UsageError       'usage'       a bad argument or option, a disposed object
 *   ModelFileError   'model-file'  the bytes are not a usable model file
 *   InputError       'input'       the text or prefix cannot be translated
 *   LoadError        'load'        a file, URL or module could not be read
 *   EnvironmentError 'environment' the runtime lacks what is needed (WebAssembly, Worker)
 *   WorkerError      'worker'      the translation worker failed or crashed
 *   ResourceError    'memory'      the WebAssembly heap could not grow
 *   InternalError    'internal'    a bug: please report it
 * An abort is the platform's own AbortError (a DOMException), as fetch's is.
 */
export class Seq2SeqError extends Error {
  constructor(message, options = undefined) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}
export class UsageError extends Seq2SeqError {}
export class ModelFileError extends Seq2SeqError {}
export class InputError extends Seq2SeqError {}
export class LoadError extends Seq2SeqError {}
export class EnvironmentError extends Seq2SeqError {}
export class WorkerError extends Seq2SeqError {}
export class ResourceError extends Seq2SeqError {}
export class InternalError extends Seq2SeqError {}

const CLASSES = {
  usage: UsageError, 'model-file': ModelFileError, input: InputError, load: LoadError, environment: EnvironmentError,
  worker: WorkerError, memory: ResourceError, internal: InternalError,
};
for (const [kind, ErrorClass] of Object.entries(CLASSES)) {
  Object.defineProperty(ErrorClass.prototype, 'kind', { value: kind, enumerable: true });
}

/** An error of `kind`'s class (InternalError for an unknown kind): how a worker's failure is raised again. */
export function errorOfKind(kind, message, options = undefined) {
  return new (CLASSES[kind] ?? InternalError)(message, options);
}

/** The value of an envelope {ok: true, value}; throws for {ok: false, kind, message}. */
export function unwrap(envelopeJson, context) {
  const envelope = JSON.parse(envelopeJson);
  if (!envelope.ok) throw toError(envelope, context);
  return envelope.value;
}

/** An envelope's failure as an Error, its message prefixed by `context` ('loadModel: '). */
export function toError(envelope, context) {
  return errorOfKind(envelope.kind, context + envelope.message);  // 'usage', 'model-file', 'input', 'memory' or 'internal'
}

/** A failure the envelope did not catch (a bug): an InternalError. */
export function internalError(doing, cause) {
  return new InternalError(`seq2seq-attention: internal error while ${doing}: ${describe(cause)} (please report it)`, { cause });
}

/**
 * An Embind object whose constructor reports failure through loadError()
 * (a Session, a BrowserTrainingRun), made by `make()`: returned when it is usable;
 * else deleted, and its failure thrown as an Error prefixed by `context`
 * ('loadModel: '). A throw from make() itself is a bug: an internal error
 * while `doing`.
 */
export function openHandle(make, doing, context) {
  let handle;
  try {
    handle = make();
  } catch (cause) {
    throw internalError(doing, cause);
  }
  const loadError = handle.loadError();
  if (loadError !== '') {
    handle.delete();
    throw toError(JSON.parse(loadError), context);
  }
  return handle;
}

/** The message of an Error, or the value as text. */
export function describe(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}

/** A value as an error message names it: 'the number 42', 'an object (Uint8Array)'. */
export function describeValue(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `the ${typeof value} ${value}`;
  return typeof value;
}
