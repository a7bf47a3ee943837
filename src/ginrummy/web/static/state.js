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
  view: null, // the last view drawn
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
  lastActionAt: 0,
  // the hand and what the player is doing with it (hand.js)
  selected: null,
  mode: null, // "knock" | "gin" while choosing the card to end with
  focusCard: null,
  customOrder: null,
  hint: null,
  hintPending: false,
  // drawing (table.js)
  timerEnd: null, // performance.now() when the turn timer runs out (null: no timer runs)
  renderTimer: null,
  // dialogs (dialogs.js)
  endQueue: [],
  showingEnd: null,
};

/** The replay page's state (history.js). */
export const RP = { record: null, hand: 0, frames: [], at: 0, names: ["Seat 0", "Seat 1"] };

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
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
