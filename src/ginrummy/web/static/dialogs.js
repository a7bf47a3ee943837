// The dialogs: the end of a hand (both hands arranged, lay-offs, the score explained, the
// deal checked) and the end of the game (the bonus layer, or a claim).

import { api } from "./api.js";
import { cardName, cardText } from "./cards.js";
import { celebrate } from "./celebrate.js";
import { animateFrom, cardButton } from "./draw.js";
import { verifyHand } from "./fairness.js";
import { navigate } from "./router.js";
import * as sound from "./sound.js";
import { $, KIND_TITLE, S, esc, reducedMotion, store } from "./state.js";

export function queueHandEnds(view) {
  const key = `seen.${view.game_id}`;
  const seen = Number(store.get(key, "-1"));
  if (seen < 0) {
    // First look at this game in this browser: past hands are history, the last one is news
    // only if it just ended (the game is over, or the new hand has not started).
    const fresh = view.is_over || view.hand.history.length === 0 ? 1 : 0;
    store.set(key, String(Math.max(0, view.results.length - fresh)));
    return queueHandEnds(view);
  }
  for (let i = seen; i < view.results.length; i++) {
    if (!S.endQueue.includes(i) && S.showingEnd !== i) S.endQueue.push(i);
  }
}

/**
 * Open the next dialog owed: the end of the oldest hand not shown yet, once the table has
 * drawn that hand to its end (`ended`: how many hands have; by default what was drawn last),
 * or else the end of the game. Two hands can end in one view (the AI ends the next hand
 * before the player acts again): the second's dialog waits until its deal and its moves are
 * drawn, after the first's.
 */
export function maybeShowEnd(ended = S.endedDrawn) {
  if (S.showingEnd !== null || !$("#game-end").hidden) return;
  if (S.endQueue.length) {
    if (S.endQueue[0] < ended) showHandEnd(S.endQueue.shift());
    return;
  }
  if (S.view && S.view.is_over) showGameEnd();
}

export function hideOverlays() {
  $("#hand-end").hidden = true;
  $("#game-end").hidden = true;
  S.showingEnd = null;
  syncInert();
}

/** While a dialog is open, the page behind it takes no focus, clicks or keys. */
export function syncInert() {
  const open = !$("#hand-end").hidden || !$("#game-end").hidden;
  for (const el of document.querySelectorAll("main, header")) el.inert = open;
}

function arrangementRow(title, arrangement, layoffs, knocker) {
  const row = document.createElement("div");
  row.className = "he-row";
  const label = document.createElement("h3");
  label.textContent = title;
  row.append(label);
  const cards = document.createElement("div");
  cards.className = "he-cards";
  arrangement.melds.forEach((m, i) => {
    const g = document.createElement("div");
    g.className = "meld-group";
    g.dataset.meld = i;
    g.setAttribute("aria-label", `meld: ${m.map(cardName).join(", ")}`);
    for (const c of m) g.append(cardButton(c, { tag: "span" }));
    cards.append(g);
  });
  if (!knocker && layoffs.length) {
    const lay = document.createElement("div");
    lay.className = "layoff-source";
    for (const l of layoffs) {
      const el = cardButton(l.card, { tag: "span", label: `${cardName(l.card)}, laid off` });
      el.classList.add("layoff");
      el.dataset.target = l.meld;
      lay.append(el);
    }
    cards.append(lay);
  }
  if (arrangement.deadwood.length) {
    const dead = document.createElement("div");
    dead.className = "deadwood-group";
    for (const c of arrangement.deadwood) dead.append(cardButton(c, { tag: "span", label: `${cardName(c)}, deadwood` }));
    cards.append(dead);
  }
  row.append(cards);
  const dw = document.createElement("p");
  dw.className = "he-deadwood";
  dw.textContent = `Deadwood ${arrangement.deadwood_points}`;
  row.append(dw);
  return row;
}

