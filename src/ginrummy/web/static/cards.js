// Our own playing cards, drawn as SVG: faces with pip layouts, court cards, and backs.
// A card is written as in the engine: rank (A 2 3 4 5 6 7 8 9 T J Q K) then suit (s h d c).
//
// Everything here is the project's own drawing, generated in code (no images, no fonts fetched).
// Court cards: a double-ended bust in a frame, the top half turned 180 degrees about the centre
// for the bottom half, in the traditional court palette (red, blue, gold, black outline). The
// king has a crown and a beard, the queen a small crown, long hair and a flower, the jack a
// feathered cap; what each holds depends on the suit, and the suit's pip sits by the shoulder,
// with the suit's ink for the frame. Backs (see BACKS): a white margin round a panel in the
// theme's colour (CSS custom property --back) with white line work, each the same upside down.

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

/** A text with every card in the engine's notation ("discard Qh") written as a person
 * reads it ("discard Q♥"). */
export function withSuitSymbols(text) {
  return String(text).replace(/\b([A2-9TJQK])([shdc])\b/g, (_, r, s) => cardText(r + s));
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

// ---- court figures ---------------------------------------------------------------------------
// The top half is drawn in card coordinates above a slanted divider through the centre (50, 70):
// y = 70 + (50 - x) / 10, so 72.9 at the frame's left (x 21) and 67.1 at its right (x 79).
// Strokes come from the group round each half (black outline); fills are given per shape.
// No <g fill> other than in the card's ink: the table's tests read a face's ink from its <g fill>.

const RED = "#c23", BLUE = "#25a", GOLD = "#fc3", SKIN = "#fed", WHITE = "#fff";
const STEEL = "#dde", LEAF = "#383", BLACK = "#1b1b1b";

const f1 = (v) => Math.round(v * 10) / 10;
/** Path text for a circle. */
const circle = (cx, cy, r) => `M${f1(cx - r)} ${f1(cy)}a${f1(r)} ${f1(r)} 0 1 0 ${f1(2 * r)} 0a${f1(r)} ${f1(r)} 0 1 0 ${f1(-2 * r)} 0`;
const sh = (d, fill) => `<path d="${d}" fill="${fill}"/>`;
const ln = (d, w = 0.6, colour = "") => `<path d="${d}" fill="none" stroke-width="${w}"${colour ? ` stroke="${colour}"` : ""}/>`;
/** Straight strokes or dots (each subpath one segment, so no area and no fill needed). */
const bare = (d, w, colour = "") => `<path d="${d}" stroke-width="${w}"${colour ? ` stroke="${colour}"` : ""}/>`;
/** Round dots of radius r at the points of d ("Mx yh.1" each; no area, so no fill), outlined in black. */
const dots = (d, r, colour) => bare(d, 2 * r + 0.9) + bare(d, 2 * r, colour);
/** Gold-edged lines (and gold dots): a black line with a gold one on it. */
const trim = (d) => ln(d, 2.5) + ln(d, 1.6, GOLD);

/** A face centred at (x, y): eyes, brows, nose, mouth (red lips for the queen). */
function face(x, y, rx, ry, lips) {
  return `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="${SKIN}"/>`
    + ln(`M${x - 4.3} ${y - 3.2}q1.6-1.1 3.1 0M${x + 1.2} ${y - 3.2}q1.6-1.1 3.1 0M${x + 0.3} ${y - 1.4}q.6 2.6-.1 3.6h-1`)
    + bare(`M${x - 2.7} ${y - 1.3}h.1M${x + 2.7} ${y - 1.3}h.1`, 1.5)
    + (lips ? ln(`M${x - 1.6} ${y + 4.2}q1.6 1 3.2 0`, 1, RED) : "");
}

/** Body from the shoulders (at height y) down to the divider, in the main colour. */
const body = (y, m) => sh(`M21 72.9V${y + 10}Q22 ${y + 2} 36 ${y}H60Q77 ${y + 2} 79 ${y + 10}V67.1Z`, m)
  + trim(`M34 ${y + 3}Q30 60 32.5 71.7M27 60.5h.1M25.4 63.6h.1M28.6 63.6h.1`);

/** The right arm: a sleeve in colour c from the shoulder to a hand at (69, 61). */
const arm = (c) => sh("M58 53Q70 51 73 59L65.5 63Q63 57 57 57Z", c) + sh("M64.6 58.6l7.2-3.4 1.4 3.4-7.3 3.3Z", GOLD);
const neck = sh("M44.8 40h6.4v10h-6.4Z", SKIN);
const hand = `<ellipse cx="69.3" cy="61.4" rx="3.6" ry="2.9" fill="${SKIN}"/>`;

// What each figure holds, by rank and suit: drawn from the hand (69, 61) upwards.
const sword = sh("M67.6 56V15l1.8-3 1.8 3v41Z", STEEL) + bare("M69.4 16v38", 0.4)
  + sh("M63 55h12.8v2.6H63Z", GOLD) + sh("M68.2 57.6h2.4V67h-2.4Z", BLACK);
const sceptre = sh("M68.3 66V24h2.2v42Z", GOLD) + `<circle cx="69.4" cy="21" r="3.3" fill="${GOLD}"/>`
  + bare("M69.4 12.6v5M67.2 14.8h4.4", 1.1) + `<circle cx="69.4" cy="21" r="1.2" fill="${RED}"/>`;
const axe = sh("M68.3 66V13h2.2v53Z", GOLD) + sh("M70.5 15q5 1 6.5-2.5 1.5 9-.5 15.5-1.5-3.5-6-3.5Z", STEEL)
  + sh("M68.3 17q-3.5 1-5-2 0 5 5 6Z", STEEL);
const orb = `<circle cx="69.4" cy="53" r="5" fill="${GOLD}"/>` + bare("M64.4 53h10M69.4 48v10", 0.6)
  + bare("M69.4 43.5v4.5M67.4 45.5h4", 1.1);
const halberd = sh("M68.3 66V17h2.2v49Z", GOLD) + sh("M69.4 11.5l1.9 6.5h-3.8Z", STEEL)
  + sh("M70.5 19.5q5 0 7-3.5 1 7-1 11-1.5-2.5-6-2.5Z", STEEL) + sh("M68.3 19l-4 2 4 2Z", STEEL);
const flower = (petal, heart) => ln("M68.8 64Q70 46 66 32", 0.9) + sh("M68.6 48q-7-3-8 2 5 3 8-2Z", LEAF)
  + sh(`M${[0, 1, 2, 3, 4, 5].map((i) => `${f1(66 + 4 * Math.sin(i * 1.2566))} ${f1(29.4 - 4 * Math.cos(i * 1.2566))}`).join("A2.6 2.6 0 0 1 ")}Z`, petal)
  + `<circle cx="66" cy="29.4" r="1.7" fill="${heart}"/>`;
const leaf = ln("M69 66Q70 40 66 18", 0.9) + sh("M66 18q-9 10-4 22 9-6 4-22Z", LEAF) + ln("M66 22q-3 8-3 16", 0.4);
const arrow = sh("M68.5 66V19h1.8v47Z", GOLD) + sh("M69.4 12l3 7.5h-6Z", STEEL)
  + sh("M68.5 66l-3 4v-6l3-3Z", RED) + sh("M70.3 66l3 4v-6l-3-3Z", RED);

const HOLDS = {
  K: { s: sword, h: sceptre, d: axe, c: orb },
  Q: { s: sceptre, h: flower(RED, GOLD), d: flower(GOLD, RED), c: flower(WHITE, GOLD) },
  J: { s: halberd, h: leaf, d: axe, c: arrow },
};

function kingHalf(s, m, n) {
  return body(47, m) + neck
    + sh("M40 48H56L58 69.2L38 71.2Z", GOLD) + sh("M45 48H51L52 69.8L44 70.6Z", n)
    + bare("M39.2 54.5h17.6M38.6 61h18.8", 0.5)
    + arm(n) + HOLDS.K[s] + hand
    + sh("M31 50Q48 60 65 50Q62 45.5 57 45.5Q48 52 39 45.5Q34 45.5 31 50Z", WHITE)
    + bare("M36 50.2v1.4M42 53.4v1.4M48 54.6v1.4M54 53.4v1.4M60 50.2v1.4", 1.1)
    + sh("M39.5 28Q36 40 39 47.5H57Q60 40 56.5 28Z", GOLD) + ln("M40 38q2 2 0 4.5M56 38q-2 2 0 4.5", 0.5)
    + face(48, 34.5, 7, 8.5, false)
    + sh("M41.2 36Q41 47.5 48 50.5Q55 47.5 54.8 36Q53 41.5 48 42Q43 41.5 41.2 36Z", GOLD)
    + ln("M44.4 40.6q2-1.8 3.6-.6q1.6-1.2 3.6.6", 0.8) + ln("M46 45q2 2 4 0M47 47.6q1 1 2 0", 0.4)
    + sh("M40 28.6L38.8 17.5l4.2 4.7 2.5-8.2 2.5 7 2.5-7 2.5 8.2 4.2-4.7L56 28.6Z", GOLD)
    + sh("M40 25.4H56V28.8H40Z", n) + bare("M43.5 27.1h.1M48 27.1h.1M52.5 27.1h.1", 1.6, GOLD)
    + dots("M38.8 17h.1M45.5 13.7h.1M50.5 13.7h.1M57.2 17h.1", 1.2, GOLD);
}

function queenHalf(s, m, n) {
  return body(48, m) + neck
    + sh("M42 55H54L56 69.4L40 71Z", n)
    + arm(n) + HOLDS.Q[s] + hand
    + sh("M39.6 47.5Q48 58.5 56.4 47.5Z", SKIN) + ln("M40.5 48.6Q48 57.5 55.5 48.6", 1.3, GOLD)
    + `<circle cx="48" cy="55" r="1.3" fill="${RED}"/>`
    + sh("M40 27Q33 38 33.5 56Q38 58.5 41.5 55Q40 44 42.5 36H53.5Q56 44 54.5 55Q58 58.5 62.5 56Q63 38 56 27Z", GOLD)
    + ln("M37 36q-1.5 7 0 13M59 36q1.5 7 0 13M39.5 38q-1 6 .5 11M56.5 38q1 6-.5 11M43.5 59l9 3M43.5 62l9-3M43 65l10 3M43 68l10-3", 0.45)
    + face(48, 35, 6.5, 8, true)
    + sh("M41.6 30Q44 26 48 26.2Q52 26 54.4 30Q52 28 48 28.2Q44 28 41.6 30Z", GOLD)
    + sh("M41 27.2L40 19.5l4 3.5 4-6.5 4 6.5 4-3.5-1 7.7Z", GOLD)
    + sh("M41 25H55V27.6H41Z", n) + bare("M44.5 26.3h.1M48 26.3h.1M51.5 26.3h.1", 1.4, GOLD)
    + dots("M48 15.6h.1M40 19h.1M56 19h.1", 1.1, GOLD);
}

function jackHalf(s, m, n) {
  return body(49, m) + neck
    + sh("M44 50H52L53 69.7L43 70.7Z", GOLD) + bare("M48 53v.1M48 58v.1M48 63v.1", 1.5, n)
    + arm(n) + HOLDS.J[s] + hand
    + sh("M37 50Q48 57 59 50L57 46.5Q48 52 39 46.5Z", WHITE) + bare("M41 49.5l1 3M45 50.8l.5 3M51 50.8l-.5 3M55 49.5l-1 3", 0.4)
    + sh("M39.5 31Q37 40 38.6 46.6Q43 48.6 44.4 44.6Q42.5 40 42.5 35H53.5Q53.5 40 51.6 44.6Q53 48.6 57.4 46.6Q59 40 56.5 31Z", GOLD)
    + face(48, 36.5, 6.4, 7.6, false)
    + sh("M40.5 30Q39 19 49 18.5Q59 19 56.5 30Z", n)
    + sh("M38.2 28.5Q48 25 58.6 28.5L58.2 31.6Q48 28.4 38.6 31.6Z", GOLD)
    + sh("M52.5 20.5Q55 13 62.5 12Q58.5 15 57 21.5Z", WHITE) + ln("M54 19q1.8-4.5 6.5-6", 0.4)
    + `<circle cx="52.8" cy="21.8" r="1.5" fill="${m}"/>`;
}

const HALVES = { K: kingHalf, Q: queenHalf, J: jackHalf };

/** Shorter markup: numbers to one decimal, no leading zeros, no space before a minus. */
const tidy = (svg) => svg.replace(/\d*\.\d{2,}/g, (v) => String(f1(Number(v))))
  .replace(/(^|[^\d.])0\.(\d)/g, "$1.$2").replace(/ -(?=[\d.])/g, "-");

function court(r, s, ink) {
  const [m, n] = s === "h" || s === "d" ? [RED, BLUE] : [BLUE, RED];
  const half = tidy(HALVES[r](s, m, n));
  const wrap = `stroke="${BLACK}" stroke-width=".8" stroke-linejoin="round" stroke-linecap="round"`;
  return `<g ${wrap}>${half}</g><g ${wrap} transform="rotate(180 50 70)">${half}</g>`
    + `<path d="M21 72.9L79 67.1" stroke="${BLACK}" stroke-width=".8"/>`
    + `<rect x="21" y="10" width="58" height="120" rx="1.5" fill="none" stroke="${ink}" stroke-width="1.4"/>`;
}

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
  let middle = "", figure = "";
  if (r === "A") {
    middle = suitShape(s, 50, 70, s === "s" ? 52 : 40);
  } else if (HALVES[r]) {
    figure = court(r, s, ink);
    middle = suitShape(s, 29, 21, 11) + suitShape(s, 71, 119, 11, true);  // the pips by the shoulders
  } else {
    const n = r === "T" ? 10 : Number(r);
    middle = PIPS[n].map(([x, y, f]) => suitShape(s, x, y, 17, Boolean(f))).join("");
  }
  const svg = `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">`
    + `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b2a3" stroke-width="1.2"/>`
    + `${figure}<g fill="${ink}">${corner(false)}${corner(true)}${middle}</g></svg>`;
  cache.set(key, svg);
  return svg;
}

