// The URL of en-zh.s2s, one literal that bundlers (Vite, webpack 5, Rollup)
// follow and copy:  import url from 'seq2seq-attention/models/en-zh'; loadModel(url)
export default new URL('./en-zh.s2s', import.meta.url);
