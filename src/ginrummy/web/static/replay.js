// Replaying a finished hand from its record (deck, dealer, actions): the positions after
// every action, for the replay page. The deal order is docs/fairness.md's.

/** The deck of a record (a string of 52 cards, or a list). */
export function deckOf(handRecord) {
  const deck = handRecord.deck;
  return Array.isArray(deck) ? deck.slice() : deck.trim().split(/\s+/);
}

/**
 * Every position of a hand: `[{index, seat, action, hands: [[...], [...]], pile: [...],
 * stock}]`, the first before any action. `seat` is who played `action` (null for the deal).
 * Throws an Error naming the move when the actions do not fit the deck.
 */
export function handFrames(handRecord) {
  const deck = deckOf(handRecord);
  const dealer = handRecord.dealer;
  const hands = [[], []];
  for (let i = 0; i < 20; i++) hands[i % 2 === 0 ? 1 - dealer : dealer].push(deck[i]);
  const pile = [deck[20]];
  let next = 21;
  let toAct = 1 - dealer;
  const frames = [];
  const snap = (index, seat, action) => frames.push({
    index, seat, action, hands: [hands[0].slice(), hands[1].slice()], pile: pile.slice(), stock: 52 - next,
  });
  snap(0, null, null);
  handRecord.actions.forEach((action, i) => {
    const seat = toAct;
    const [kind, card] = action.split(" ");
    const fail = (what) => { throw new Error(`move ${i + 1} (${action}): ${what}`); };
    if (kind === "pass") {
      toAct = 1 - toAct;
    } else if (kind === "take" || kind === "pile") {
      if (!pile.length) fail("the pile is empty");
      hands[seat].push(pile.pop());
    } else if (kind === "stock") {
      if (next >= 52) fail("the stock is empty");
      hands[seat].push(deck[next++]);
    } else if (["discard", "knock", "gin"].includes(kind)) {
      const at = hands[seat].indexOf(card);
      if (at < 0) fail(`${card} is not in the hand`);
      hands[seat].splice(at, 1);
      pile.push(card);
      toAct = 1 - seat;
    } else if (kind !== "big-gin") {
      fail("unknown action");
    }
    snap(i + 1, seat, action);
  });
  return frames;
}
