// The card's stylesheet of <seq2seq-attention-demo> (embed.js), inside its
// Shadow DOM: the host page's CSS and this cannot disturb each other. The
// light and dark themes are custom properties of .card and .card.dark;
// custom properties set on the element (--s2s-background, --s2s-text,
// --s2s-muted, --s2s-border, --s2s-field, --s2s-accent) restyle the card.
import { HEATMAP_CSS } from '../figures/heatmap.js';
import { ALIGNMENT_CSS } from '../figures/alignment.js';
import { STEP_CSS } from '../figures/step-panel.js';

export const STYLE = `
:host {
  display: block;
  max-width: 100%;
  margin: 1em 0;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif;
}
:host([hidden]) { display: none; }
.card {
  --bg: var(--s2s-background, #fff); --fg: var(--s2s-text, #1f2937); --muted: var(--s2s-muted, #64748b);
  --line: var(--s2s-border, #e2e8f0); --field: var(--s2s-field, #fff); --accent: var(--s2s-accent, #4338ca);
  --error-fg: #b91c1c; --error-bg: #fef2f2; --error-line: #fca5a5; --warn-fg: #92400e; --warn-bg: #fffbeb; --warn-line: #fcd34d;
  color: var(--fg); border: 1px solid var(--line); border-radius: 10px; background: var(--bg); padding: 12px 14px; min-width: 0;
}
.card.dark {
  --bg: var(--s2s-background, #111827); --fg: var(--s2s-text, #e5e7eb); --muted: var(--s2s-muted, #9ca3af);
  --line: var(--s2s-border, #374151); --field: var(--s2s-field, #1f2937); --accent: var(--s2s-accent, #a5b4fc);
  --error-fg: #fecaca; --error-bg: #450a0a; --error-line: #991b1b; --warn-fg: #fde68a; --warn-bg: #422006; --warn-line: #a16207;
  --panel-line: #4b5563; --panel-track: #374151; --panel-bar: #60a5fa; --panel-ink: #f9fafb; --panel-muted: #d1d5db;
  color-scheme: dark;
}
.head { display: flex; justify-content: space-between; gap: 8px; font-size: 12px; color: var(--muted); flex-wrap: wrap; }
.head b { color: var(--accent); font-weight: 600; }
input {
  width: 100%; box-sizing: border-box; margin: 8px 0 4px; padding: 7px 10px;
  border: 1px solid var(--line); border-radius: 6px; font: inherit; font-size: 16px; color: inherit; background: var(--field);
}
input:focus-visible, .cell:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
.translation { font-family: Charter, Cambria, Georgia, serif; font-size: 21px; margin: 6px 0; min-height: 1.3em; overflow-wrap: anywhere; }
.scroll { width: fit-content; max-width: 100%; box-sizing: border-box; overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
.scroll:empty { display: none; }
.readout { min-height: 1.5em; font-size: 13px; margin: 4px 0 0; }
.status { font-size: 13px; color: var(--muted); min-height: 1.4em; margin: 2px 0; }
.error { color: var(--error-fg); background: var(--error-bg); border: 1px solid var(--error-line); border-radius: 6px; padding: 6px 8px; font-size: 14px; }
.notice { background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 6px; padding: 6px 8px; font-size: 13px; }
/* A box per message, never a box broken across lines; a long URL wraps inside it. */
.error, .notice { display: block; overflow-wrap: anywhere; }
.error .detail { display: block; margin-top: 4px; font-size: 12px; opacity: 0.85; }
.compare { margin: 10px 0 0; padding-top: 8px; border-top: 1px solid var(--line); }
.compare[hidden] { display: none; }
.compare-label { font-size: 12px; color: var(--muted); margin: 0; }
.compare-label b { color: var(--fg); font-weight: 600; }
.compare .translation { color: var(--fg); }
.compare h3 { font-size: 13px; font-weight: 600; margin: 10px 0 4px; }
.chart-box { background: #fff; color: #334155; border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; max-width: 620px; box-sizing: border-box; }
.chart-box:empty { display: none; }
.chart-box svg { display: block; max-width: 100%; height: auto; }
.chart-legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; color: #334155; margin-bottom: 4px; }
.chart-legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.caption { font-size: 12px; color: var(--muted); margin: 4px 0 0; }
.foot { font-size: 11px; color: var(--muted); margin-top: 6px; }
.note { font-size: 12px; color: var(--warn-fg); background: var(--warn-bg); border-left: 3px solid #f59e0b; padding: 4px 8px; margin: 6px 0; }
.foot a { color: inherit; }
.readout b { font-weight: 600; }
${HEATMAP_CSS}
${ALIGNMENT_CSS}
${STEP_CSS}
.step-panel:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
.step-panel:empty { display: none; }
.step-nav { display: flex; gap: 8px; margin: 6px 0 0; }
.step-nav[hidden] { display: none; }
.step-nav button { font: inherit; font-size: 13px; padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--field); color: var(--fg); cursor: pointer; }
.step-nav button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 1px; }
`;
