// The URL of en-fr-fixed.s2s, one literal that bundlers (Vite, webpack 5, Rollup)
// follow and copy:  import url from 'seq2seq-attention/models/en-fr-fixed'; loadModel(url)
export default new URL('./en-fr-fixed.s2s', import.meta.url);
