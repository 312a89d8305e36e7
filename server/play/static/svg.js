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

/** column returns the letters of column col (from 0) as docs/notation.md names them: a to z, then aa, ab... */
export function column(col) {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return s;
}

/** square returns the name of the square at column col and row row (both from 0, from the top-left): "c2". */
export function square(col, row) {
  return `${column(col)}${row + 1}`;
}

/** MARGIN is the room a board leaves above and left of its grid for its headings. */
export const MARGIN = 18;

/**
 * headings draws the headings of a grid of cols x rows cells of side size drawn from (0, 0): colName(i) above
 * column i and rowName(i) left of row i (by default as docs/notation.md names squares: letters and numbers from 1).
 */
export function headings(cols, rows, size, colName = column, rowName = (r) => String(r + 1)) {
  const out = [];
  for (let c = 0; c < cols; c++) out.push(svg('text', { class: 'heading col-heading', x: (c + 0.5) * size, y: -5 }, colName(c)));
  for (let r = 0; r < rows; r++) out.push(svg('text', { class: 'heading row-heading', x: -5, y: (r + 0.5) * size + 4 }, rowName(r)));
  return svg('g', { class: 'headings', 'aria-hidden': 'true' }, out);
}

/**
 * quoteSquares returns a refusal's message with each square its facts name written as pairs gives it: pairs holds
 * [firstKey, secondKey, name] for each pair of facts that the message writes as "(first,second)", and name(first,
 * second) is the square in the game's notation. "cell (4,5) holds player 1's stones" becomes "cell f5 holds...".
 */
export function quoteSquares(message, facts, pairs) {
  let out = message;
  for (const [a, b, name] of pairs) {
    if (!(a in facts) || !(b in facts)) continue;
    const [first, second] = [Number(facts[a]), Number(facts[b])];
    if (!Number.isInteger(first) || !Number.isInteger(second)) continue;
    out = out.split(`(${first},${second})`).join(name(first, second)).split(`(${first}, ${second})`).join(name(first, second));
  }
  return out;
}

/** lastMarks outlines the squares of the last move on a grid of cells of side size: keys are "row,col". */
export function lastMarks(keys, size) {
  return [...keys].map((k) => {
    const [row, col] = k.split(',').map(Number);
    return svg('rect', { class: 'last-mark', x: col * size, y: row * size, width: size, height: size });
  });
}

/** count writes n things: "1 explosion", "2 explosions". */
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** cap returns text with its first letter a capital. */
export function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
