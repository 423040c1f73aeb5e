// The Markdown report of `npm run bench` (bench/results.md) from the
// figures bench/run.mjs measured (bench/results.json): report(results,
// beams) writes it; targets(results, beams) computes the ratios it checks
// against the project's performance targets.

export const fmt = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

export function cell(result, bucket, beam) {
  return result?.cells?.find((c) => c.bucket === bucket && c.beam === beam);
}

// The cold page load's steps: [label, performance mark] in the order they
// happen (marks of web/index.html, web/worker.js, web/demo/app.js). bench/cold-start.mjs
// tabulates the same steps.
export const COLD_STEPS = [
  ['the page starts the worker and the model download (index.html)', 's2s:worker-created'],
  ['the worker\'s module runs (model-worker.js)', 's2s:worker-started'],
  ['the page has compiled the WebAssembly module (index.html, compileStreaming)', 's2s:wasm-compiled'],
  ['the worker has the module', 's2s:wasm-received'],
  ['the worker\'s runtime is instantiated', 's2s:runtime-ready'],
  ['the worker has run the tiny warm-up model (skipped when the model came first)', 's2s:warmed-up'],
  ['the page has the model\'s bytes', 's2s:model-downloaded'],
  ['the page asks for the model (the start script, once the package\'s translator.js is imported)', 's2s:loading:en-fr'],
  ['the worker has the bytes; loading starts', 's2s:load-started'],
  ['the page asks for the first translation (app.js, once its modules have run)', 's2s:translation-asked'],
  ['the model is loaded (the runtime compiled meanwhile)', 's2s:model-loaded'],
  ['the page has the first translation', 's2s:result-received'],
  ['the heatmap is drawn', 's2s:rendered'],
];

