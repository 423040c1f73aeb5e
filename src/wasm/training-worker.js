// The worker behind createTrainerWorker (trainer-worker.js): one training
// session (training-session.js) answering the thread that started it. Its
// one-file bundle, dist/training-worker.bundle.js (scripts/bundle-worker.mjs),
// is what the package starts in a browser; in Node, node-worker.js imports it.
import { trainingSession } from './training-session.js';

const session = trainingSession((message, transfer) => self.postMessage(message, transfer));
self.addEventListener('message', (event) => session.handle(event.data ?? {}));
