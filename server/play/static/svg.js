// svg.js: building SVG and HTML elements, and what the boards share.

const SVG = 'http://www.w3.org/2000/svg';

/** svg makes an SVG element with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  e.append(...children.flat());
  return e;
}

/** html makes an HTML element with attributes and children (strings become text). */
export function html(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children.flat());
  return e;
}

/** PLAYER_CLASSES are the CSS classes of the players' colours, by seat from 1. */
export function playerClass(p) {
  return `p${((p - 1) % 8) + 1}`;
}

/**
 * target makes g a control a person can act on by mouse or keyboard: focusable, a button to assistive technology,
 * marked data-legal when it is a legal choice, calling act on a click or on Enter and Space.
 */
export function target(g, label, legal, act) {
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-label', label);
  if (legal) {
    g.setAttribute('data-legal', '');
    g.classList.add('legal');
  }
  g.addEventListener('click', act);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      act();
    }
  });
  return g;
}

/** reducedMotion reports whether the person asked for less motion. */
export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** pause waits ms milliseconds (for an animation's frames). */
export function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** same reports whether two cells {row, col} or {x, y} are the same, missing members being 0. */
export function sameCell(a, b) {
  return (a.row ?? 0) === (b.row ?? 0) && (a.col ?? 0) === (b.col ?? 0) && (a.x ?? 0) === (b.x ?? 0) && (a.y ?? 0) === (b.y ?? 0);
}
