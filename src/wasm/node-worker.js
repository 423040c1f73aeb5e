// The package's workers in Node: model-worker.js (createTranslator's) or
// training-worker.js (createTrainerWorker's), as workerData.entry says,
// which speak the browser's worker protocol (self.postMessage,
// self.addEventListener('message')), on a worker_threads thread, whose port
// speaks Node's (parentPort.postMessage, parentPort.on('message')). The
// package starts it in Node (worker-start.js), so that decoding and
// training never block the caller's event loop.
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) {
  throw new Error('seq2seq-attention: node-worker.js runs as a worker_threads Worker, which createTranslator and createTrainerWorker start; import the package instead');
}
globalThis.self = {
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
  addEventListener: (type, listener) => {
    if (type === 'message') parentPort.on('message', (data) => listener({ data }));
  },
};
if (workerData?.entry === 'training') await import('./training-worker.js');
else await import('./model-worker.js');
