// Replaying a finished hand from its record (deck, dealer, actions): the positions after
// every action, for the replay page. The moves follow the strict replay of the deal check
// (fairness.js), so both read a record the same way. And a deadwood-minimal arrangement of
// any hand (at most eleven cards), since the record shows every card and the page arranges
// both hands at every position.

import { rankIndex, suitIndex, SUITS } from "./cards.js";
import { dealFromDeck, replayActions } from "./fairness.js";

/**
 * Every position of a hand: `[{index, seat, action, kind, card, hands: [[...], [...]],
 * pile: [...], stock}]`, the first before any action. `seat` is who played `action` (null
 * for the deal); `kind` is the action's first word ("pass", "take", "stock", "pile",
 * "discard", "knock", "gin", "big-gin"; null for the deal) and `card` the card it moved:
 * the one drawn (the stock's too: a replay shows every card), or the one discarded (null
 * for a pass of the upcard, which stays, and Big Gin).
 * Throws an Error naming the move when the actions do not fit the deck.
 */
export function handFrames(handRecord) {
  const deck = Array.isArray(handRecord.deck) ? handRecord.deck : handRecord.deck.trim().split(/\s+/);
  const deal = dealFromDeck(deck, handRecord.dealer);
  const frames = [{ index: 0, seat: null, action: null, kind: null, card: null, hands: deal.hands, pile: [deal.upcard], stock: 31 }];
  const { error } = replayActions(deck, handRecord.dealer, handRecord.actions, (position) => {
    const before = frames[frames.length - 1];
    const kind = String(position.action).trim().toLowerCase().split(/\s+/)[0];
    let card = null;
    if (kind === "take" || kind === "pile" || kind === "stock") {
      const had = new Set(before.hands[position.seat]);
      card = position.hands[position.seat].find((c) => !had.has(c)) ?? null;
    } else if (kind === "discard" || kind === "knock" || kind === "gin") {
      card = position.pile[position.pile.length - 1]; // the card as the replay spells it
    }
    frames.push({ index: frames.length, kind, card, ...position });
  });
  if (error) throw new Error(error);
  return frames;
}

// --- melds and deadwood ---------------------------------------------------------------------

/** A card's deadwood points: ace 1, 2 to 10 their value, jack, queen and king 10. */
export function cardPoints(card) {
  return Math.min(10, rankIndex(card) + 1);
}

/** Cards in rank order, then suit (spades, hearts, diamonds, clubs). */
function byRank(a, b) {
  return rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b);
}

/** Every meld among `cards` (which are in rank order), as a bit mask over their indices:
 * each set of three, each set of four and its four sets of three, and every run of three
 * or more consecutive ranks of one suit (the ace is low: A-2-3, never Q-K-A). */
function meldMasks(cards) {
  const masks = [];
  for (let r = 0; r < 13; r++) {
    const same = [];
    cards.forEach((c, i) => { if (rankIndex(c) === r) same.push(i); });
    if (same.length < 3) continue;
    const all = same.reduce((m, i) => m | (1 << i), 0);
    masks.push(all);
    if (same.length === 4) for (const i of same) masks.push(all & ~(1 << i));
  }
  for (const suit of SUITS) {
    const at = new Array(13).fill(-1);
    cards.forEach((c, i) => { if (c[1] === suit) at[rankIndex(c)] = i; });
    for (let low = 0; low < 11; low++) {
      let m = 0;
      for (let high = low; high < 13 && at[high] >= 0; high++) {
        m |= 1 << at[high];
        if (high - low >= 2) masks.push(m);
      }
    }
  }
  return masks;
}

/**
 * A deadwood-minimal arrangement of a hand (up to eleven cards, no card twice):
 * `{melds: [[...], ...], deadwood: [...], deadwood_points}`, as the server writes an
 * arrangement. Melds are ordered by their lowest card, runs by rank, sets by suit; the
 * deadwood in rank order. An exact search: each card, lowest first, is either deadwood or
 * in one of the melds it can join with cards still free, and a branch stops as soon as its
 * deadwood reaches the best found. When several arrangements are equally good, the first
 * found is chosen (melds tried before deadwood), which may differ from the server's choice;
 * the deadwood is the same.
 */
export function arrangeHand(hand) {
  const cards = Array.from(hand).sort(byRank);
  const n = cards.length;
  if (n > 11) throw new Error(`a hand holds at most eleven cards, not ${n}`);
  const points = cards.map(cardPoints);
  const masks = meldMasks(cards);
  const joining = cards.map((_, i) => masks.filter((m) => m & (1 << i)));
  let best = Infinity;
  let bestMelds = [];
  const chosen = [];
  const search = (i, used, dead) => {
    if (dead >= best) return;
    while (i < n && (used >> i) & 1) i++;
    if (i === n) {
      best = dead;
      bestMelds = chosen.slice();
      return;
    }
    for (const m of joining[i]) {
      if (m & used) continue;
      chosen.push(m);
      search(i + 1, used | m, dead);
      chosen.pop();
    }
    search(i + 1, used | (1 << i), dead + points[i]);
  };
  search(0, 0, 0);
  let used = 0;
  const melds = bestMelds.map((m) => {
    used |= m;
    const meld = cards.filter((_, i) => (m >> i) & 1);
    const isSet = meld.every((c) => c[0] === meld[0][0]);
    return isSet ? meld.sort((a, b) => suitIndex(a) - suitIndex(b)) : meld;
  });
  melds.sort((a, b) => byRank(a[0], b[0]));
  const deadwood = cards.filter((_, i) => !((used >> i) & 1));
  return { melds, deadwood, deadwood_points: deadwood.reduce((s, c) => s + cardPoints(c), 0) };
}

/** The deadwood points of a hand's best arrangement. */
export function deadwoodPoints(hand) {
  return arrangeHand(hand).deadwood_points;
}
