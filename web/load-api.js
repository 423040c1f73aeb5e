// The package's JavaScript API (dist/index.js) for the page's workers
// (worker.js, train-worker.js): imported on first use, once per worker, with
// a message saying how to build and serve it when that fails. `what` names
// the worker's job in that message ('translator', 'trainer').
let api = null;

export function getApi(what) {
  api ??= import('../dist/index.js').catch((cause) => {
    api = null;
    throw new Error(`could not load the ${what} (dist/index.js): ${cause?.message ?? cause}. ` +
      'Build it with `npm run build:wasm` (or `npm start`), and serve the repository root so that /web/ and /dist/ are siblings.');
  });
  return api;
}
