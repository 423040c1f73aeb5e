// The cost of the pause between the sentences of a batch
// (translator.translate(array), which yields to the event loop after each
// sentence so that an abort or a paint gets in): 300 short sentences, greedy,
// with { worker: false } so that the pause (platform.js nextTask) is on this
// thread. Run two builds side by side (docs/performance.md, "Batches"):
//   farm-bench -n 5 -- node bench/batch.mjs dist --vs 'node bench/batch.mjs OTHER-DIST'
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2] ?? 'dist');
const root = resolve(new URL('..', import.meta.url).pathname);
const { createTranslator } = await import(pathToFileURL(join(dist, 'index.js')).href);
const translator = await createTranslator(join(root, 'models', 'en-fr.s2s'), { worker: false });
const texts = Array.from({ length: 300 }, (_, i) => ['Go.', 'I lost.', "He's calm.", "I'm home.", 'I see the cat.'][i % 5]);
const started = performance.now();
const results = await translator.translate(texts, { beamSize: 1 });
const seconds = (performance.now() - started) / 1000;
if (results.length !== texts.length) throw new Error('a batch result is missing');
console.log(`${texts.length} sentences in ${seconds.toFixed(3)} s: ${(texts.length / seconds).toFixed(0)} sentences/s`);
await translator.dispose();
