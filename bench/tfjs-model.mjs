// The peer of the benchmark: the same model, with the same weights, in
// TensorFlow.js, as a tutorial author would write it without this project.
//
//   import * as tf from '@tensorflow/tfjs';
//   const model = await loadTfjsModel(tf, bytes);   // the bytes of a .s2s file
//   model.translate('I see the cat.', { beamSize: 4 });  // { sourceTokens, targetTokens, attention, score, ... }
//   model.dispose();
//
// `tf` is passed in, so the same file runs in Node (the package import) and
// in a browser page (the UMD bundle's global). The file is read by
// bench/model-file.mjs (plain JavaScript); this is
//   - the forward pass of src/model (encoder.cpp, gru.cpp, attention.cpp,
//     decoder.cpp) as TF.js ops at batch 1 (K rows = the beam's hypotheses),
//     and the greedy/beam search of src/decode/search.cpp in plain JS, with
//     the same tie-breaking, length normalization and stopping rule, so the
//     translations must come out token for token the same as the WASM build's
//     (bench/run.mjs and tests/js/tfjs-peer.test.mjs count the agreement).
// The C++ matrices are (out, in) with one example per column; here a row is
// one example, so every weight is used transposed (x W^T), transposed once
// at load time.

import { optionRanges } from '../src/wasm/options.js';
import { parseModelFile } from './model-file.mjs';

export const PAD = 0;
export const UNK = 1;
export const BOS = 2;
export const EOS = 3;
const MAX_SOURCE_TOKENS = 200;  // with <eos>, as src/decode/translator.h
const MAX_LENGTH = optionRanges.maxLength.max;  // DecodeOptions::kMaxLength
const FORBIDDEN = Math.fround(-1e30);

// ---------------------------------------------------------------------------
// Text: the word tokenizer of src/text/tokenizer.cpp for the usual cases
// (lowercase, , . ! ? split off except a decimal point, the typographic
// apostrophe made plain, runs of whitespace separating tokens).

export function tokenizeWords(text) {
  const chars = [...text.toLowerCase()];
  const tokens = [];
  let word = '';
  const flush = () => { if (word) tokens.push(word); word = ''; };
  for (let i = 0; i < chars.length; ++i) {
    const c = chars[i];
    if (/\s/u.test(c)) { flush(); continue; }
    const decimal = c === '.' && i > 0 && i + 1 < chars.length && /[0-9]/.test(chars[i - 1]) && /[0-9]/.test(chars[i + 1]);
    if ((c === ',' || c === '.' || c === '!' || c === '?') && !decimal) { flush(); tokens.push(c); continue; }
    word += c === '\u2019' ? "'" : c;
  }
  flush();
  return tokens;
}

// ---------------------------------------------------------------------------
// The model.

/**
 * Builds the TF.js model from the bytes of a .s2s file. `tf` is the
 * TensorFlow.js namespace with the backend already chosen.
 */
export async function loadTfjsModel(tf, bytes) {
  const file = parseModelFile(bytes);
  return new TfjsModel(tf, file);
}

