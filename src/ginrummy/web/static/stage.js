// Staging: the positions the table shows between two views, one action at a time.
//
// The server answers a move with the opponent's replies already played, so a view can hold
// several new actions. The table does not jump to the end: it draws the position after each
// action in turn (views.js paces them). Those in-between positions are worked out here from
// the views alone, with nothing the seat may not see: a stock card drawn by the opponent stays
// a back, and the seat's own cards are the ones its views showed.
//
// A position is a view whose `hand` is a copy with the table's fields changed (`hand`,
// `hand_sizes`, `discard_pile`, `stock_size`, `known_cards`, `history`, `to_act`,
// `legal_actions`, `arrangement`). The seat's own stock card before the server has answered
// is the placeholder HIDDEN (drawn as a back).

/** A card of one's own not known yet (a stock draw on its way). */
export const HIDDEN = "??";

/** The parts of an action: kind ("stock", "discard", ...) and card (or null). */
export function parseAction(event) {
  const [kind, card] = event.action.split(" ");
  return { kind, card: card || event.card || null };
}

const ENDS = new Set(["knock", "gin", "big-gin"]);

/** Whether an action ends the hand (the next position is the result). */
export function endsHand(event) {
  return ENDS.has(parseAction(event).kind);
}

function copy(view) {
  const h = view.hand;
  return {
    ...view,
    hand: {
      ...h,
      hand: h.hand.slice(),
      hand_sizes: h.hand_sizes.slice(),
      discard_pile: h.discard_pile.slice(),
      known_cards: h.known_cards.map((k) => k.slice()),
      history: h.history.slice(),
      legal_actions: [],
    },
  };
}

function remove(list, card) {
  const i = list.indexOf(card);
  if (i >= 0) list.splice(i, 1);
  return i >= 0;
}

/**
 * The position after `event`, from the position `view` before it, as `seat` (0, 1, or null
 * for a spectator) sees it. The arrangement of the seat's own cards is kept only while they
 * are unchanged (the server computes it; the page does not guess it).
 */
export function applyEvent(view, event, seat) {
  const d = copy(view);
  const h = d.hand;
  const { kind, card } = parseAction(event);
  const mine = event.seat === seat;
  const before = h.hand.length;
  if (kind === "stock") {
    h.stock_size = Math.max(0, h.stock_size - 1);
    h.hand_sizes[event.seat] += 1;
    if (mine) h.hand.push(card || HIDDEN);
  } else if (kind === "pile" || kind === "take") {
    const top = h.discard_pile.pop();
    const taken = card || top;
    h.hand_sizes[event.seat] += 1;
    if (mine) h.hand.push(taken);
    else if (taken && !h.known_cards[event.seat].includes(taken)) h.known_cards[event.seat].push(taken);
  } else if (kind === "discard" && card) {
    h.discard_pile.push(card);
    h.hand_sizes[event.seat] = Math.max(0, h.hand_sizes[event.seat] - 1);
    if (mine) remove(h.hand, card);
    else remove(h.known_cards[event.seat], card);
  }
  if (h.hand.length !== before) h.arrangement = predictArrangement(view.hand, h.hand);
  h.history.push(event);
  h.to_act = kind === "pass" || kind === "discard" ? 1 - event.seat : event.seat;
  d.version = view.version + 1;
  return d;
}

/** The position before `event`, from the position `view` after it (the inverse of
 * applyEvent, for the hand's actions before a knock). */
export function undoEvent(view, event, seat) {
  const d = copy(view);
  const h = d.hand;
  const { kind, card } = parseAction(event);
  const mine = event.seat === seat;
  if (kind === "stock") {
    h.stock_size += 1;
    h.hand_sizes[event.seat] -= 1;
    if (mine) remove(h.hand, card);
  } else if (kind === "pile" || kind === "take") {
    h.discard_pile.push(card);
    h.hand_sizes[event.seat] -= 1;
    if (mine) remove(h.hand, card);
    else remove(h.known_cards[event.seat], card);
  } else if (kind === "discard" && card) {
    remove(h.discard_pile, card);
    h.hand_sizes[event.seat] += 1;
    if (mine) h.hand.push(card);
  }
  h.arrangement = null;
  h.history.pop();
  h.to_act = event.seat;
  d.version = view.version - 1;
  return d;
}

