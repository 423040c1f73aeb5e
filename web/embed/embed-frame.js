// web/embed.html: one element made from the page's query parameters, its
// height and its events told to the parent frame (see embed.html).
// Every attribute the element has (its observedAttributes, embed-attributes.js's
// table) is a query parameter of the same name.
await customElements.whenDefined('seq2seq-attention-demo');
const { observedAttributes } = customElements.get('seq2seq-attention-demo');

const params = new URLSearchParams(location.search);
const demo = document.createElement('seq2seq-attention-demo');
for (const name of observedAttributes) {
  if (params.has(name)) demo.setAttribute(name, params.get(name));
}
// A frame is shown when it is loaded: no reason to wait for the viewport.
if (!params.has('loading')) demo.setAttribute('loading', 'eager');
document.body.append(demo);

const tell = (message) => { if (window.parent !== window) window.parent.postMessage(message, '*'); };
let lastHeight = 0;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== lastHeight) {
    lastHeight = height;
    tell({ type: 's2s-height', height });
  }
}).observe(document.body);
// The events, as plain data (a result's typed arrays stay in the frame).
demo.addEventListener('s2s-translated', (event) => tell({ type: 's2s-translated', detail: { text: event.detail.text, model: event.detail.model, translation: event.detail.result.text } }));
demo.addEventListener('s2s-step', (event) => tell({ type: 's2s-step', detail: { step: event.detail.step } }));
demo.addEventListener('s2s-error', (event) => tell({ type: 's2s-error', detail: { message: event.detail.message } }));
