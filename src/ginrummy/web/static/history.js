// Your games and statistics, and the replay of a finished game, move by move.

import { api } from "./api.js";
import { cardText, sortKey } from "./cards.js";
import { cardButton } from "./draw.js";
import { fillList, gameLine } from "./lobby.js";
import { handFrames } from "./replay.js";
import { showPage } from "./router.js";
import { $, KIND_TITLE, RP } from "./state.js";

export async function openHistory() {
  showPage("history");
  document.title = "Gin Rummy: your games";
  let games, stats;
  try {
    [games, stats] = await Promise.all([api("GET", "/api/players/me/games"), api("GET", "/api/players/me/stats")]);
  } catch (e) {
    $("#stats").textContent = `Your games cannot be loaded: ${e.message}`;
    return;
  }
  const dl = $("#stats");
  const pct = stats.games ? Math.round((100 * stats.wins) / stats.games) : 0;
  const items = [
    ["Games finished", stats.games], ["Won", `${stats.wins} (${pct} %)`], ["Drawn", stats.drawn],
    ["Points scored", stats.points], ["Gins", stats.gins], ["Knocks", stats.knocks], ["Undercuts won", stats.undercuts],
    ["Average deadwood at knock", stats.average_deadwood_at_knock === null ? "–" : stats.average_deadwood_at_knock.toFixed(1)],
  ];
  dl.innerHTML = items.map(([k, val]) => `<div><dt>${k}</dt><dd>${val}</dd></div>`).join("");
  const all = games.slice().reverse();
  fillList($("#history-games"), all, (g) => g.finished ? [`/replay/${g.game_id}`, `Replay: ${gameLine(g)}`] : [`/game/${g.game_id}`, `Resume: ${gameLine(g)}`]);
}

export async function openReplay(gameId) {
  showPage("replay");
  document.title = "Gin Rummy: replay";
  try {
    RP.record = await api("GET", `/api/games/${gameId}/record`);
    const games = await api("GET", "/api/players/me/games").catch(() => []);
    const g = games.find((x) => x.game_id === gameId);
    RP.names = g ? g.names.map((n, i) => (i === g.seat ? `${n || "You"} (you)` : n || "Opponent")) : ["Seat 0", "Seat 1"];
  } catch (e) {
    RP.frames = [];
    for (const id of ["#rp-hand-0", "#rp-hand-1", "#rp-pile", "#rp-hand"]) $(id).replaceChildren();
    $("#rp-pos").textContent = "";
    $("#rp-result").textContent = "";
    $("#rp-action").textContent = `No replay: ${e.message}`;
    return;
  }
  const select = $("#rp-hand");
  select.replaceChildren();
  RP.record.hands.forEach((_, i) => {
    const o = document.createElement("option");
    o.value = i;
    o.textContent = `${i + 1}`;
    select.append(o);
  });
  replayHand(0);
}

function replayHand(i) {
  RP.hand = i;
  $("#rp-hand").value = String(i);
  try {
    RP.frames = handFrames(RP.record.hands[i]);
  } catch (e) {
    RP.frames = [];
    $("#rp-action").textContent = `This hand cannot be replayed: ${e.message}`;
    return;
  }
  RP.at = 0;
  drawReplay();
}

function drawReplay() {
  const f = RP.frames[RP.at];
  const hr = RP.record.hands[RP.hand];
  for (const seat of [0, 1]) {
    $(`#rp-name-${seat}`).textContent = `${RP.names[seat]}${hr.dealer === seat ? " · dealer" : ""}`;
    const row = $(`#rp-hand-${seat}`);
    row.replaceChildren(...f.hands[seat].slice().sort((a, b) => sortKey(a, false) - sortKey(b, false)).map((c) => cardButton(c, { tag: "span" })));
  }
  $("#rp-stock").textContent = `${f.stock} cards`;
  $("#rp-pile").replaceChildren(...f.pile.slice(-6).map((c) => cardButton(c, { tag: "span" })));
  $("#rp-pos").textContent = `Move ${RP.at} of ${RP.frames.length - 1}`;
  $("#rp-action").textContent = f.action === null ? `Hand ${RP.hand + 1}: the deal (upcard ${cardText(f.pile[0])}).` : `${RP.names[f.seat]}: ${f.action}`;
  const last = RP.at === RP.frames.length - 1;
  const r = hr.result;
  let outcome = "";
  if (last && r) {
    outcome = r.kind === "void"
      ? "Void hand: nobody scores."
      : `${KIND_TITLE[r.kind] || r.kind}: ${RP.names[r.winner]} scores ${r.points} (deadwood: ${RP.names[0]} ${r.deadwood[0]}, ${RP.names[1]} ${r.deadwood[1]}).`;
  }
  $("#rp-result").textContent = outcome;
}

function stepReplay(delta) {
  if (!RP.frames.length) return;
  RP.at = Math.max(0, Math.min(RP.frames.length - 1, RP.at + delta));
  drawReplay();
}

export function initHistory() {
  $("#rp-first").addEventListener("click", () => stepReplay(-1e9));
  $("#rp-prev").addEventListener("click", () => stepReplay(-1));
  $("#rp-next").addEventListener("click", () => stepReplay(1));
  $("#rp-last").addEventListener("click", () => stepReplay(1e9));
  $("#rp-hand").addEventListener("change", (e) => replayHand(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.page !== "replay" || e.target.closest("input, select")) return;
    if (e.key === "ArrowRight") stepReplay(1);
    if (e.key === "ArrowLeft") stepReplay(-1);
  });
}