// ---- backs -----------------------------------------------------------------------------------

/** The designs of the backs, in display order. */
export const BACKS = [
  { id: "lattice", name: "Lattice" },
  { id: "rosette", name: "Rosette" },
  { id: "deco", name: "Art deco" },
  { id: "waves", name: "Waves" },
  { id: "plain", name: "Plain with a border" },
];

const BACK_COLOUR = "var(--back, #7a1f2b)";
// The coloured panel inside the white margin.
const PX = 6, PY = 6, PW = 88, PH = 128;

/** A point and its turn by 180 degrees about the card's centre. */
const turn = ([x, y]) => [100 - x, 140 - y];
const pt = ([x, y]) => `${f1(x)} ${f1(y)}`;
/** Path text for a polyline given as points, and the same turned by 180 degrees. */
const poly = (pts, close = false) => `M${pts.map(pt).join("L")}${close ? "Z" : ""}`;
const both = (pts, close) => poly(pts, close) + poly(pts.map(turn), close);

/** A line segment (x + t dx, y + t dy) cut to the rectangle, or "". */
function clipLine(x, y, dx, dy, x0, y0, x1, y1) {
  let lo = -Infinity, hi = Infinity;
  for (const [p, d, a, b] of [[x, dx, x0, x1], [y, dy, y0, y1]]) {
    if (d === 0) { if (p < a || p > b) return ""; continue; }
    const t1 = (a - p) / d, t2 = (b - p) / d;
    lo = Math.max(lo, Math.min(t1, t2)); hi = Math.min(hi, Math.max(t1, t2));
  }
  if (hi - lo < 0.5) return "";
  return `M${f1(x + lo * dx)} ${f1(y + lo * dy)}L${f1(x + hi * dx)} ${f1(y + hi * dy)}`;
}