export function report(r, beams) {
  const { buckets, minSeconds } = r;
  const lines = [];
  const m = r.machine;
  const engines = r.engines.filter((e) => e.cells);
  const ref = engines.find((e) => e.label === 'WASM, Node');
  lines.push('# seq2seq-attention benchmark', '');
  lines.push(`Run ${r.date} by \`npm run bench\` (bench/run.mjs) in ${fmt(r.seconds / 60, 1)} min, with \`models/en-fr.s2s\` (${r.modelInfo}).`);
  lines.push(`Machine: ${m.cpu}, ${m.cores} cores (${m.simd.join(', ')}), ${m.memoryGiB} GiB, Linux ${m.kernel}; Node ${m.node}, Chromium ${r.chromium.version}, TF.js ${r.tfjsVersion}.`);
  lines.push(`Code: commit ${m.commit}${m.uncommittedSourceFiles ? ` plus uncommitted changes in ${m.uncommittedSourceFiles} files under src/` : ''}; native CLI built ${m.nativeBuilt}, WASM built ${m.wasmBuilt}.`);
  lines.push(`Load when it started: ${m.loadAverage.join(' / ')} (1/5/15 min)${m.otherBusyProcesses.length ? `; other processes busy on a core: ${m.otherBusyProcesses.join(', ')}` : ''}. The machine is shared: compare the ratios within this run, not absolute numbers across runs.`, '');

  lines.push('## Translation: mean latency per sentence (ms) and source words/s, batch 1', '');
  lines.push(`Sentences: bench/sentences.json. ${buckets.map((b) => `"${b.name}": ${b.note} (${b.words.join(', ')} words)`).join('; ')}. Words/s counts source tokens (punctuation included). Each engine first translates all the sentences round-robin at both beam sizes for 2 s (WebAssembly tiers up and the JITs warm up); then each cell is one more warm-up translation and whole passes over the bucket for at least ${minSeconds} s.`, '');
  lines.push(`| beam | words | ${engines.map((e) => e.label).join(' | ')} |`);
  lines.push(`|---|---|${engines.map(() => '---:').join('|')}|`);
  for (const beam of beams) {
    for (const b of buckets) {
      lines.push(`| ${beam} | ~${b.name} | ${engines.map((e) => { const c = cell(e, b.name, beam); return c ? `${fmt(c.msPerSentence, 2)} ms (${fmt(c.wordsPerSecond, 0)} w/s)` : '–'; }).join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push('Ratios (latency of the other engine / latency of this project\'s WASM build; above 1 means WASM is faster):', '');
  const ratioColumns = [
    ['native / WASM (Node)', 'native', 'WASM, Node'],
    ['native SSE4.2 / WASM (Node)', 'native, SSE4.2', 'WASM, Node'],
    ['WASM Chromium / WASM Node', 'WASM, Chromium', 'WASM, Node'],
    ['TF.js wasm / WASM (Node)', 'TF.js wasm, Node', 'WASM, Node'],
    ['TF.js cpu / WASM (Node)', 'TF.js cpu, Node', 'WASM, Node'],
    ['TF.js wasm / WASM (Chromium)', 'TF.js wasm, Chromium', 'WASM, Chromium'],
    ['TF.js cpu / WASM (Chromium)', 'TF.js cpu, Chromium', 'WASM, Chromium'],
  ].filter(([, a, b]) => engines.some((e) => e.label === a) && engines.some((e) => e.label === b));
  lines.push(`| beam | words | ${ratioColumns.map(([t]) => t).join(' | ')} |`);
  lines.push(`|---|---|${ratioColumns.map(() => '---:').join('|')}|`);
  for (const beam of beams) {
    for (const b of buckets) {
      lines.push(`| ${beam} | ~${b.name} | ${ratioColumns.map(([, a, c]) => fmt(r.ratio(a, c, b.name, beam), 2)).join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push('Agreement with the WASM build in Node (same target tokens for the best hypothesis, all benchmark sentences, beam 1 and 4):', '');
  lines.push('| engine | same translation | same source tokens |', '|---|---:|---:|');
  for (const e of r.engines) {
    if (e.label === 'WASM, Node') continue;
    if (!e.agreement) { lines.push(`| ${e.label} | failed: ${e.error ?? '?'} | |`); continue; }
    lines.push(`| ${e.label} | ${e.agreement.same} / ${e.agreement.total} | ${e.agreement.sameSource} / ${e.agreement.total} |`);
  }
  const differing = r.engines.flatMap((e) => (e.agreement?.differing ?? []).map((d) => ({ ...d, engine: e.label })));
  if (differing.length) {
    lines.push('', 'Differences:', '');
    for (const d of differing.slice(0, 10)) lines.push(`- ${d.engine}, beam ${d.beam}, "${d.sentence}": \`${d.tokens}\` vs WASM \`${d.reference}\``);
  }
  lines.push('');

  lines.push('## Page load, payload, memory', '');
  const loads = r.chromium.loads.map((l) => l.firstCellMs);
  lines.push(`Cold load of the demo page (\`/web/?text=I love deep learning.\` served by scripts/serve.mjs from localhost; a fresh browser context each time, so nothing cached) to the first heatmap cell in the DOM, ${loads.length} loads: **median ${fmt(median(loads), 0)} ms** (min ${fmt(Math.min(...loads), 0)}, max ${fmt(Math.max(...loads), 0)}; all: ${loads.map((x) => fmt(x, 0)).join(', ')}).`, '');
  if (r.chromium.loads.some((l) => l.marks)) {
    lines.push('The same loads step by step (median time since navigation start; marks set by web/index.html, web/worker.js and web/demo/app.js):', '',
      '| step | median ms |', '|---|---:|');
    for (const [label, mark] of COLD_STEPS) {
      const times = r.chromium.loads.map((l) => l.marks?.[mark]).filter((t) => t !== undefined);
      if (times.length) lines.push(`| ${label} | ${fmt(median(times), 0)} |`);
    }
    lines.push(`| the first heatmap cell is in the DOM | ${fmt(median(loads), 0)} |`, '');
  }
  const cold = ['WASM, Node', 'WASM, Chromium'].map((label) => engines.find((e) => e.label === label)).filter((e) => e?.startupMs !== undefined);
  if (cold.length) {
    lines.push('Where a cold start goes, measured step by step on the API (a fresh process or page, before any warm-up):', '');
    lines.push('| engine | start the WASM runtime | download the model | parse the model | first translation (~5 words) |', '|---|---:|---:|---:|---:|');
    for (const e of cold) lines.push(`| ${e.label} | ${fmt(e.startupMs, 0)} ms | ${e.fetchMs === undefined ? '– (read from disk)' : `${fmt(e.fetchMs, 0)} ms`} | ${fmt(e.modelParseMs, 0)} ms | ${fmt(e.firstTranslationMs, 0)} ms |`);
    lines.push('');
  }
  const p = r.payload;
  lines.push('| file | raw | gzip -9 |', '|---|---:|---:|');
  for (const f of p.core) lines.push(`| ${f.file} | ${f.raw.toLocaleString('en')} | ${f.gzip.toLocaleString('en')} |`);
  lines.push(`| **WASM + JS + en-fr model** | **${p.coreRaw.toLocaleString('en')}** (${mb(p.coreRaw)}) | **${p.coreGzip.toLocaleString('en')}** (${mb(p.coreGzip)}) |`);
  lines.push(`| the page's own files (${p.page.map((f) => f.file.replace(/^web\//, '')).join(', ')}) | ${p.pageRaw.toLocaleString('en')} | ${p.pageGzip.toLocaleString('en')} |`);
  lines.push(`| everything the page fetched | ${(p.coreRaw + p.pageRaw).toLocaleString('en')} (${mb(p.coreRaw + p.pageRaw)}) | ${(p.coreGzip + p.pageGzip).toLocaleString('en')} (${mb(p.coreGzip + p.pageGzip)}) |`);
  lines.push('');
  lines.push('Peak memory after the translation runs (heap: the WASM memory of this project\'s module from `memoryStats()` of seq2seq-attention/diagnostics, TF.js wasm\'s module memory, or the bytes of TF.js cpu\'s live tensors; RSS: the process\'s peak resident set):', '');
  lines.push('| engine | heap | peak RSS | ready to translate |', '|---|---:|---:|---:|');
  for (const e of engines) {
    lines.push(`| ${e.label} | ${e.heapBytes ? mb(e.heapBytes) : '–'} | ${e.peakRssBytes ? mb(e.peakRssBytes) : '–'} | ${e.loadMs ? `${fmt(e.loadMs, 0)} ms` : '–'} |`);
  }
  lines.push('');

  lines.push('## Training against the GEMM peak', '');
  const t = r.training;
  lines.push(`Peak: \`seq2seq bench --gemm-only --gemm-size 1024 --threads N\` (Eigen, float32; with 2 threads each computes half of C's columns), the mean of one run just before and one just after the training run. Training: \`seq2seq bench --model models/en-fr.s2s --train-data ${t.data.split(' ')[0]} --steps 100 --threads N\`: the en-fr architecture (E 64, H 128, D 256, A 128, P 128, 6,000/10,000 words), batch 64, after 5 warm-up steps. Data: ${t.data}. GFLOPS are counted analytically: the multiply-adds of every matrix product of the forward pass (src/model) × 2, × 3 for forward + backward, from each batch's real sentence lengths (padding not counted); ${fmt(t.train[0].flops_per_token / 1e6, 2)} MFLOP per source+target token.`, '');
  lines.push('| threads | peak GEMM (before, after) | training tokens/s | training GFLOPS | % of peak |', '|---:|---:|---:|---:|---:|');
  for (const tr of t.train) {
    const g = t.gemm.find((x) => x.threads === tr.threads);
    const peak = g.gemm_gflops;
    lines.push(`| ${tr.threads} | ${fmt(peak, 1)} GFLOPS (${fmt(g.before, 1)}, ${fmt(g.after, 1)}) | ${fmt(tr.tokens_per_second, 0)} | ${fmt(tr.gflops, 2)} | ${fmt((100 * tr.gflops) / peak, 1)}% |`);
  }
  lines.push('');

  lines.push('## Targets', '');
  lines.push('| target | measured | met? |', '|---|---|---|');
  for (const target of r.targets) lines.push(`| ${target.target} | ${target.measured} | ${target.met === null ? '–' : target.met ? 'yes' : '**no**'} |`);
  lines.push('');
  return lines.join('\n');
}

export function targets(r, beams) {
  const { buckets } = r;
  const out = [];
  const speedups = (a, b) => beams.flatMap((beam) => buckets.map((bk) => r.ratio(a, b, bk.name, beam))).filter((x) => x !== undefined);
  const summary = (xs) => `min ${fmt(Math.min(...xs), 2)}×, geometric mean ${fmt(geomean(xs), 2)}×, max ${fmt(Math.max(...xs), 2)}×`;
  for (const where of ['Node', 'Chromium']) {
    const tw = speedups(`TF.js wasm, ${where}`, `WASM, ${where}`);
    const tc = speedups(`TF.js cpu, ${where}`, `WASM, ${where}`);
    if (tw.length) out.push({ target: `WASM ≥ 3× faster than TF.js wasm at batch 1 (${where}, every cell)`, measured: summary(tw), met: Math.min(...tw) >= 3 });
    if (tw.length && tc.length) out.push({ target: `… and faster than TF.js cpu by more (${where})`, measured: `TF.js cpu: ${summary(tc)}`, met: Math.min(...tc) >= 3 && geomean(tc) > geomean(tw) });
  }
  for (const where of ['Node', 'Chromium']) {
    const slow = speedups(`WASM, ${where}`, 'native').filter((x) => x !== undefined);
    if (slow.length) out.push({ target: `WASM within 1.6× of native (${where}, every cell)`, measured: `WASM latency / native: ${summary(slow)}`, met: Math.max(...slow) <= 1.6 });
  }
  // Not the target (that is the -march=native CLI above): the same
  // comparison at the same vector width, for what WebAssembly itself costs.
  for (const where of ['Node', 'Chromium']) {
    const same = speedups(`WASM, ${where}`, 'native, SSE4.2').filter((x) => x !== undefined);
    if (same.length) out.push({ target: `(for reference, not a target) WASM against native at the same vector width, SSE4.2 (${where})`, measured: `WASM latency / native SSE4.2: ${summary(same)}`, met: null });
  }
  out.push({ target: 'Payload (WASM + JS + en-fr model) ≤ 3 MB gzip', measured: `${mb(r.payload.coreGzip)} gzip (${mb(r.payload.coreRaw)} raw), of which the model ${mb(r.payload.core.find((f) => f.file === 'models/en-fr.s2s').gzip)}`, met: r.payload.coreGzip <= 3e6 });
  const loads = r.chromium.loads.map((l) => l.firstCellMs);
  out.push({ target: 'First heatmap ≤ 400 ms after a cold load from localhost', measured: `median ${fmt(median(loads), 0)} ms of ${loads.length}`, met: median(loads) <= 400 });
  for (const tr of r.training.train) {
    const peak = r.training.gemm.find((g) => g.threads === tr.threads).gemm_gflops;
    out.push({ target: `Training ≥ 30% of the measured GEMM peak (${tr.threads} thread${tr.threads > 1 ? 's' : ''})`, measured: `${fmt(tr.gflops, 2)} of ${fmt(peak, 1)} GFLOPS = ${fmt((100 * tr.gflops) / peak, 1)}%`, met: tr.gflops / peak >= 0.3 });
  }
  return out;
}

