// theme="auto" of <seq2seq-attention-demo> (embed.js): whether the element
// sits on a dark background, and one observer of the host's theme switches
// for every auto-themed element on the page.
// theme="auto": dark when the element sits on a dark background. The
// background is the nearest ancestor's (across shadow roots) that is mostly
// opaque; with none, the page's canvas, dark when the page asks for a dark
// color-scheme (and, for "light dark", the system prefers dark).
function parentOf(node) {
  return node.parentElement ?? node.getRootNode?.().host ?? null;
}

function relativeLuminance([r, g, b]) {
  const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/**
 * A computed background colour as [r, g, b, alpha] in 0..1, or null.
 * 'rgb()'/'rgba()' and 'color(srgb …)' are read directly; any other form a
 * browser may compute (oklch(), lab(), color(display-p3 …)) is drawn on a
 * 1×1 canvas and read back in sRGB.
 */
let swatch = null;
export function parseColour(text) {
  const numbers = (text.match(/-?[\d.]+/g) ?? []).map(Number);
  if (/^rgba?\(/.test(text) && numbers.length >= 3) {
    const [r, g, b, a = 1] = numbers;
    return [r / 255, g / 255, b / 255, a];
  }
  if (/^color\(srgb /.test(text) && numbers.length >= 3) {
    const [r, g, b, a = 1] = numbers;
    return [r, g, b, a];
  }
  swatch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!swatch) return null;
  swatch.clearRect(0, 0, 1, 1);
  swatch.fillStyle = '#000';  // stays when the text is no colour
  swatch.fillStyle = text;
  swatch.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = swatch.getImageData(0, 0, 1, 1).data;
  return [r / 255, g / 255, b / 255, a / 255];
}

export function onDarkBackground(element) {
  for (let node = parentOf(element); node && node.nodeType === 1; node = parentOf(node)) {
    const colour = parseColour(getComputedStyle(node).backgroundColor);
    if (colour && colour[3] >= 0.5) return relativeLuminance(colour) < 0.25;
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme ?? '';
  if (!/\bdark\b/.test(scheme)) return false;
  return !/\blight\b/.test(scheme) || matchMedia('(prefers-color-scheme: dark)').matches;
}

// The elements on theme="auto", each with what redraws its theme: told when
// the host may have switched its theme (an attribute of <html> or <body>:
// a class, data-theme, MkDocs Material's data-md-color-scheme, a style) or
// the system its colour scheme. One observer for all of them.
const autoThemed = new Map();
let hostWatch = null;
export function watchHostTheme(element, apply) {
  autoThemed.set(element, apply);
  if (hostWatch) return;
  const update = () => autoThemed.forEach((redraw) => redraw());
  hostWatch = new MutationObserver(update);
  hostWatch.observe(document.documentElement, { attributes: true });
  if (document.body) hostWatch.observe(document.body, { attributes: true });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', update);
}

/** Stops redrawing `element` on a host theme switch (theme not auto, or the element removed). */
export function forgetTheme(element) {
  autoThemed.delete(element);
}
