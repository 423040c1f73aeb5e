// The URL of en-zh-fixed.s2s, one literal that bundlers (Vite, webpack 5, Rollup)
// follow and copy:  import url from 'seq2seq-attention/models/en-zh-fixed'; loadModel(url)
export default new URL('./en-zh-fixed.s2s', import.meta.url);