function latticeBack() {
  const x0 = PX + 4, y0 = PY + 4, x1 = PX + PW - 4, y1 = PY + PH - 4;
  let d = "";
  for (let k = -16; k <= 16; k++) {
    d += clipLine(50 + k * 7, 70, 1, 1, x0, y0, x1, y1) + clipLine(50 + k * 7, 70, 1, -1, x0, y0, x1, y1);
  }
  // a dot in the middle of every cell: rows of zero-length dashes 7 apart
  let dots = "";
  for (let j = -18; j <= 18; j++) {
    const y = 70 + j * 3.5;
    if (y < y0 + 1.5 || y > y1 - 1.5) continue;
    let a = -12;
    while (50 + a * 3.5 < x0 + 1.5 || !((a + j) % 2)) a++;
    dots += `M${f1(50 + a * 3.5)} ${f1(y)}H${f1(100 - (50 + a * 3.5))}`;
  }
  const medal = `M50 52L66 70L50 88L34 70Z`;
  return `<path d="${d}" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width=".7"/>`
    + `<path d="${dots}" stroke="#fff" stroke-opacity=".5" stroke-width="1.3" stroke-dasharray="0 7" stroke-linecap="round"/>`
    + `<path d="${medal}" fill="${BACK_COLOUR}" stroke="#fff" stroke-opacity=".8" stroke-width="1.2"/>`
    + `<path d="M50 57L61.5 70L50 83L38.5 70Z${circle(50, 70, 4)}" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width=".7"/>`
    + frameLines();
}

