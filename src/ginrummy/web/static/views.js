// Receiving views and staging them: each new action drawn on its own, in order, with a beat
// between them (the speed setting), the move log, what this browser saw at the deal (for the
// deal check), the cut and the deal shown before a hand is played.
//
// The positions between two views come from stage.js. A staging runs as one async sequence
// (`S.stageRun` counts them): a view that arrives meanwhile starts a new one from whatever
// is on screen, and the old one stops at its next pause, so nothing is drawn or logged twice.

import { cardText } from "./cards.js";
import { maybeShowEnd, queueHandEnds } from "./dialogs.js";
import * as sound from "./sound.js";
import { cardButton } from "./draw.js";
import { cutCards } from "./fairness.js";
import { emptyTable, parseAction, positions, predict } from "./stage.js";
import { $, BEATS, S, beat, reducedMotion, setStatus, store } from "./state.js";
import { render, seatName } from "./table.js";

/** `ms` at the normal speed, scaled to the chosen one. */
function pace(ms) {
  return Math.round((ms * beat()) / BEATS.normal);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function receiveView(view) {
  if (view.game_id !== S.gameId) return; // the page left that game
  const receivedAt = performance.now();
  const prev = S.view;
  // the position to stage from: what is on screen (not S.view when a dialog holds its deal
  // back: the next view is staged from the deal too), or, when the seat's own move is drawn
  // ahead of the answer (showOwnMove), the view it was made from, so the move is logged
  // (S.onScreen is the current game's: leaving a game clears it, net.js closeSocket)
  const shown = S.ownShownAt !== null ? prev : S.onScreen || S.shown || prev;
  S.pending = null;
  S.view = view;
  // the turn timer counts down from what was left when the server sent the view
  const left = view.timer ? view.timer.seconds_left : null;
  S.timerEnd = left === null ? null : receivedAt + left * 1000;
  rememberDeal(view);
  queueHandEnds(view);
  // a message no longer applies once the game has moved, except a refusal's reason when
  // this view is the catch-up the refusal asked for
  if (prev && view.version !== prev.version && !S.queued && !S.holdStatus) setStatus("");
  S.holdStatus = false;
  if (view.hand && (view.hand.to_act !== S.seat || view.is_over)) {
    // the turn went over: nothing stays selected into the next one
    S.selected = null;
    S.mode = null;
  }
  const steps = positions(shown, view, S.seat, { deal: prev ? true : dealNotSeen(view) });
  if (!prev && !steps[0].deal) {
    // a first look in the middle of a hand (a reload, a spectator arriving): as it is
    S.stageRun += 1;
    S.staging = false;
    S.shown = null;
    logHand(view);
    render();
    maybeShowEnd();
    return;
  }
  stage(steps);
}

/** The seat's own move, drawn before the server answers (rolled back if it refuses). */
export function showOwnMove(action) {
  const from = S.shown || S.view;
  if (!from || !from.hand || S.seat === null) return;
  S.stageRun += 1; // nothing else is being drawn: the move is the player's own
  S.shown = predict(from, action, S.seat);
  S.ownShownAt = performance.now();
  render({ event: { seat: S.seat, action, card: null } });
}

/** The server refused the move drawn by showOwnMove: back to its view. */
export function rollBack() {
  S.ownShownAt = null;
  if (!S.shown) return;
  S.stageRun += 1;
  S.shown = null;
  S.staging = false;
  render();
}

async function stage(steps) {
  if (!steps.length) steps = [{ view: S.view, event: null }];
  const run = ++S.stageRun;
  S.staging = true;
  const alive = () => run === S.stageRun && S.view && S.view.game_id === S.gameId;
  const ownShown = S.ownShownAt;
  S.ownShownAt = null;
  let lastDrawnAt = ownShown ?? 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const last = i === steps.length - 1;
    const mine = step.event && step.event.seat === S.seat;
    if (step.deal) {
      // the hand that just ended is shown first; the deal comes once its dialog is closed
      await dialogsClosed(alive, step.view.hand.hand_number - 1);
      if (!alive()) return;
      S.shown = emptyTable(step.view);
      render();
      if (step.view.hand.hand_number === 1) await showCut(S.view, alive);
      if (!alive()) return;
      logDeal(step.view);
      store.set(`dealt.${S.gameId}`, String(step.view.hand.hand_number));
      S.shown = last ? null : step.view;
      const took = render({ deal: true });
      if (took) await sleep(took);
      lastDrawnAt = performance.now();
      if (!alive()) return;
      if (last) {
        S.staging = false;
        render(); // the buttons, now that the deal is done
      }
      continue;
    }
    // the seat's own move is on screen already (showOwnMove): no pause before it
    const already = mine && i === 0 && ownShown !== null;
    if (step.event && !already) {
      const wait = beat() - (performance.now() - lastDrawnAt);
      if (wait > 0) await sleep(wait);
      if (!alive()) return;
    }
    S.shown = last ? null : step.view;
    // the last position takes input: staging ends before it is drawn, so nothing redraws
    // it afterwards (a redraw would cut its motion short)
    if (last) S.staging = false;
    if (step.event) {
      addLog(describe(step.event, S.view));
      if (!mine) actionSound(step.event);
    }
    render(already ? {} : { event: step.event });
    lastDrawnAt = performance.now();
  }
  if (alive()) maybeShowEnd();
}

/** Wait until no dialog of the hands before a deal (the first `before`, all of them ended:
 * nothing later is on screen) is open or waiting (dialogs.js shows them; a later hand's waits
 * for its own moves to be drawn). */