class TfjsModel {
  constructor(tf, file) {
    this.tf = tf;
    const { header, tensors } = file;
    if (header.source_tokenizer?.kind !== 'words') throw new Error('the TF.js peer reads word-tokenized sources only');
    this.header = header;
    this.config = header.config;
    this.sourceIds = new Map(header.source_vocabulary.map((token, id) => [token, id]));
    this.targetVocabulary = header.target_vocabulary;
    const c = this.config;
    this.kind = c.attention;
    this.H = c.encoder_hidden_size;
    this.C = 2 * c.encoder_hidden_size;
    this.D = c.decoder_hidden_size;
    this.E = c.embedding_size;
    this.A = c.attention_size;
    this.V = c.target_vocab_size;
    const get = (name) => {
      const t = tensors.get(name);
      if (!t) throw new Error(`model file has no tensor '${name}'`);
      return t;
    };
    // x W^T: the (out, in) matrix as (in, out).
    const transposed = (name) => tf.tidy(() => { const t = get(name); return tf.tensor2d(t.data, [t.rows, t.cols]).transpose(); });
    const vector = (name) => { const t = get(name); return tf.tensor1d(t.data); };
    // A GRU's weights per gate ([r | z | n] along the rows in the file), so
    // that no step has to slice a tensor: slicing is slow in TF.js (about
    // 0.2 ms per slice in Node and 1 ms in Chromium on the wasm backend,
    // measured), and a step would need six.
    const gateRows = (name, gate, hidden) => {
      const t = get(name);
      const rows = t.data.subarray(gate * hidden * t.cols, (gate + 1) * hidden * t.cols);
      return t.cols === 1 ? tf.tensor1d(rows) : tf.tidy(() => tf.tensor2d(rows, [hidden, t.cols]).transpose());
    };
    const gru = (prefix, hidden) => [0, 1, 2].map((gate) => ({
      inputT: gateRows(`${prefix}.input_weights`, gate, hidden),   // (in, hidden)
      stateT: gateRows(`${prefix}.state_weights`, gate, hidden),   // (hidden, hidden)
      inputBias: gateRows(`${prefix}.input_bias`, gate, hidden),
      stateBias: gateRows(`${prefix}.state_bias`, gate, hidden),
    }));
    const w = {
      sourceEmbedding: transposed('source_embedding'),  // (Vs, E): a row per token
      targetEmbedding: transposed('target_embedding'),  // (Vt, E)
      encoderForward: gru('encoder_forward', c.encoder_hidden_size),
      encoderBackward: gru('encoder_backward', c.encoder_hidden_size),
      initT: transposed('init_weights'),                // (C, D)
      initBias: vector('init_bias'),
      decoder: gru('decoder', c.decoder_hidden_size),   // input [emb; c]: (E + C, D) per gate
      outputHiddenT: transposed('output_hidden_weights'),  // (D + C + E, P)
      outputHiddenBias: vector('output_hidden_bias'),
      outputT: transposed('output_weights'),            // (P, Vt)
      outputBias: vector('output_bias'),
    };
    if (this.kind === 'additive') {
      w.queryT = transposed('attention_query');         // (D, A)
      w.keyT = transposed('attention_key');             // (C, A)
      const v = get('attention_vector');
      w.vector = tf.tensor2d(v.data, [v.rows, 1]);      // (A, 1)
    } else if (this.kind === 'general') {
      w.keyT = transposed('attention_key');             // (C, D)
    } else if (!['dot', 'scaled-dot', 'none'].includes(this.kind)) {
      throw new Error(`unknown attention '${this.kind}'`);
    }
    this.w = w;
  }

  /** Source ids, <eos> last, and the source tokens as the model reads them. */
  encodeText(text) {
    let tokens = tokenizeWords(text);
    const truncated = tokens.length > MAX_SOURCE_TOKENS - 1;
    if (truncated) tokens = tokens.slice(0, MAX_SOURCE_TOKENS - 1);
    const ids = tokens.map((t) => this.sourceIds.get(t) ?? UNK);
    ids.push(EOS);
    const sourceTokens = ids.map((id) => (id === UNK ? '<unk>' : this.header.source_vocabulary[id]));
    return { ids, sourceTokens, truncated };
  }

