// What the table's modules share: the state of the page (`S`, the replay's `RP`), and small
// helpers every module uses. Nothing here touches the page when it is imported.

/** The one element matching a CSS selector. */
export const $ = (sel) => document.querySelector(sel);

/** This browser's settings and memory, in localStorage under "gr.". */
export const store = {
  get: (k, d = null) => localStorage.getItem(`gr.${k}`) ?? d,
  set: (k, v) => localStorage.setItem(`gr.${k}`, v),
  remove: (k) => localStorage.removeItem(`gr.${k}`),
  json: (k, d) => { try { return JSON.parse(localStorage.getItem(`gr.${k}`)) ?? d; } catch { return d; } },
  setJson: (k, v) => localStorage.setItem(`gr.${k}`, JSON.stringify(v)),
};

export const KIND_TITLE = { knock: "Knock", undercut: "Undercut!", gin: "Gin!", "big-gin": "Big Gin!", void: "Void hand" };

/** The table's state. Every module reads and writes it; the comments say who owns what. */
export const S = {
  // the game on the table (table.js / net.js)
  gameId: null,
  seat: null, // 0 | 1, or null for a spectator
  watching: false, // opened through a watch link: connect as a spectator
  view: null, // the last view received (what is drawn is S.shown || S.view)
  // the connection (net.js)
  ws: null,
  wsOpen: false, // the server said hello on `ws`
  lost: false, // the connection is known to be lost (shown in #conn)
  retry: 0,
  reconnectTimer: null,
  connectTimer: null,
  pingTimer: null,
  pingSentAt: null, // performance.now() of the ping not yet answered
  lastHeard: 0, // performance.now() of the last message from the server
  bannerTimer: null,
  presence: [true, true],
  // a move (hand.js / net.js)
  pending: null, // {action, version}: sent and not yet answered
  queued: null, // {action, version}: made while the connection was lost, sent on return
  holdStatus: false, // the next view is the sync a refusal asked for: its reason stays
  // the hand and what the player is doing with it (hand.js)
  selected: null,
  mode: null, // "knock" | "gin" while choosing the card to end with
  focusCard: null,
  customOrder: null,
  hint: null,
  hintPending: false,
  // drawing (table.js) and staging (views.js)
  timerEnd: null, // performance.now() when the turn timer runs out (null: no timer runs)
  shown: null, // the position on screen when it is not S.view: a step of a staging, or
  // the seat's own move drawn before the server answered (stage.js)
  staging: false, // views are being staged: no input until the last position is drawn
  stageRun: 0, // counts stagings: a newer one stops the older at its next pause
  ownShownAt: null, // performance.now() when the seat's own move was drawn ahead of the answer
  onScreen: null, // the position drawn last (S.shown || S.view then): a view that came while
  // a dialog held its deal back is not on screen, though it is S.view
  // dialogs (dialogs.js)
  endQueue: [],
  showingEnd: null,
  endedDrawn: 0, // the hands whose end is drawn (table.js): a hand's dialog waits for it
};

/** The replay page's state (history.js). */
export const RP = { record: null, hand: 0, frames: [], at: 0, names: ["Seat 0", "Seat 1"] };

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** The pause between two actions staged one after the other, in ms, by the speed setting
 * (Fewer animations takes the motion away, not the pause: the actions still come one by one). */
export const BEATS = { relaxed: 900, normal: 550, quick: 260, instant: 0 };

export function beat() {
  return BEATS[store.get("speed", "normal")] ?? BEATS.normal;
}

/** How long a card's flight takes, in ms (0: no motion). */
export function motionMs() {
  if (reducedMotion() || beat() === 0) return 0;
  return Math.round(320 * Math.min(1.3, Math.max(0.6, beat() / BEATS.normal)));
}

/** The chosen card back (cards.js's BACKS). */
export function backDesign() {
  return store.get("back", "lattice");
}

export function reducedMotion() {
  return document.body.classList.contains("reduce-motion") || matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The table's message line (#status): what just happened, or why something was refused. */
export function setStatus(text, isError = false) {
  const el = $("#status");
  el.textContent = text;
  el.classList.toggle("error", isError);
}

/** "tap" on a touch screen, "click" elsewhere. */
export function tapWord() {
  return matchMedia("(hover: none) and (pointer: coarse)").matches ? "tap" : "click";
}

/**
 * Whether a game between people still waits for the invited friend: the view's `seat_free`
 * (a friend who joined without a name has none, so a missing name does not tell), or, in a
 * view without that field, no name in the other seat.
 */
export function awaitingFriend(v, opp) {
  if (v.ai_level) return false;
  return v.seat_free ?? !v.names[opp];
}
