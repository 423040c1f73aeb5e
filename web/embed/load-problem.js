// Why a model could not be loaded, told apart where the browser gives one
// answer for many causes. A download from another origin fails with the
// same TypeError ("Failed to fetch") whether the file is missing (a server
// whose 404 page has no CORS header), the host sends no CORS header at all,
// the network is down or the page's Content Security Policy refused it; a
// worker refused by the policy fails as "the worker failed to start". The
// element (embed.js) asks loadProblem() after a failure and shows its answer,
// a catalogue key with its parameters, each naming the cause and the fix:
//
//   embed.csp              the policy blocked something: which directive, and what to add
//   embed.notFound         the server answered 404 (or 410) for the model file
//   embed.httpStatus       the server answered another error status
//   embed.notFoundNoCors   the server answered with an error status, without the
//                          CORS header, so the browser cannot read which
//                          (told by a prefetch, which sees the status)
//   embed.crossOrigin      the file is there but sent without the CORS header
//   embed.network          the server could not be reached at all
//
// null: nothing found wrong with the download (the model file itself, or
// the input, failed): the package's own message says it.

// The policy's violations since this module loaded, as the browser reports
// them to the document: a blob: worker and a download the document starts
// are reported here (a worker's own requests are reported inside it, so a
// download is also tried again here: the same policy blocks it again).
const violations = [];
if (typeof document !== 'undefined') {
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push({ directive: event.effectiveDirective || event.violatedDirective, blocked: event.blockedURI, policy: event.originalPolicy });
  });
}

// Which directive of a policy decides a request of each kind (CSP level 3's
// fallback lists), so that the message names the one the author must change.
const FALLBACKS = {
  'worker-src': ['worker-src', 'child-src', 'script-src', 'default-src'],
  'script-src-elem': ['script-src-elem', 'script-src', 'default-src'],
  'script-src': ['script-src', 'default-src'],
  'connect-src': ['connect-src', 'default-src'],
};

/** The directive of `policy` that decided a request of kind `directive` (CSP's fallbacks). */
export function decidingDirective(directive, policy = '') {
  const present = policy.split(';').map((part) => part.trim().split(/\s+/)[0].toLowerCase()).filter(Boolean);
  return (FALLBACKS[directive] ?? [directive, 'default-src']).find((name) => present.includes(name)) ?? directive;
}

/** What the policy must allow for a blocked URI ('blob', 'wasm-eval', or a URL). */
export function sourceToAllow(blocked) {
  if (blocked === 'blob' || blocked.startsWith('blob:')) return 'blob:';
  if (blocked === 'wasm-eval') return "'wasm-unsafe-eval'";
  if (blocked === 'eval') return "'unsafe-eval'";
  try {
    return new URL(blocked).origin;
  } catch {
    return blocked;
  }
}

// A violation that concerns the demo: its workers (blob:), compiling
// WebAssembly, or a file from the demo's host.
// (The prefetches of prefetchFails are this module's own, not the demo's.)
const prefetched = new Set();
function demoViolation(home) {
  return violations.find(({ blocked }) => !prefetched.has(blocked) && (blocked === 'blob' || blocked.startsWith('blob:') ||
    blocked === 'wasm-eval' || blocked.startsWith(home.origin))) ?? null;
}

function cspProblem(violation) {
  const directive = decidingDirective(violation.directive, violation.policy);
  // A blob: worker is reported as 'blob': shown as the scheme it is.
  const blocked = violation.blocked === 'blob' ? 'blob:' : violation.blocked;
  return { key: 'embed.csp', params: { directive, source: sourceToAllow(violation.blocked), blocked } };
}

// Two turns of the event loop: a violation the browser is about to report
// (it queues the event as it refuses) arrives first.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0)).then(() => new Promise((resolve) => setTimeout(resolve, 0)));

// The status of `url`, read with CORS when the server allows it: a number,
// or 'unreadable' (it answered, without the CORS header) or 'unreachable'.
// Only the headers are waited for: the body is abandoned.
async function statusOf(url) {
  const controller = new AbortController();
  try {
    const response = await fetch(url, { mode: 'cors', cache: 'no-store', signal: controller.signal });
    controller.abort();
    return response.status;
  } catch {
    // not readable: unreachable, or an answer without the CORS header
  }
  const opaque = new AbortController();
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', signal: opaque.signal });
    opaque.abort();
    return 'unreadable';
  } catch {
    return 'unreachable';
  }
}

// An answer without the CORS header: a <link rel="prefetch"> sees its status
// (its error event fires for an error status, as for a network error), which
// a script cannot read. Resolves to true for an error status, false for a
// success, null when the browser says neither in time or the page's policy
// refused the prefetch itself.
function prefetchFails(url) {
  prefetched.add(url);
  return new Promise((resolve) => {
    const link = document.createElement('link');
    const done = (value) => {
      clearTimeout(timer);
      link.remove();
      settle().then(() => resolve(violations.some(({ blocked }) => blocked === url) ? null : value));
    };
    const timer = setTimeout(() => done(null), 15_000);
    Object.assign(link, { rel: 'prefetch', href: url });
    link.addEventListener('load', () => done(false));
    link.addEventListener('error', () => done(true));
    document.head.append(link);
  });
}

// The failures of the package that are about the file's own bytes or the
// caller's input: the download worked, and the message says what failed.
const NOT_DOWNLOADS = new Set(['model-file', 'input', 'usage', 'memory', 'internal']);

/**
 * Why loading the model at `modelUrl` (a URL) failed with `error`, for an
 * element whose files come from `home` (a URL). Resolves to { key, params }
 * (a catalogue key of embed.*) or null when the package's message says it.
 */
export async function loadProblem(error, { modelUrl, home }) {
  await settle();
  let violation = demoViolation(home);
  if (violation) return cspProblem(violation);
  if (NOT_DOWNLOADS.has(error?.kind)) return null;
  const url = modelUrl.href;
  const host = modelUrl.host;
  const status = await statusOf(url);
  await settle();
  violation = demoViolation(home);
  if (violation) return cspProblem(violation);
  if (status === 404 || status === 410) return { key: 'embed.notFound', params: { url, status, host } };
  if (typeof status === 'number') return status >= 400 ? { key: 'embed.httpStatus', params: { url, status, host } } : null;
  if (status === 'unreachable') return { key: 'embed.network', params: { url, host } };
  // It answered, without the CORS header: an error page (a 404 sent
  // without the header, as many servers do), or the file itself.
  const failed = await prefetchFails(url);
  if (failed === true) return { key: 'embed.notFoundNoCors', params: { url, host } };
  return { key: 'embed.crossOrigin', params: { host } };
}

// loadProblem's answers, as the element's s2s-error event names them.
const CAUSES = {
  'embed.csp': 'csp', 'embed.notFound': 'not-found', 'embed.notFoundNoCors': 'not-found', 'embed.httpStatus': 'http',
  'embed.crossOrigin': 'cross-origin', 'embed.network': 'network',
};

/** The s2s-error event's cause for loadProblem's `key`: csp, not-found, http, cross-origin or network. */
export function eventCause(key) {
  return CAUSES[key] ?? null;
}
