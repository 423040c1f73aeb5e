// 'seq2seq-attention/models/NAME' (models/NAME.js): the URL of a shipped
// model's file, for loadModel() in a bundled app.
declare const url: URL;
export default url;