/** The deadwood arrangement of `cards` when it follows from `old`'s (a deadwood card left
 * or came: the melds stand), or null when only the server can say. */
function predictArrangement(old, cards) {
  const arr = old.arrangement;
  if (!arr || cards.includes(HIDDEN)) return null;
  const melded = new Set(arr.melds.flat());
  if (![...melded].every((c) => cards.includes(c))) return null;
  const deadwood = cards.filter((c) => !melded.has(c));
  const points = deadwood.reduce((sum, c) => sum + cardPoints(c), 0);
  // with a card more, a new meld may form: the server says
  if (cards.length > old.hand.length) return null;
  return { melds: arr.melds, deadwood, deadwood_points: points };
}

function cardPoints(card) {
  const r = "A23456789TJQK".indexOf(card[0]) + 1;
  return Math.min(10, r);
}

/**
 * The positions to draw on the way from `shown` (the position on screen, or null) to `view`:
 * `[{view, event}]`, the last being `view` itself. Within a hand each new action gets its
 * own position; a new hand starts from its deal (`event` null, `deal` true) unless `fresh`
 * is false (a reload in the middle of a hand: drawn as it is).
 */
export function positions(shown, view, seat, { deal = true } = {}) {
  const h = view.hand;
  if (!h) return [{ view, event: null }];
  const sameHand = shown && shown.hand && shown.hand.hand_number === h.hand_number;
  if (sameHand) {
    const from = shown.hand.history.length;
    // the screen's position is older than the view, and agrees with it up to there
    if (from > h.history.length || !samePrefix(shown.hand.history, h.history, from)) return [{ view, event: null }];
    // nothing new in the hand (a sync, a name or a timer that changed): the view as it is
    if (from === h.history.length) return [{ view, event: null }];
    return withArrangements(walk(shown, h.history.slice(from), view, seat), view);
  }
  if (!deal) return [{ view, event: null }];
  if (!h.history.length) return [{ view, event: null, deal: true }];
  // a new hand: back to the deal, then forward action by action
  let dealt = view;
  for (let i = h.history.length - 1; i >= 0; i--) dealt = undoEvent(dealt, h.history[i], seat);
  return withArrangements([{ view: dealt, event: null, deal: true }, ...walk(dealt, h.history, view, seat)], view);
}

/** A position whose own cards are the view's has the view's arrangement of them. */
function withArrangements(steps, view) {
  const cards = view.hand.hand.slice().sort().join();
  for (const step of steps) {
    const h = step.view.hand;
    if (step.view !== view && h.arrangement == null && h.hand.slice().sort().join() === cards) h.arrangement = view.hand.arrangement;
  }
  return steps;
}

function samePrefix(a, b, n) {
  for (let i = 0; i < n; i++) if (a[i].seat !== b[i].seat || a[i].action !== b[i].action) return false;
  return true;
}

function walk(start, events, view, seat) {
  const out = [];
  let at = start;
  events.forEach((event, i) => {
    if (i === events.length - 1 || endsHand(event)) {
      out.push({ view, event });
      return;
    }
    at = applyEvent(at, event, seat);
    out.push({ view: at, event });
  });
  // an action that ends the hand is the last one a view can hold
  return out.slice(0, events.findIndex(endsHand) + 1 || out.length);
}

/** The position right after the seat's own `action`, before the server answers: drawn at
 * once, so the move shows within a frame. */
export function predict(view, action, seat) {
  const { kind, card } = parseAction({ action, card: null });
  if (kind === "pile" || kind === "take") {
    const top = view.hand.discard_pile[view.hand.discard_pile.length - 1];
    return applyEvent(view, { seat, action, card: top }, seat);
  }
  if (kind === "knock" || kind === "gin") {
    // the card goes face down on the pile: it leaves the hand at once all the same
    const d = applyEvent(view, { seat, action: `discard ${card}`, card }, seat);
    d.hand.history[d.hand.history.length - 1] = { seat, action, card: null };
    return d;
  }
  return applyEvent(view, { seat, action, card: null }, seat);
}

/** The table before a deal: the whole deck in the stock, nothing dealt. */
export function emptyTable(view) {
  const d = copy(view);
  const h = d.hand;
  h.stock_size = 52;
  h.hand = [];
  h.hand_sizes = [0, 0];
  h.discard_pile = [];
  h.known_cards = [[], []];
  h.history = [];
  h.arrangement = null;
  return d;
}
