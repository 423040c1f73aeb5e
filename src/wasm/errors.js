// How failures reach the user: every C++ failure arrives from the bindings
// (src/wasm/envelope.h) as a JSON envelope and leaves as an ordinary Error
// with a `kind`; every bad argument gets a message naming what it got.
//
// Plain JavaScript: word-attention.js (which the page imports directly) uses
// describeValue too.

/** The value of an envelope {ok: true, value}; throws for {ok: false, kind, message}. */
export function unwrap(envelopeJson, context) {
  const envelope = JSON.parse(envelopeJson);
  if (!envelope.ok) throw toError(envelope, context);
  return envelope.value;
}

/** An envelope's failure as an Error, its message prefixed by `context` ('loadModel: '). */
export function toError(envelope, context) {
  const error = new Error(context + envelope.message);
  error.kind = envelope.kind;  // 'usage', 'model-file', 'input', 'memory' or 'internal'
  return error;
}

/** A failure the envelope did not catch (a bug): kind 'internal'. */
export function internalError(doing, cause) {
  const error = new Error(`seq2seq-attention: internal error while ${doing}: ${describe(cause)} (please report it)`, { cause });
  error.kind = 'internal';
  return error;
}

/**
 * An Embind object whose constructor reports failure through loadError()
 * (a Session, a TrainingRun), made by `make()`: returned when it is usable;
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