async function dialogsClosed(alive, before) {
  const owed = () => S.endQueue.length && S.endQueue[0] < before;
  maybeShowEnd(before);
  while (alive() && (S.showingEnd !== null || owed())) {
    await sleep(100);
    if (S.showingEnd === null && owed()) maybeShowEnd(before);
  }
}

function dealNotSeen(view) {
  // a fresh hand this browser has not watched being dealt, with nothing of ours played yet
  // (a spectator: nothing played at all, or they would sit through the whole hand again)
  if (!view.hand || view.is_over) return false;
  const dealt = Number(store.get(`dealt.${view.game_id}`, "0"));
  if (dealt >= view.hand.hand_number) return false;
  if (S.seat === null) return view.hand.history.length === 0;
  return !view.hand.history.some((e) => e.seat === S.seat);
}

// --- the cut ----------------------------------------------------------------------------

/** Who cut what and who deals, in words (`cut` from fairness.js's cutCards). */
export function cutText(view, cut) {
  // (an invited friend not there yet has cut all the same: the cut comes from the game id)
  const name = (seat) => (seat === S.seat ? "you" : view.names[seat] || "your opponent");
  const pairs = cut.cards;
  const words = pairs.map(([a, b], i) => {
    const tie = i < pairs.length - 1 ? ": equal, so they cut again" : "";
    return `${name(0)} ${cardText(a)}, ${name(1)} ${cardText(b)}${tie}`;
  });
  const dealer = cut.dealer;
  const deals = dealer === S.seat ? "you deal" : `${name(dealer)} deals`;
  return `The cut: ${words.join("; ")}. The higher card deals: ${deals}.`;
}

async function showCut(view, alive) {
  const key = `cut.${view.game_id}`;
  if (store.get(key)) return;
  let cut;
  try {
    cut = await cutCards(view.game_id);
  } catch {
    return; // no SHA-256 here at all: the deal goes on without the cut shown
  }
  if (!alive()) return;
  store.set(key, "1");
  // the page's own cut must give the dealer the server chose
  const first = view.results.length ? null : view.hand.dealer;
  if (first !== null && first !== cut.dealer) {
    addLog("The cut worked out by this browser does not give the dealer the server chose.");
    return;
  }
  addLog(cutText(view, cut));
  const box = $("#cut");
  const me = S.seat ?? 0;
  const cards = cut.cards[cut.cards.length - 1];
  $("#cut-mine-name").textContent = S.seat === null ? seatName(view, me) : "You";
  $("#cut-theirs-name").textContent = view.names[1 - me] || "Your opponent";
  for (const [id, seat] of [["#cut-mine", me], ["#cut-theirs", 1 - me]]) {
    const el = cardButton(cards[seat], { tag: "span" });
    delete el.dataset.card; // the cut's deck is not the hand's: no card of a hand comes from it
    el.classList.toggle("winner", seat === cut.dealer);
    $(id).replaceChildren(el);
  }
  $("#cut-text").textContent = cutText(view, cut);
  box.hidden = false;
  const shownFor = reducedMotion() ? pace(1400) : pace(2000);
  const until = performance.now() + Math.max(shownFor, 400);
  let skipped = false;
  const skip = () => { skipped = true; };
  box.addEventListener("click", skip, { once: true });
  while (alive() && !skipped && performance.now() < until) await sleep(50);
  box.removeEventListener("click", skip);
  box.hidden = true;
}

// --- the log ----------------------------------------------------------------------------

/** The log of a hand seen for the first time in its middle: its deal and every action. */
function logHand(view) {
  if (!view.hand) return;
  logDeal(view);
  for (const e of view.hand.history) addLog(describe(e, view));
}

function logDeal(view) {
  const h = view.hand;
  const dealer = h.dealer === S.seat ? "you deal" : `${view.names[h.dealer] || "the dealer"} deals`;
  addLog(`Hand ${h.hand_number}: ${dealer}; the upcard is ${cardText(h.upcard)}.`);
}

function describe(event, view) {
  const text = describeAction(event, view);
  return event.by === "timer" ? `${text.slice(0, -1)} (time ran out: played by the timer).` : text;
}

/** One action in words, with the right grammar for "you" and suit symbols. */
export function describeAction(event, view) {
  const who = event.seat === S.seat ? "You" : view.names[event.seat] || "Opponent";
  const { kind, card } = parseAction(event);
  const c = card ? cardText(card) : "";
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

function actionSound(event) {
  const { kind } = parseAction(event);
  if (["stock", "pile", "take"].includes(kind)) sound.play("draw");
  else if (kind === "discard") sound.play("discard");
  else if (kind === "pass") sound.play("pass");
}

export function addLog(text) {
  const log = $("#log");
  const p = document.createElement("p");
  p.textContent = text;
  log.append(p);
  while (log.childElementCount > 60) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
  $("#last-move").textContent = text;
}

function rememberDeal(view) {
  // What this browser saw at the deal, to check against the seed when it is revealed.
  if (S.seat === null || !view.hand) return;
  const n = view.hand.hand_number;
  const key = `deal.${view.game_id}.${n}`;
  const fair = view.fairness.find((f) => f.hand === n);
  if (!fair || store.get(key)) return;
  const acted = view.hand.history.some((e) => e.seat === S.seat && e.action !== "pass");
  store.setJson(key, { commitment: fair.commitment, hand: acted || view.hand.result ? null : view.hand.hand.slice() });
}
