// Receiving views: pacing the opponent's moves, the move log, what this browser saw at the
// deal (for the deal check).

import { cardText } from "./cards.js";
import { queueHandEnds } from "./dialogs.js";
import * as sound from "./sound.js";
import { $, S, reducedMotion, setStatus, store } from "./state.js";
import { render } from "./table.js";

export function receiveView(view) {
  const old = S.view;
  const receivedAt = performance.now();
  // Pace the opponent's moves: a reply that arrives at once is shown after a short beat.
  const since = performance.now() - S.lastActionAt;
  const theirMove = old && view.version > old.version && lastMover(view) !== S.seat;
  const wait = theirMove && since < 550 && !reducedMotion() ? 550 - since : 0;
  clearTimeout(S.renderTimer);
  S.renderTimer = null;
  const gameId = S.gameId;
  const apply = () => {
    S.renderTimer = null;
    if (gameId !== S.gameId || view.game_id !== S.gameId) return; // the page left that game
    S.pending = null;
    if (old && view.version !== old.version) setStatus("");
    if (view.hand.to_act !== S.seat || view.is_over) {
      // the turn went over: nothing stays selected into the next one
      S.selected = null;
      S.mode = null;
    }
    S.view = view;
    // the turn timer counts down from what was left when the server sent the view
    const left = view.timer ? view.timer.seconds_left : null;
    S.timerEnd = left === null ? null : receivedAt + left * 1000;
    rememberDeal(view);
    noteEvents(old, view);
    queueHandEnds(view);
    render(old);
  };
  if (wait > 0) S.renderTimer = setTimeout(apply, wait); else apply();
}

export function lastMover(view) {
  const h = view.hand.history;
  return h.length ? h[h.length - 1].seat : null;
}

function rememberDeal(view) {
  // What this browser saw at the deal, to check against the seed when it is revealed.
  if (S.seat === null) return;
  const n = view.hand.hand_number;
  const key = `deal.${view.game_id}.${n}`;
  const fair = view.fairness.find((f) => f.hand === n);
  if (!fair || store.get(key)) return;
  const acted = view.hand.history.some((e) => e.seat === S.seat && e.action !== "pass");
  store.setJson(key, { commitment: fair.commitment, hand: acted || view.hand.result ? null : view.hand.hand.slice() });
}

function describe(event, view) {
  const text = describeAction(event, view);
  return event.by === "timer" ? `${text.slice(0, -1)} (time ran out: played by the timer).` : text;
}

function describeAction(event, view) {
  const who = event.seat === S.seat ? "You" : view.names[event.seat] || "Opponent";
  const [kind, card] = event.action.split(" ");
  const c = card ? cardText(card) : event.card ? cardText(event.card) : "";
  switch (kind) {
    case "pass": return `${who} passed the upcard.`;
    case "take": return `${who} took the upcard${c ? ` ${c}` : ""}.`;
    case "stock": return `${who} drew from the stock${event.seat === S.seat && c ? `: ${c}` : ""}.`;
    case "pile": return `${who} took ${c || "the top card"} from the pile.`;
    case "discard": return `${who} discarded ${c}.`;
    case "knock": return `${who} knocked, discarding ${c}.`;
    case "gin": return `${who} went gin, discarding ${c}.`;
    case "big-gin": return `${who} went Big Gin!`;
    default: return `${who}: ${event.action}`;
  }
}

function noteEvents(old, view) {
  const log = $("#log");
  let fresh = view.hand.history;
  if (old && old.hand.hand_number === view.hand.hand_number) fresh = fresh.slice(old.hand.history.length);
  else if (old || !log.childElementCount) {
    const dealer = view.hand.dealer === S.seat ? "you deal" : `${view.names[view.hand.dealer] || "the dealer"} deals`;
    addLog(`Hand ${view.hand.hand_number}: ${dealer}.`);
    if (old) sound.play("deal");
  }
  for (const e of fresh) addLog(describe(e, view));
  if (old && fresh.some((e) => e.seat !== S.seat && ["discard", "stock", "pile", "take"].includes(e.action.split(" ")[0]))) sound.play("discard");
}

function addLog(text) {
  const log = $("#log");
  const p = document.createElement("p");
  p.textContent = text;
  log.append(p);
  while (log.childElementCount > 40) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}
