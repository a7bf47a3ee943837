// The scoreboard, the hands' score sheet, the turn timer's countdown and the opponent's
// presence.

import { send } from "./net.js";
import { $, KIND_TITLE, S, awaitingFriend, esc } from "./state.js";
import { seatName } from "./table.js";

/** The scoreboard (both seats, the points, the hands won, whose turn) and the rules line. */
export function renderScores(v) {
  const me = S.seat ?? 0;
  const h = v.hand;
  for (const seat of [0, 1]) {
    const box = $(`#score-${seat === me ? 0 : 1}`);
    box.querySelector(".who").textContent = seatName(v, seat);
    box.querySelector(".pts").textContent = `${v.points[seat]}`;
    const won = Number(v.hands_won[seat]);
    box.querySelector(".won").innerHTML = `${won}<span class="long"> hand${won === 1 ? "" : "s"}</span> won`;
    box.classList.toggle("active", h.to_act === seat && !v.is_over);
  }
  let line = `Hand ${h.hand_number} · to ${v.rules.target} · ${v.rules.name}`;
  if (v.rules.oklahoma) line += ` · Oklahoma: knock at ${h.knock_limit} or less${h.multiplier > 1 ? ", scores doubled" : ""}`;
  $("#target").textContent = line;
  renderScoreSheet(v);
}

/** The turn timer's countdown: whose turn and the time left (hidden when no timer runs). */
export function renderTimer() {
  const el = $("#turn-timer");
  const v = S.view;
  const clocks = { opp: $("#opp-clock"), me: $("#my-clock") };
  if (!v || !v.timer || S.timerEnd === null || v.is_over || !v.hand) {
    el.hidden = true;
    clocks.opp.hidden = clocks.me.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((S.timerEnd - performance.now()) / 1000));
  const whose = v.hand.to_act === S.seat ? "Your time" : `${seatName(v, v.hand.to_act)}'s time`;
  const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const missed = v.timer.timeouts[v.hand.to_act];
  el.textContent = `${whose}: ${clock} left${missed ? ` · timed out ${missed} in a row` : ""}`;
  el.classList.toggle("low", left <= 10);
  el.hidden = false;
  // the same countdown on the seat of the player to act, warning in the last ten seconds
  const mine = v.hand.to_act === (S.seat ?? 0);
  const badge = mine ? clocks.me : clocks.opp;
  (mine ? clocks.opp : clocks.me).hidden = true;
  badge.textContent = `⏱ ${clock}`;
  badge.classList.toggle("low", left <= 10);
  badge.hidden = false;
}

export function renderPresence() {
  const v = S.view;
  if (!v) return;
  const opp = 1 - (S.seat ?? 0);
  const el = $("#opp-presence");
  if (v.ai_level || awaitingFriend(v, opp)) { el.textContent = ""; return; }
  const on = S.presence[opp];
  el.textContent = on ? "● online" : "○ away";
  el.className = `presence ${on ? "on" : "off"}`;
}

function renderScoreSheet(v) {
  const sheet = $("#score-sheet");
  const me = S.seat ?? 0, opp = 1 - me;
  const rows = v.results.map((r, i) => {
    const mine = r.winner === me ? r.points : "", theirs = r.winner === opp ? r.points : "";
    return `<tr><td>${i + 1}</td><td>${KIND_TITLE[r.kind] || r.kind}</td><td>${mine}</td><td>${theirs}</td></tr>`;
  }).join("");
  sheet.innerHTML = `<table><thead><tr><th>Hand</th><th>How</th><th>${esc(seatName(v, me))}</th><th>${esc(seatName(v, opp))}</th></tr></thead><tbody>${rows || "<tr><td colspan=4>No hands yet.</td></tr>"}</tbody></table>`;
}

export function initScores() {
  setInterval(renderTimer, 250);
  $("#btn-claim").addEventListener("click", () => send("claim"));
  $("#btn-scores").addEventListener("click", () => {
    const sheet = $("#score-sheet");
    sheet.hidden = !sheet.hidden;
    $("#btn-scores").setAttribute("aria-expanded", String(!sheet.hidden));
  });
}
