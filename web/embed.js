// The element's published address (issue 44): tutorials load
//   <script type="module" src="https://YOUR-HOST/web/embed.js"></script>
// and the package exports it as seq2seq-attention/web/embed.js. The element
// itself lives in web/embed/embed.js; this file only loads it (defining
// <seq2seq-attention-demo>) and passes on what it exports.
export * from './embed/embed.js';
