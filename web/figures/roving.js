// One tab stop per group of controls (the "roving tabindex" of the WAI-ARIA
// practices): the group's current item has tabindex="0" and every other
// tabindex="-1", so Tab enters the group once and leaves it; inside it the
// arrow keys move to the previous or next item, Home and End to the first
// and the last. The current item is the last one focused (or clicked), else
// the pressed one (aria-pressed="true"), else the first.
//
// The group's items may be drawn again at any time (chips, hypotheses, the
// coverage row): a MutationObserver puts the one stop back after each
// change, on the item at the same position when the old one is gone.
// Disabled and hidden items are skipped.

/**
 * Makes `container` one tab stop over its items.
 * options: {
 *   selector: CSS selector of the items among the container's descendants,
 *   keys: 'horizontal' (← →), 'vertical' (↑ ↓) or 'both' (default: ← → ↑ ↓ all step through the items),
 * }
 * Returns { refresh() }: puts the stop back at once (the observer does it after each change anyway).
 */
export function rovingGroup(container, { selector, keys = 'both' } = {}) {
  let position = 0; // of the current item among the items
  let moved = false; // whether the reader has picked an item yet
  const items = () => [...container.querySelectorAll(selector)].filter((item) => !item.disabled && !item.hidden && !item.closest('[hidden]'));
  const backward = keys === 'horizontal' ? ['ArrowLeft'] : keys === 'vertical' ? ['ArrowUp'] : ['ArrowLeft', 'ArrowUp'];
  const forward = keys === 'horizontal' ? ['ArrowRight'] : keys === 'vertical' ? ['ArrowDown'] : ['ArrowRight', 'ArrowDown'];

  function refresh() {
    const list = items();
    if (!list.length) return;
    const focused = list.indexOf(container.ownerDocument.activeElement);
    const pressed = list.findIndex((item) => item.getAttribute('aria-pressed') === 'true');
    // An item drawn with the one stop keeps it (a list drawn all at tabindex 0 tells nothing).
    const stops = list.filter((item) => item.getAttribute('tabindex') === '0');
    const kept = stops.length === 1 ? list.indexOf(stops[0]) : -1;
    if (focused >= 0) position = focused;
    else if (kept >= 0) position = kept;
    else if (!moved && pressed >= 0) position = pressed;
    else position = Math.min(position, list.length - 1);
    list.forEach((item, k) => {
      const wanted = k === position ? '0' : '-1';
      if (item.getAttribute('tabindex') !== wanted) item.setAttribute('tabindex', wanted);
    });
    // A disabled or hidden item keeps no stop of its own.
    for (const item of container.querySelectorAll(selector)) {
      if (!list.includes(item) && item.getAttribute('tabindex') === '0') item.setAttribute('tabindex', '-1');
    }
  }

  function moveTo(list, k) {
    position = k;
    list.forEach((item, j) => item.setAttribute('tabindex', j === k ? '0' : '-1'));
    list[k].focus();
  }

  container.addEventListener('focusin', (event) => {
    const list = items();
    const k = list.indexOf(event.target);
    if (k < 0) return;
    position = k;
    moved = true;
    list.forEach((item, j) => item.setAttribute('tabindex', j === k ? '0' : '-1'));
  });
  container.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const list = items();
    const k = list.indexOf(event.target);
    if (k < 0) return;
    let next = null;
    if (backward.includes(event.key)) next = Math.max(0, k - 1);
    else if (forward.includes(event.key)) next = Math.min(list.length - 1, k + 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = list.length - 1;
    if (next === null) return;
    event.preventDefault();
    moveTo(list, next);
  });
  new MutationObserver(refresh).observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
  refresh();
  return { refresh };
}
