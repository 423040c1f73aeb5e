// The demo page's downloads and link: the figure as PNG or SVG (named after
// the model, the unit and the sentence) and the page's URL copied, with its
// state (page-url.js). app.js wires the buttons (wireSharing).
import { download } from '../figures/dom.js';
import { svgBlob, pngBlob } from '../figures/heatmap.js';
import { isShipped } from '../figures/page-models.js';
import { fileName, setStatus, showError, state } from './page-state.js';
import { writeUrl } from './page-url.js';
import { figureElement, figureSvg } from './figure-view.js';


function fileStem() {
  const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  const model = isShipped(state.model) ? state.model : slug(fileName(state.model).replace(/\.s2s$/, '')) || 'model';
  return `${state.view === 'lines' ? 'alignment' : 'attention'}-${model}${state.unit === 'words' ? '-words' : ''}-${slug(state.text) || 'sentence'}`;
}

async function exportFigure(kind) {
  const element = figureElement();
  if (!element) {
    setStatus('status.noFigure');
    return;
  }
  try {
    // The heatmap's SVG and PNG are the package's static figure (heatmapSvg,
    // as the bin's `figure` draws it: the sentence, its translation, the
    // axes' titles and the model); the lines view's are the page's drawing.
    const standalone = figureSvg();
    const blob = kind === 'png' ? await pngBlob(standalone ?? element)
      : standalone !== null ? new Blob([standalone], { type: 'image/svg+xml' }) : svgBlob(element);
    download(blob, `${fileStem()}.${kind}`);
  } catch (error) {
    showError(error);
  }
}

async function copyLink() {
  writeUrl();
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('status.linkCopied');
  } catch {
    setStatus('status.copyByHand');
  }
}

/** The buttons under the figure: download PNG, download SVG, copy the link. */
export function wireSharing() {
  document.getElementById('export-png').addEventListener('click', () => exportFigure('png'));
  document.getElementById('export-svg').addEventListener('click', () => exportFigure('svg'));
  document.getElementById('copy-link').addEventListener('click', copyLink);
}
