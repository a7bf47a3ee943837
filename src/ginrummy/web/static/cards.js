// Our own playing cards, drawn as SVG: faces with pip layouts, court cards, and backs.
// A card is written as in the engine: rank (A 2 3 4 5 6 7 8 9 T J Q K) then suit (s h d c).

export const RANKS = "A23456789TJQK";
export const SUITS = "shdc";
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_NAMES = {
  A: "ace", T: "10", J: "jack", Q: "queen", K: "king",
};
const RANK_LABEL = { T: "10" };

export function rankIndex(card) { return RANKS.indexOf(card[0]); }
export function suitIndex(card) { return SUITS.indexOf(card[1]); }

/** "7 of hearts", "queen of spades": what a screen reader says for a card. */
export function cardName(card) {
  const r = card[0];
  return `${RANK_NAMES[r] ?? r} of ${SUIT_NAMES[card[1]]}`;
}

/** Pretty text for messages: 7♥, 10♠. */
export function cardText(card) {
  return `${RANK_LABEL[card[0]] ?? card[0]}${{ s: "♠", h: "♥", d: "♦", c: "♣" }[card[1]]}`;
}

// Suit shapes in a 100 x 100 box.
const SUIT_PATH = {
  h: "M50 90C22 64 6 50 6 31C6 16 17 6 30 6C40 6 47 12 50 21C53 12 60 6 70 6C83 6 94 16 94 31C94 50 78 64 50 90Z",
  d: "M50 4L86 50L50 96L14 50Z",
  s: "M50 5C78 30 93 43 93 60C93 73 83 81 71 81C62 81 56 77 53 71C54 81 58 89 67 95H33C42 89 46 81 47 71C44 77 38 81 29 81C17 81 7 73 7 60C7 43 22 30 50 5Z",
  c: "M50 6A20 20 0 0 1 68 36A20 20 0 1 1 55 70C56 81 60 89 67 95H33C40 89 44 81 45 70A20 20 0 1 1 32 36A20 20 0 0 1 50 6Z",
};

function suitShape(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATH[suit]}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}"/>`;
}

// Pip positions (x, y, upside down) on a 100 x 140 card for ranks 2-10.
const L = 30, C = 50, R = 70;
const PIPS = {
  2: [[C, 28], [C, 112, 1]],
  3: [[C, 28], [C, 70], [C, 112, 1]],
  4: [[L, 28], [R, 28], [L, 112, 1], [R, 112, 1]],
  5: [[L, 28], [R, 28], [C, 70], [L, 112, 1], [R, 112, 1]],
  6: [[L, 28], [R, 28], [L, 70], [R, 70], [L, 112, 1], [R, 112, 1]],
  7: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [L, 112, 1], [R, 112, 1]],
  8: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [C, 91, 1], [L, 112, 1], [R, 112, 1]],
  9: [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84, 1], [R, 84, 1], [L, 112, 1], [R, 112, 1]],
  10: [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84, 1], [R, 84, 1], [C, 98, 1], [L, 112, 1], [R, 112, 1]],
};

const COURT_TITLE = { J: "JACK", Q: "QUEEN", K: "KING" };

const cache = new Map();

/** The SVG markup of a card's face. `fourColour`: diamonds blue and clubs green. */
export function cardFace(card, fourColour = false) {
  const key = `${card}|${fourColour}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = card[0], s = card[1];
  const colours = fourColour
    ? { s: "#1b1b1b", h: "#c8102e", d: "#1557c0", c: "#147a2e" }
    : { s: "#1b1b1b", h: "#c8102e", d: "#c8102e", c: "#1b1b1b" };
  const ink = colours[s];
  const label = RANK_LABEL[r] ?? r;
  const corner = (flip) => {
    const t = flip ? ` transform="rotate(180 50 70)"` : "";
    return `<g${t}><text x="11" y="22" text-anchor="middle" font-size="${label.length > 1 ? 17 : 20}" font-weight="700" letter-spacing="-1" font-family="Georgia, 'DejaVu Serif', serif">${label}</text>${suitShape(s, 11, 32, 13)}</g>`;
  };
  let middle;
  if (r === "A") {
    middle = suitShape(s, 50, 70, s === "s" ? 52 : 40);
  } else if (COURT_TITLE[r]) {
    middle = `<rect x="22" y="24" width="56" height="92" rx="5" fill="none" stroke="${ink}" stroke-width="1.6"/>`
      + `<rect x="25" y="27" width="50" height="86" rx="3" fill="${ink}" fill-opacity="0.07"/>`
      + `<text x="50" y="80" text-anchor="middle" font-size="44" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif">${r}</text>`
      + suitShape(s, 50, 42, 16) + suitShape(s, 50, 99, 16, true)
      + `<text x="50" y="112" text-anchor="middle" font-size="6" letter-spacing="1.5" font-family="sans-serif">${COURT_TITLE[r]}</text>`;
  } else {
    const n = r === "T" ? 10 : Number(r);
    middle = PIPS[n].map(([x, y, f]) => suitShape(s, x, y, 17, Boolean(f))).join("");
  }
  const svg = `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">`
    + `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b2a3" stroke-width="1.2"/>`
    + `<g fill="${ink}">${corner(false)}${corner(true)}${middle}</g></svg>`;
  cache.set(key, svg);
  return svg;
}

/** The markup of a card's back: a lattice drawn by CSS (class "back"), in the theme's colour. */
export function cardBack() {
  return `<span class="back-art" aria-hidden="true"><span class="back-mark">G</span></span>`;
}

/** Sort key: by rank then suit, or by suit then rank. */
export function sortKey(card, bySuit) {
  return bySuit ? suitIndex(card) * 13 + rankIndex(card) : rankIndex(card) * 4 + suitIndex(card);
}
