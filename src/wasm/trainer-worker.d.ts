// 'seq2seq-attention/trainer-worker': createTrainerWorker alone
// (src/wasm/trainer-worker.js), for a page that trains in a worker and
// should not load the WebAssembly runtime on its own thread to get there
// (the main entry's createTrainerWorker is the same function).
export { createTrainerWorker } from './index.js';
export type {
  TrainerOptions, TrainerWorker, TrainerWorkerOptions, TrainerWorkerProbe, TrainerWorkerProgress, TrainerWorkerState, WorkerLike,
} from './index.js';