  // projections: [x W_xr^T + b_xr, ... z, ... n] (K, hidden) each; state (K, hidden).
  #gruStep(gates, projections, state) {
    const tf = this.tf;
    const [r, z, n] = gates.map((g) => tf.add(tf.matMul(state, g.stateT), g.stateBias));
    const reset = tf.sigmoid(tf.add(projections[0], r));
    const update = tf.sigmoid(tf.add(projections[1], z));
    const candidate = tf.tanh(tf.add(projections[2], tf.mul(reset, n)));
    return tf.add(candidate, tf.mul(update, tf.sub(state, candidate)));  // n + z (h - n)
  }

  #gruSequence(gates, embedded, S, reverse) {
    const tf = this.tf;
    // The input projections of every step at once, (S, H) per gate; step t
    // takes its row with a gather (no slicing).
    const projections = gates.map((g) => tf.add(tf.matMul(embedded, g.inputT), g.inputBias));
    const states = new Array(S);
    let state = tf.zeros([1, this.H]);
    for (let step = 0; step < S; ++step) {
      const t = reverse ? S - 1 - step : step;
      const row = tf.tensor1d([t], 'int32');
      state = this.#gruStep(gates, projections.map((p) => tf.gather(p, row)), state);
      states[t] = state;
    }
    return states;
  }

  /** The encoder: states H (S, C), keys, s_0 (1, D) and the final state. */
  #encode(ids) {
    const tf = this.tf;
    return tf.tidy(() => {
      const S = ids.length;
      const embedded = tf.gather(this.w.sourceEmbedding, tf.tensor1d(ids, 'int32'));  // (S, E)
      const forward = this.#gruSequence(this.w.encoderForward, embedded, S, false);
      const backward = this.#gruSequence(this.w.encoderBackward, embedded, S, true);
      const states = tf.concat([tf.concat(forward, 0), tf.concat(backward, 0)], 1);  // (S, C)
      const finalState = tf.concat([forward[S - 1], backward[0]], 1);                // (1, C)
      const initial = tf.tanh(tf.add(tf.matMul(finalState, this.w.initT), this.w.initBias));
      let keys = null;
      if (this.kind === 'additive' || this.kind === 'general') keys = tf.matMul(states, this.w.keyT);
      else if (this.kind === 'dot' || this.kind === 'scaled-dot') keys = states;
      return { states, finalState, initial, keys };
    });
  }

  // One decoder step for K hypotheses: previous tokens (K ids) and states
  // (K, D). Returns { states (K, D) tensor, attention Float32Array K*S,
  // logProbs Float32Array K*V }.
  #step(encoded, S, previous, states) {
    const tf = this.tf;
    const K = previous.length;
    const result = tf.tidy(() => {
      const embedded = tf.gather(this.w.targetEmbedding, tf.tensor1d(previous, 'int32'));  // (K, E)
      let context;
      let weights = null;
      if (this.kind === 'none') {
        context = tf.tile(encoded.finalState, [K, 1]);
      } else {
        let scores;
        if (this.kind === 'additive') {
          const query = tf.matMul(states, this.w.queryT);                                    // (K, A)
          const hidden = tf.tanh(tf.add(tf.expandDims(encoded.keys, 0), tf.expandDims(query, 1)));  // (K, S, A)
          scores = tf.reshape(tf.matMul(tf.reshape(hidden, [K * S, this.A]), this.w.vector), [K, S]);
        } else {
          scores = tf.matMul(states, encoded.keys, false, true);                             // (K, S)
          if (this.kind === 'scaled-dot') scores = tf.mul(scores, 1 / Math.sqrt(this.C));
        }
        weights = tf.softmax(scores);                                                        // (K, S)
        context = tf.matMul(weights, encoded.states);                                        // (K, C)
      }
      const input = tf.concat([embedded, context], 1);                                     // (K, E + C)
      const projections = this.w.decoder.map((g) => tf.add(tf.matMul(input, g.inputT), g.inputBias));
      const next = this.#gruStep(this.w.decoder, projections, states);                      // (K, D)
      const output = tf.tanh(tf.add(tf.matMul(tf.concat([next, context, embedded], 1), this.w.outputHiddenT), this.w.outputHiddenBias));
      const logProbs = tf.logSoftmax(tf.add(tf.matMul(output, this.w.outputT), this.w.outputBias));  // (K, V)
      return { next, weights, logProbs };
    });
    const logProbs = result.logProbs.dataSync();
    const attention = result.weights ? result.weights.dataSync() : null;
    result.logProbs.dispose();
    result.weights?.dispose();
    return { states: result.next, attention, logProbs };
  }

  // The k best tokens of hypothesis `row`: log prob desc, then lower id.
  #topTokens(logProbs, row, k) {
    const V = this.V;
    const best = [];  // [{ token, logProb }], sorted
    for (let id = 0; id < V; ++id) {
      const lp = logProbs[row * V + id];
      if (best.length === k && !(lp > best[k - 1].logProb)) continue;
      let at = best.length;
      while (at > 0 && lp > best[at - 1].logProb) --at;
      best.splice(at, 0, { token: id, logProb: lp });
      if (best.length > k) best.pop();
    }
    return best;
  }

  /** Source ids (ending with <eos>) to hypotheses, best first, as src/decode/search.cpp. */
  decodeIds(ids, { beamSize = 1, maxLength = 0, lengthPenalty = 1.0, coveragePenalty = 0.2 } = {}) {
    const tf = this.tf;
    const S = ids.length;
    const limit = Math.min(maxLength > 0 ? maxLength : 2 * S + 10, MAX_LENGTH);
    const encoded = this.#encode(ids);
    const V = this.V;
    let live = [{ tokens: [], attention: [], logProb: 0, score: 0, finished: false }];
    let states = tf.clone(encoded.initial);
    const finished = [];
    try {
      for (let t = 0; t < limit && live.length > 0; ++t) {
        const previous = live.map((h) => (h.tokens.length === 0 ? BOS : h.tokens[h.tokens.length - 1]));
        const step = this.#step(encoded, S, previous, states);
        states.dispose();
        const { logProbs, attention } = step;
        for (let k = 0; k < live.length; ++k) {
          logProbs[k * V + PAD] = FORBIDDEN;
          logProbs[k * V + BOS] = FORBIDDEN;
        }
        const candidates = [];
        for (let k = 0; k < live.length; ++k) {
          for (const c of this.#topTokens(logProbs, k, beamSize)) {
            candidates.push({ logProb: live[k].logProb + c.logProb, parent: k, token: c.token, tokenLogProb: c.logProb });
          }
        }
        candidates.sort((a, b) => b.logProb - a.logProb);  // stable, as std::stable_sort
        const survivors = Math.min(candidates.length, beamSize - finished.length);
        const next = [];
        const parents = [];
        for (let i = 0; i < survivors; ++i) {
          const c = candidates[i];
          const parent = live[c.parent];
          const h = {
            tokens: [...parent.tokens, c.token],
            attention: attention ? [...parent.attention, Array.from(attention.subarray(c.parent * S, (c.parent + 1) * S))] : [],
            logProb: parent.logProb + c.tokenLogProb,
            finished: c.token === EOS,
          };
          if (h.finished) finished.push(h);
          else { next.push(h); parents.push(c.parent); }
        }
        if (finished.length >= beamSize) { step.states.dispose(); states = null; break; }
        states = parents.length > 0 ? tf.tidy(() => tf.gather(step.states, tf.tensor1d(parents, 'int32'))) : null;
        step.states.dispose();
        live = next;
        if (!states) break;
      }
      for (const h of live) {
        if (finished.length >= beamSize) break;
        if (!finished.includes(h)) finished.push(h);
      }
    } finally {
      states?.dispose();
      for (const value of Object.values(encoded)) value?.dispose();
    }
    // GNMT's score (Wu et al., 2016, eq. 14), as hypothesis_score in src/decode/search.cpp.
    for (const h of finished) {
      const lp = Math.pow((5 + Math.max(h.tokens.length, 1)) / 6, lengthPenalty);
      let cp = 0;
      if (coveragePenalty > 0 && h.attention.length > 0) {
        for (let i = 0; i + 1 < S; ++i) {
          let received = 0;
          for (const row of h.attention) received += row[i];
          cp += Math.log(Math.min(Math.max(received, 1e-6), 1));
        }
        cp *= coveragePenalty;
      }
      h.score = h.logProb / lp + cp;
    }
    finished.sort((a, b) => (a.finished !== b.finished ? (a.finished ? -1 : 1) : b.score - a.score));
    return finished;
  }

  /** Text to the best translation's tokens and attention (the fields the benchmark compares). */
  translate(text, options = {}) {
    const { ids, sourceTokens, truncated } = this.encodeText(text);
    const hypotheses = this.decodeIds(ids, options).map((h) => ({
      targetTokens: h.tokens.map((id) => this.targetVocabulary[id]),
      attention: h.attention,
      score: h.score,
      logProb: h.logProb,
      finished: h.finished,
    }));
    const best = hypotheses[0];
    return { sourceTokens, truncated, targetTokens: best.targetTokens, attention: best.attention, score: best.score, hypotheses };
  }

  dispose() {
    const dispose = (value) => {
      if (value && typeof value.dispose === 'function') value.dispose();
      else if (value && typeof value === 'object') Object.values(value).forEach(dispose);
    };
    dispose(this.w);
  }
}
