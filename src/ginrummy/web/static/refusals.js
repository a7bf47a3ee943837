// Why not: the words for everything the page refuses (a greyed Knock or Gin, a key at the
// wrong moment, a card clicked during the opponent's turn), drawn only from the view.

import { moveText } from "./net.js";
import * as sound from "./sound.js";
import { S, awaitingFriend, setStatus } from "./state.js";
import { legal, seatName } from "./table.js";

/** What the table expects of this player now, in a sentence (null: nothing to say). */
export function expected(L = legal()) {
  const v = S.view;
  if (!v) return "The table is not ready yet.";
  if (S.seat === null) return "You are watching: there is nothing to press.";
  if (v.is_over) return "The game is over.";
  if (S.queued) return `Your move (${moveText(S.queued.action)}) waits for the connection; Esc cancels it.`;
  if (S.pending) return "Your move is on its way.";
  if (S.staging) return "A moment: the table is still showing the last moves.";
  const h = v.hand;
  if (h.to_act !== S.seat) {
    if (awaitingFriend(v, 1 - S.seat)) return "Waiting for your opponent to join.";
    return `It is ${seatName(v, h.to_act)}'s turn: wait for their move.`;
  }
  if (S.mode === "knock") return "Choose the highlighted card to knock with (Esc cancels).";
  if (S.mode === "gin") return "Choose the highlighted card to go gin with (Esc cancels).";
  if (L.take) return "Take the upcard (D) or pass (P).";
  if (L.stock || L.pile) return L.pile ? "Draw first: from the stock (T) or the pile (D)." : "Draw first: from the stock (T).";
  if (L.discard.size) return "Discard a card: select it and press it again (Enter twice), or drag it to the pile.";
  return null;
}

/** Why Knock cannot be pressed now (null: it can). */
export function knockReason(L = legal()) {
  if (L.knock.size) return null;
  const v = S.view;
  const h = v && v.hand;
  if (!h || S.seat === null || v.is_over || h.to_act !== S.seat || S.pending || S.queued || S.staging) {
    const why = expected(L);
    return why ? `No knock now. ${why}` : "No knock now.";
  }
  const limit = h.knock_limit;
  const arr = h.arrangement;
  if (limit === 0 && v.rules.oklahoma) return "No knocking this hand: with an ace as the upcard (Oklahoma) only gin ends it.";
  if (!L.discard.size) {
    const dw = arr ? ` (deadwood now ${arr.deadwood_points})` : "";
    return `Draw first: you may knock after your draw, with deadwood ${limit} or less after the discard${dw}.`;
  }
  const after = arr && arr.deadwood_after_discard !== undefined ? arr.deadwood_after_discard : null;
  if (after === 0 && L.gin.size) return "No deadwood after your discard: go gin instead (G).";
  if (after !== null && after <= limit) {
    // the knock would leave little enough, but not with any card you may discard (the card
    // just taken from the pile may not go back)
    return `You may knock at ${limit} or less, but not by discarding the card you just took from the pile.`;
  }
  return `Deadwood ${after ?? "?"}: you may knock at ${limit} or less.`;
}

/** Why Gin cannot be pressed now (null: it can). */
export function ginReason(L = legal()) {
  if (L.gin.size) return null;
  const v = S.view;
  const h = v && v.hand;
  if (!h || S.seat === null || v.is_over || h.to_act !== S.seat || S.pending || S.queued || S.staging) {
    const why = expected(L);
    return why ? `No gin now. ${why}` : "No gin now.";
  }
  if (!L.discard.size) return "Draw first: gin is a discard that leaves no deadwood.";
  const after = h.arrangement ? h.arrangement.deadwood_after_discard : undefined;
  return `Gin needs deadwood 0 after your discard; yours would be ${after ?? "more"}.`;
}

/** Why Hint cannot be pressed now for the connection (null: it can, as far as the
 * connection goes): a hint is the server's, so none comes while the connection is lost. */
export function hintReason() {
  if (!S.lost) return null;
  return navigator.onLine === false ? HINT_OFFLINE : "No hint: the connection to the server is lost, and a hint needs it.";
}

/** What a hint asked offline gets (hand.js says it too, of a request the loss cut short). */
export const HINT_OFFLINE = "No hint: you are offline, and a hint needs the connection.";

/** Say no: a brief message where the eye is (#status), and the refusal sound. */
export function refuse(text) {
  setStatus(text, true);
  sound.play("error");
}

/** A key or press that does nothing now: what it was, and what is expected instead. */
export function refuseNow(what, L = legal()) {
  const why = expected(L);
  refuse(why ? `${what} is not possible now. ${why}` : `${what} is not possible now.`);
}