export function showHandEnd(index) {
  const v = S.view;
  const r = v.results[index];
  S.showingEnd = index;
  const me = S.seat ?? 0;
  const number = index + 1;
  const who = (seat) => (seat === S.seat ? "You" : v.names[seat] || "Opponent");
  $("#he-title").textContent = r.kind === "void"
    ? `Hand ${number}: no winner`
    : `Hand ${number}: ${who(r.winner)} score${r.winner === S.seat ? "" : "s"} ${r.points}`;
  $("#he-kind").textContent = KIND_TITLE[r.kind] || r.kind;
  $("#he-kind").dataset.kind = r.kind;
  const hands = $("#he-hands");
  hands.replaceChildren();
  if (r.kind === "void") {
    for (const seat of [1 - me, me]) {
      hands.append(arrangementRow(who(seat), { melds: [], deadwood: r.hands[seat], deadwood_points: "-" }, [], false));
    }
  } else {
    const k = r.knocker;
    const order = [k, 1 - k];
    for (const seat of order) {
      // as the move log words it: "AI (normal) knocked", "You went gin"
      const ended = { gin: "went gin", "big-gin": "went Big Gin" }[r.kind] || "knocked";
      const title = seat === k ? `${who(seat)} ${ended}` : who(seat);
      hands.append(arrangementRow(title, r.arrangements[seat], r.layoffs || [], seat === k));
    }
    if (r.layoffs && r.layoffs.length) setTimeout(() => layOff(hands), reducedMotion() ? 0 : 700);
  }
  $("#he-explanation").textContent = explain(r, who);
  const fair = $("#fairness-status");
  fair.dataset.ok = "pending";
  fair.textContent = "Checking the deal…";
  $("#fairness-checks").replaceChildren();
  checkDeal(number);
  $("#btn-next").firstChild.textContent = v.is_over && index === v.results.length - 1 ? "See the final score " : "Next hand ";
  $("#hand-end").hidden = false;
  syncInert();
  $("#btn-next").focus();
  const snd = { gin: "gin", "big-gin": "gin", undercut: "undercut" }[r.kind];
  sound.play(snd || (r.kind === "void" ? "deal" : "knock"));
  const cheer = { gin: "Gin!", "big-gin": "Big Gin!", undercut: "Undercut!" }[r.kind];
  if (cheer) celebrate(cheer, { confetti: r.winner === S.seat || S.seat === null });
}

function layOff(container) {
  // The defender's lay-offs travel onto the knocker's melds.
  for (const el of container.querySelectorAll(".layoff")) {
    const from = el.getBoundingClientRect();
    const meld = container.querySelector(`.he-row:first-of-type .meld-group[data-meld="${el.dataset.target}"]`);
    if (!meld) continue;
    meld.append(el);
    el.classList.add("laid-off");
    animateFrom(el, from);
  }
}

/** The hand's score in a sentence, with the grammar right for "you" and for a name. */
export function explain(r, who) {
  const dw = r.deadwood;
  if (r.kind === "void") return "The stock ran down to its last two cards without a knock: the hand is void and nobody scores.";
  const k = r.knocker, d = 1 - k;
  const you = (seat) => seat === S.seat;
  const name = (seat) => (you(seat) ? "you" : who(seat)); // in the middle of a sentence
  const poss = (seat) => (you(seat) ? "your" : `${who(seat)}'s`);
  const has = (seat) => `${name(seat)} ${you(seat) ? "have" : "has"}`;
  const scores = (seat) => `${name(seat)} score${you(seat) ? "" : "s"}`;
  const doubled = r.multiplier > 1 ? ` (×${r.multiplier})` : "";
  if (r.kind === "gin") return `${who(k)} went gin: ${poss(d)} deadwood ${dw[d]} plus the gin bonus makes ${r.points}${doubled}. No lay-offs against gin.`;
  if (r.kind === "big-gin") return `${who(k)} went Big Gin with all eleven cards: ${poss(d)} deadwood ${dw[d]} plus the Big Gin bonus makes ${r.points}${doubled}.`;
  const laid = r.layoffs && r.layoffs.length ? ` after laying off ${r.layoffs.map((l) => cardText(l.card)).join(" ")}` : "";
  if (r.kind === "undercut") return `Undercut! ${who(k)} knocked with ${dw[k]}, but ${has(d)} ${dw[d]}${laid}: ${scores(d)} the difference plus the undercut bonus, ${r.points}${doubled}.`;
  return `${who(k)} knocked with ${dw[k]} against ${dw[d]}${laid}: ${dw[d]} − ${dw[k]} = ${r.points}${doubled}.`;
}

async function checkDeal(number) {
  const fair = $("#fairness-status");
  const list = $("#fairness-checks");
  try {
    const record = await api("GET", `/api/games/${S.gameId}/hands/${number}`);
    // The record's result is a summary; the view's result also shows both final hands.
    record.result = { ...record.result, ...S.view.results[number - 1] };
    const seen = store.json(`deal.${S.gameId}.${number}`, {});
    const result = await verifyHand(record, { seat: S.seat ?? undefined, seenCommitment: seen.commitment || undefined, seenHand: seen.hand || undefined });
    if (S.showingEnd !== number - 1) return;
    for (const c of result.checks) {
      const li = document.createElement("li");
      li.textContent = `${c.ok ? "✓" : "✗"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`;
      list.append(li);
    }
    fair.dataset.ok = String(result.ok);
    fair.textContent = result.ok
      ? "✓ Fair deal verified: the seed matches the commitment published before the deal, and its shuffle gives exactly the cards dealt and drawn."
      : "✗ The deal check FAILED: see the details below.";
  } catch (e) {
    fair.dataset.ok = "error";
    fair.textContent = `The deal could not be checked: ${e.message}`;
  }
}

