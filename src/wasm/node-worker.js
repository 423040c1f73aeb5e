// The translation worker in Node: model-worker.js, which speaks the
// browser's worker protocol (self.postMessage, self.addEventListener
// ('message')), on a worker_threads thread, whose port speaks Node's
// (parentPort.postMessage, parentPort.on('message')). createTranslator
// starts it in Node (translator.js), so that decoding never blocks the
// caller's event loop.
import { parentPort } from 'node:worker_threads';

if (!parentPort) {
  throw new Error('seq2seq-attention: node-worker.js runs as a worker_threads Worker, which createTranslator starts; import the package instead');
}
globalThis.self = {
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
  addEventListener: (type, listener) => {
    if (type === 'message') parentPort.on('message', (data) => listener({ data }));
  },
};
await import('./model-worker.js');