/** Double white line just inside the panel. */
function frameLines() {
  return `<rect x="${PX + 2}" y="${PY + 2}" width="${PW - 4}" height="${PH - 4}" rx="2.5" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width="1"/>`
    + `<rect x="${PX + 3.6}" y="${PY + 3.6}" width="${PW - 7.2}" height="${PH - 7.2}" rx="1.5" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width=".5"/>`;
}

function rosetteBack() {
  // a rosette of 24 circles through the centre, rings round it, quarter rosettes in the corners
  let d = "";
  for (let i = 0; i < 24; i++) {
    const a = (i * Math.PI) / 12;
    d += circle(50 + 17 * Math.cos(a), 70 + 17 * Math.sin(a), 17);
  }
  let e = circle(50, 70, 36) + circle(50, 70, 38.5);
  for (let i = 0; i < 48; i++) {
    const a = (i * Math.PI) / 24, b = a + Math.PI / 48;
    e += `M${pt([50 + 36 * Math.cos(a), 70 + 36 * Math.sin(a)])}L${pt([50 + 38.5 * Math.cos(b), 70 + 38.5 * Math.sin(b)])}`;
  }
  let c = "";
  for (const [cx, cy, a0] of [[PX + 2, PY + 2, 0], [PX + PW - 2, PY + PH - 2, Math.PI], [PX + PW - 2, PY + 2, Math.PI / 2], [PX + 2, PY + PH - 2, -Math.PI / 2]]) {
    for (let i = 0; i <= 6; i++) {
      const a = a0 + (i * Math.PI) / 12;
      c += `M${pt([cx, cy])}Q${pt([cx + 24 * Math.cos(a - 0.2), cy + 24 * Math.sin(a - 0.2)])} ${pt([cx + 20 * Math.cos(a), cy + 20 * Math.sin(a)])}`;
      c += `Q${pt([cx + 24 * Math.cos(a + 0.2), cy + 24 * Math.sin(a + 0.2)])} ${pt([cx, cy])}`;
    }
    c += `M${pt([cx + 13 * Math.cos(a0), cy + 13 * Math.sin(a0)])}A13 13 0 0 1 ${pt([cx + 13 * Math.cos(a0 + Math.PI / 2), cy + 13 * Math.sin(a0 + Math.PI / 2)])}`;
  }
  return `<path d="${d}" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width=".45"/>`
    + `<path d="${e}${circle(50, 70, 5)}" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width=".6"/>`
    + `<path d="${c}" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width=".5"/>`
    + frameLines();
}