export function nextFromEnd() {
  if (S.showingEnd === null) return;
  store.set(`seen.${S.gameId}`, String(S.showingEnd + 1));
  S.showingEnd = null;
  $("#hand-end").hidden = true;
  syncInert();
  maybeShowEnd();
  if ($("#game-end").hidden && S.showingEnd === null) $("#hand").querySelector(".card[tabindex='0']")?.focus();
}

function showGameEnd() {
  const v = S.view;
  const o = v.outcome;
  const me = S.seat ?? 0, opp = 1 - me;
  const name = (seat) => (seat === S.seat ? "You" : v.names[seat] || "Opponent");
  if (v.claimed_by !== null) return showClaimEnd(v, name);
  $("#ge-title").textContent = o.winner === null ? "A drawn game" : o.winner === S.seat ? "You win the game!" : `${name(o.winner)} wins the game`;
  const doubled = o.shutout && v.rules.shutout === "double-hand-points";
  const rows = [
    [doubled ? `Hand points (${v.points[o.winner]} doubled for the shutout)` : "Hand points", o.hand_points],
    ["Line bonus (per hand won)", o.line_bonuses],
    ["Game bonus", o.game_bonuses],
  ];
  let html = `<thead><tr><th></th><th>${esc(name(me))}</th><th>${esc(name(opp))}</th></tr></thead><tbody>`;
  for (const [label, vals] of rows) html += `<tr><th scope="row">${label}</th><td>${vals[me]}</td><td>${vals[opp]}</td></tr>`;
  html += `<tr class="total"><th scope="row">Grand total</th><td>${o.grand_totals[me]}</td><td>${o.grand_totals[opp]}</td></tr></tbody>`;
  $("#bonus-table").innerHTML = html;
  const notes = [`Hands won: ${v.hands_won[me]} – ${v.hands_won[opp]}.`];
  const SHUTOUT = {
    "double-hand-points": "the winner took every scored hand, so the winner's hand points are doubled",
    "double-bonuses": "the loser scored no points, so the winner's line and game bonuses are doubled",
    "double-game-bonus": "the loser won no hand, so the game bonus is doubled",
  };
  if (o.shutout) notes.push(`Shutout: ${SHUTOUT[v.rules.shutout] || "the bonuses are doubled"}.`);
  $("#ge-note").textContent = notes.join(" ");
  $("#btn-again").hidden = !v.ai_level || S.seat === null;
  $("#game-end").hidden = false;
  syncInert();
  ($("#btn-again").hidden ? $("#btn-lobby") : $("#btn-again")).focus();
  sound.play(o.winner === S.seat ? "win" : "knock");
  if (o.winner !== null) celebrate(o.winner === S.seat ? "You win!" : `${name(o.winner)} wins`, { confetti: o.winner === S.seat || S.seat === null });
}
/** The end of a game claimed after the opponent's turn timed out three times in a row. */
function showClaimEnd(v, name) {
  const winner = v.claimed_by, loser = 1 - winner;
  $("#ge-title").textContent = winner === S.seat ? "You win the game: you claimed it" : `${name(winner)} claimed the game`;
  $("#bonus-table").innerHTML = "";
  const me = S.seat ?? 0, opp = 1 - me;
  $("#ge-note").textContent = `${loser === S.seat ? "Your" : `${name(loser)}'s`} turn timed out three times in a row, so the game was claimed. Points when it ended: ${v.points[me]} – ${v.points[opp]}.`;
  $("#btn-again").hidden = true;
  $("#game-end").hidden = false;
  syncInert();
  $("#btn-lobby").focus();
  sound.play(winner === S.seat ? "win" : "knock");
}

export function initDialogs() {
  $("#btn-next").addEventListener("click", nextFromEnd);
  $("#btn-lobby").addEventListener("click", () => navigate("/"));
  $("#btn-again").addEventListener("click", async () => {
    // the same opponent and rules again
    const v = S.view;
    try {
      const made = await api("POST", "/api/games", {
        opponent: "ai", level: v.ai_level, preset: v.rules.name, target: v.rules.target,
        oklahoma: v.rules.oklahoma, name: v.names[S.seat] || null,
      });
      navigate(`/game/${made.game_id}`);
    } catch (e) {
      $("#ge-note").textContent = `No new game: ${e.message}`;
    }
  });
  $("#btn-replay").addEventListener("click", () => navigate(`/replay/${S.gameId}`));
  $("#btn-last-hand").addEventListener("click", () => {
    $("#game-end").hidden = true;
    syncInert();
    showHandEnd(S.view.results.length - 1);
  });
}
