// The URL of en-fr.s2s, one literal that bundlers (Vite, webpack 5, Rollup)
// follow and copy:  import url from 'seq2seq-attention/models/en-fr'; loadModel(url)
export default new URL('./en-fr.s2s', import.meta.url);
