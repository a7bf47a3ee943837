// Replaying a finished hand from its record (deck, dealer, actions): the positions after
// every action, for the replay page. The moves follow the strict replay of the deal check
// (fairness.js), so both read a record the same way.

import { dealFromDeck, replayActions } from "./fairness.js";

/**
 * Every position of a hand: `[{index, seat, action, hands: [[...], [...]], pile: [...],
 * stock}]`, the first before any action. `seat` is who played `action` (null for the deal).
 * Throws an Error naming the move when the actions do not fit the deck.
 */
export function handFrames(handRecord) {
  const deck = Array.isArray(handRecord.deck) ? handRecord.deck : handRecord.deck.trim().split(/\s+/);
  const deal = dealFromDeck(deck, handRecord.dealer);
  const frames = [{ index: 0, seat: null, action: null, hands: deal.hands, pile: [deal.upcard], stock: 31 }];
  const { error } = replayActions(deck, handRecord.dealer, handRecord.actions, (position) => {
    frames.push({ index: frames.length, ...position });
  });
  if (error) throw new Error(error);
  return frames;
}