function decoBack() {
  // a fan at each end (the one at the bottom turned), chevrons and a diamond in the middle
  const fan = [];
  const fx = 50, fy = PY + 3;
  for (let i = 1; i <= 4; i++) {
    const r = 8 * i + 4;
    fan.push(`M${pt([fx - r, fy])}A${r} ${r} 0 0 0 ${pt([fx + r, fy])}`);
  }
  for (let i = 0; i <= 12; i++) {
    const a = (i * Math.PI) / 12;
    fan.push(`M${pt([fx + 12 * Math.cos(a), fy + 12 * Math.sin(a)])}L${pt([fx + 36 * Math.cos(a), fy + 36 * Math.sin(a)])}`);
  }
  const fans = fan.join("");
  let chev = "";
  for (let i = 0; i < 4; i++) {
    const y = 56 - i * 5;
    chev += both([[PX + 3, y + 10], [50, y - 2], [PX + PW - 3, y + 10]]);
  }
  const diamond = "M50 58L62 70L50 82L38 70ZM50 62L58 70L50 78L42 70Z";
  const side = both([[PX + 6, 66], [PX + 6, 74]]) + both([[PX + 10, 62], [PX + 10, 78]]);
  return `<path d="${fans}" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width=".8"/>`
    + `<path d="${fans}" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width=".8" transform="rotate(180 50 70)"/>`
    + `<path d="${chev}${side}" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="1.1"/>`
    + `<path d="${diamond}" fill="none" stroke="#fff" stroke-opacity=".8" stroke-width="1"/>`
    + frameLines();
}

