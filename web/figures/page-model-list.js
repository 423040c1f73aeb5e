// The models the demo page and the element let a reader pick: the shipped
// models with attention, the package's default first (each fixed-context
// baseline is shown beside its model, not picked). A page fact, so it lives
// with the page; pure, so that scripts/write-page-boot.mjs computes the same
// list in Node for the start script.

/** The pickable models of the package's data ('seq2seq-attention/data': modelCatalog, shippedModels, defaultModel). */
export function pageModels({ modelCatalog, shippedModels, defaultModel }) {
  return [defaultModel, ...shippedModels.filter((name) => name !== defaultModel)]
    .filter((name) => !modelCatalog[name].baselineOf);
}