function wavesBack() {
  // rows of waves y = yc + 2.2 sin(2 pi (x - 50) / 13), drawn as a curve per half period; rows
  // at the same distance above and below the middle are each other's turn by 180 degrees
  const rows = ["", ""];
  const x0 = PX + 4, x1 = PX + PW - 4, half = 6.5, amp = 2.2;
  for (let row = -9; row <= 9; row++) {
    const y = 70 + row * 6.5;
    if (y < PY + 7 || y > PY + PH - 7) continue;
    let x = 50 - half * Math.floor((50 - x0) / half);
    let d = `M${f1(x)} ${f1(y)}`;
    for (; x + half <= x1 + 0.01; x += half) {
      const up = Math.round((x - 50) / half) % 2 === 0;  // sin > 0 on this half period
      d += `Q${f1(x + half / 2)} ${f1(y + (up ? 2 : -2) * amp)} ${f1(x + half)} ${f1(y)}`;
    }
    rows[Math.abs(row) % 2] += d;
  }
  return `<path d="${rows[0]}" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width=".9"/>`
    + `<path d="${rows[1]}" fill="none" stroke="#fff" stroke-opacity=".3" stroke-width=".5"/>`
    + frameLines();
}

function plainBack() {
  const orn = both([[PX + 7, PY + 16], [PX + 7, PY + 7], [PX + 16, PY + 7]]) + both([[PX + PW - 7, PY + 16], [PX + PW - 7, PY + 7], [PX + PW - 16, PY + 7]]);
  return `<path d="${orn}" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width=".8"/>`
    + frameLines();
}

const BACK_ART = { lattice: latticeBack, rosette: rosetteBack, deco: decoBack, waves: wavesBack, plain: plainBack };
const backCache = new Map();

/**
 * The SVG markup of a card's back in one of the BACKS designs (unknown ids: the lattice),
 * in the theme's colour with white line work. The colour is a presentation attribute
 * fill="var(--back, ...)", not a style attribute: the server's Content-Security-Policy
 * (style-src 'self') blocks inline style attributes. width/height 100%: it fills its box
 * (a .card.back, or the stock's .stack) without any CSS of its own.
 */
export function cardBack(design = "lattice") {
  const id = Object.prototype.hasOwnProperty.call(BACK_ART, design) ? design : "lattice";
  const hit = backCache.get(id);
  if (hit) return hit;
  const svg = `<svg viewBox="0 0 100 140" width="100%" height="100%" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">`
    + `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b2a3" stroke-width="1.2"/>`
    + `<rect x="${PX}" y="${PY}" width="${PW}" height="${PH}" rx="4" fill="${BACK_COLOUR}"/>`
    + BACK_ART[id]() + `</svg>`;
  backCache.set(id, svg);
  return svg;
}

/** Sort key: by rank then suit, or by suit then rank. */
export function sortKey(card, bySuit) {
  return bySuit ? suitIndex(card) * 13 + rankIndex(card) : rankIndex(card) * 4 + suitIndex(card);
}
