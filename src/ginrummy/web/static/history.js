// Your games and statistics, and the replay of a finished game, move by move: both hands
// arranged into melds and deadwood at every position, each move in words, the end of each
// hand as the end-of-hand dialog shows it (both arrangements, the lay-offs, the score), and
// a Play button that steps through the hand by itself.

import { api } from "./api.js";
import { cardName, cardText } from "./cards.js";
import { backCard, cardButton } from "./draw.js";
import { fillList, gameLine } from "./lobby.js";
import { arrangeHand, handFrames } from "./replay.js";
import { showPage } from "./router.js";
import { $, KIND_TITLE, RP, store } from "./state.js";

export async function openHistory() {
  stopPlay();
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

// --- the replay -----------------------------------------------------------------------------

/** What only the replay page reads (the shared part is `RP` in state.js): who is watching
 * (`seat`, null when the viewer is in neither seat), the players' names as the game has
 * them (null for an unnamed seat), the full results of the game's view (arrangements and
 * lay-offs; the record holds only a summary), and the autoplay's timer. */
const R = { seat: null, names: [null, null], results: [], claimedBy: null, playing: false, timer: null };

/** Autoplay: milliseconds between two moves, by the speed chosen in #rp-speed. */
const SPEEDS = { slow: 2000, normal: 1000, fast: 450 };

export async function openReplay(gameId) {
  stopPlay();
  showPage("replay");
  document.title = "Gin Rummy: replay";
  try {
    const [record, view, games] = await Promise.all([
      api("GET", `/api/games/${gameId}/record`),
      // the view of a finished game: names, our seat, and every hand's result in full
      api("GET", `/api/games/${gameId}`).catch(() => null),
      api("GET", "/api/players/me/games").catch(() => []),
    ]);
    RP.record = record;
    const g = games.find((x) => x.game_id === gameId);
    R.seat = view ? view.seat ?? null : g ? g.seat : null;
    R.names = (view && view.names) || (g && g.names) || [null, null];
    R.results = (view && view.results) || [];
    R.claimedBy = record.claimed_by ?? (view ? view.claimed_by ?? null : null);
    RP.names = [nameOf(0), nameOf(1)];
  } catch (e) {
    RP.frames = [];
    for (const id of ["#rp-hand-0", "#rp-hand-1", "#rp-pile", "#rp-hand", "#rp-result"]) $(id).replaceChildren();
    for (const id of ["#rp-pos", "#rp-name-0", "#rp-name-1", "#rp-dw-0", "#rp-dw-1", "#rp-stock", "#rp-pile-count"]) $(id).textContent = "";
    $("#rp-result").hidden = true;
    $("#rp-action").textContent = `No replay: ${e.message}`;
    return;
  }
  const select = $("#rp-hand");
  select.replaceChildren();
  RP.record.hands.forEach((_, i) => {
    const o = document.createElement("option");
    o.value = i;
    o.textContent = `${i + 1} of ${RP.record.hands.length}`;
    select.append(o);
  });
  // the viewer's own seat at the bottom, as at the table
  const bottom = R.seat ?? 0;
  $("#rp-seat-" + bottom).style.order = "3";
  $("#rp-seat-" + (1 - bottom)).style.order = "1";
  replayHand(0);
}

// --- names and words ------------------------------------------------------------------------

/** A seat's name for its label: the player's name; "You" for your own unnamed seat; an
 * unnamed other seat is "Opponent", or "Player 1" / "Player 2" to a viewer in neither seat. */
function nameOf(seat) {
  if (R.names[seat]) return R.names[seat];
  if (seat === R.seat) return "You";
  return R.seat === null ? `Player ${seat + 1}` : "Opponent";
}

/** A seat as the subject of a sentence: "You" for the viewer's seat (at the start of a
 * sentence, "you" elsewhere), else its name ("Your opponent" for an unnamed one). */
function who(seat, start = true) {
  if (seat === R.seat) return start ? "You" : "you";
  if (!R.names[seat] && R.seat !== null) return start ? "Your opponent" : "your opponent";
  return nameOf(seat);
}

/** The present tense for a seat: "Ann scores", "you score". */
function verb(seat, third, plain) {
  return seat === R.seat ? plain : third;
}

/** "7♦", "7♦ and 8♦", "7♦, 8♦ and 9♦". */
function cardList(cards) {
  const t = cards.map(cardText);
  return t.length < 2 ? t.join("") : `${t.slice(0, -1).join(", ")} and ${t[t.length - 1]}`;
}

/** A frame's move in words. Every card is named: the game is over, nothing is hidden. */
function describe(f, hr) {
  if (f.action === null) return `Hand ${RP.hand + 1}: ${who(hr.dealer, false)} dealt; the upcard is ${cardText(f.pile[0])}.`;
  const w = who(f.seat);
  const c = f.card ? cardText(f.card) : "";
  switch (f.kind) {
    case "pass": return `${w} passed the upcard ${cardText(f.pile[f.pile.length - 1])}.`;
    case "take": return `${w} took the upcard ${c}.`;
    case "stock": return `${w} drew from the stock: ${c}.`;
    case "pile": return `${w} took ${c} from the discard pile.`;
    case "discard": return `${w} discarded ${c}.`;
    case "knock": return `${w} knocked, discarding ${c}.`;
    case "gin": return `${w} went gin, discarding ${c}.`;
    case "big-gin": return `${w} went Big Gin with all eleven cards!`;
    default: return `${w} made a move the page does not know.`;
  }
}

/** The end of a hand in plain words, as the end-of-hand dialog explains it. `full` is the
 * view's result (with the lay-offs and the Oklahoma multiplier), `summary` the record's. */
function scoreLine(summary, full) {
  const dw = summary.deadwood;
  if (summary.kind === "void") return "The stock ran down to its last two cards without a knock: the hand is void and nobody scores.";
  const k = full ? full.knocker : summary.kind === "undercut" ? 1 - summary.winner : summary.winner;
  const d = 1 - k;
  const points = summary.points;
  const doubled = full && full.multiplier > 1 ? ` (doubled: the upcard was a spade)` : "";
  const layoffs = full ? full.layoffs || [] : [];
  const laid = layoffs.length ? ` after laying off ${cardList(layoffs.map((l) => l.card))}` : "";
  switch (summary.kind) {
    case "knock":
      return `${who(k)} knocked with ${dw[k]}; ${who(d, false)} had ${dw[d]}${laid}: ${who(k, false)} ${verb(k, "scores", "score")} ${points}${doubled}.`;
    case "undercut":
      return `${who(k)} knocked with ${dw[k]}, but ${who(d, false)} had ${dw[d]}${laid}: ${who(d, false)} ${verb(d, "scores", "score")} ${points}, the difference plus the undercut bonus${doubled}.`;
    case "gin":
      return `${who(k)} went gin; ${who(d, false)} had ${dw[d]}: ${who(k, false)} ${verb(k, "scores", "score")} ${points}, that deadwood plus the gin bonus${doubled}. No lay-offs against gin.`;
    case "big-gin":
      return `${who(k)} went Big Gin; ${who(d, false)} had ${dw[d]}: ${who(k, false)} ${verb(k, "scores", "score")} ${points}, that deadwood plus the Big Gin bonus${doubled}.`;
    default:
      return `${who(summary.winner)} ${verb(summary.winner, "scores", "score")} ${points}.`;
  }
}

/** The game's end, after its last hand: who won, with the totals and bonuses. */
function gameLineAtEnd() {
  const o = RP.record.outcome;
  if (R.claimedBy !== null && R.claimedBy !== undefined) return ` ${who(R.claimedBy)} claimed the game: the opponent's turn timed out three times in a row.`;
  if (!o) return "";
  const t = o.grand_totals;
  if (o.winner === null) return ` The game ended in a draw, final score ${t[0]} to ${t[1]}.`;
  return ` ${who(o.winner)} won the game, final score ${t[o.winner]} to ${t[1 - o.winner]}.`;
}

// --- drawing --------------------------------------------------------------------------------

function replayHand(i) {
  RP.hand = i;
  $("#rp-hand").value = String(i);
  try {
    RP.frames = handFrames(RP.record.hands[i]);
  } catch (e) {
    stopPlay();
    RP.frames = [];
    $("#rp-action").textContent = `This hand cannot be replayed: ${e.message}`;
    return;
  }
  RP.at = 0;
  drawReplay();
}

function card(c, label, extra = []) {
  const el = cardButton(c, { tag: "span", label });
  el.classList.add(...extra);
  return el;
}

/** A hand arranged: each meld outlined, then the deadwood apart. `layoffs` (the knocker's,
 * at the end of a knocked hand) are the defender's cards on its melds, ringed; `drawn` is
 * the card just drawn, marked. */
function arrangedCards(arrangement, { layoffs = [], drawn = null, by = "" } = {}) {
  const out = [];
  arrangement.melds.forEach((meld, i) => {
    const laid = layoffs.filter((l) => l.meld === i).map((l) => l.card);
    const cards = meld.concat(laid);
    // a run takes its lay-offs at either end (rank order); a set gets its fourth card last
    if (laid.length && meld[0][1] === meld[1][1]) cards.sort((a, b) => "A23456789TJQK".indexOf(a[0]) - "A23456789TJQK".indexOf(b[0]));
    const g = document.createElement("span");
    g.className = "meld-group";
    g.dataset.meld = i;
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `meld: ${cards.map(cardName).join(", ")}`);
    cards.forEach((c, j) => {
      const off = laid.includes(c);
      // one "laid off" tag for each row of laid-off cards side by side
      const classes = off ? ["laid-off", ...(j && laid.includes(cards[j - 1]) ? [] : ["rp-tag"])] : c === drawn ? ["rp-drawn"] : [];
      g.append(card(c, `${cardName(c)}, ${off ? `laid off by ${by}` : "in a meld"}`, classes));
    });
    out.push(g);
  });
  if (arrangement.deadwood.length) {
    const dead = document.createElement("span");
    dead.className = "deadwood-group";
    dead.setAttribute("role", "group");
    dead.setAttribute("aria-label", `deadwood: ${arrangement.deadwood.map(cardName).join(", ")}`);
    for (const c of arrangement.deadwood) dead.append(card(c, `${cardName(c)}, deadwood`, c === drawn ? ["rp-drawn"] : []));
    out.push(dead);
  }
  return out;
}

function badge(text, kind) {
  const b = document.createElement("span");
  b.className = `rp-badge ${kind}`;
  b.textContent = text;
  return b;
}

function drawReplay() {
  const f = RP.frames[RP.at];
  const hr = RP.record.hands[RP.hand];
  const last = RP.at === RP.frames.length - 1;
  const summary = last ? hr.result : null;
  // the view's full result, when it is this hand's (same kind and points as the record's)
  const candidate = R.results[RP.hand];
  const full = summary && candidate && candidate.kind === summary.kind && candidate.points === summary.points ? candidate : null;
  const ended = summary && summary.kind !== "void";
  const knocker = ended ? (full ? full.knocker : summary.kind === "undercut" ? 1 - summary.winner : summary.winner) : null;
  for (const seat of [0, 1]) {
    const label = $(`#rp-name-${seat}`);
    label.replaceChildren(nameOf(seat));
    if (seat === R.seat && R.names[seat]) label.append(" ", badge("you", "you"));
    if (hr.dealer === seat) label.append(" ", badge("dealer", "dealer"));
    if (seat === knocker) label.append(" ", badge({ gin: "gin", "big-gin": "Big Gin" }[summary.kind] || "knocked", "ended"));
    let arrangement, layoffs = [];
    if (ended && full) {
      arrangement = full.arrangements[seat];
      if (seat === knocker) layoffs = full.layoffs || [];
    } else {
      arrangement = arrangeHand(f.hands[seat]);
    }
    const drawn = f.seat === seat && ["take", "pile", "stock"].includes(f.kind) ? f.card : null;
    $(`#rp-hand-${seat}`).setAttribute("aria-label", seat === R.seat ? "Your cards" : `${nameOf(seat)}'s cards`);
    $(`#rp-hand-${seat}`).replaceChildren(...arrangedCards(arrangement, { layoffs, drawn, by: who(1 - seat, false) }));
    const dw = $(`#rp-dw-${seat}`);
    const points = ended ? summary.deadwood[seat] : arrangement.deadwood_points;
    const laidHere = ended && full && seat !== knocker ? (full.layoffs || []).map((l) => l.card) : [];
    dw.textContent = `Deadwood ${points}${laidHere.length ? ` after laying off ${cardList(laidHere)}` : ""}`;
  }
  if (!$("#rp-stock-card").childElementCount) $("#rp-stock-card").append(backCard());
  $("#rp-stock").textContent = `${f.stock} ${f.stock === 1 ? "card" : "cards"}`;
  $("#rp-pile-count").textContent = `${f.pile.length}`;
  const pile = $("#rp-pile");
  pile.replaceChildren(...f.pile.slice(-8).map((c, i, shown) => card(c, i === shown.length - 1 ? `${cardName(c)}, the top card` : cardName(c))));
  $("#rp-pos").textContent = `Move ${RP.at} of ${RP.frames.length - 1}`;
  $("#rp-action").textContent = describe(f, hr);
  const out = $("#rp-result");
  out.replaceChildren();
  if (last) {
    const finalHand = RP.hand === RP.record.hands.length - 1;
    const words = document.createElement("span");
    if (summary) {
      const title = document.createElement("strong");
      title.className = "rp-kind";
      title.dataset.kind = summary.kind;
      title.textContent = KIND_TITLE[summary.kind] || summary.kind;
      out.append(title, " ");
      words.textContent = scoreLine(summary, full) + (finalHand ? gameLineAtEnd() : "");
    } else {
      words.textContent = `This hand was not played out.${finalHand ? gameLineAtEnd() : ""}`;
    }
    out.append(words);
  }
  out.hidden = !last;
  // greyed at either end, never disabled: a disabled button would drop the focus
  for (const id of ["#rp-first", "#rp-prev"]) $(id).setAttribute("aria-disabled", String(RP.at === 0));
  for (const id of ["#rp-next", "#rp-last"]) $(id).setAttribute("aria-disabled", String(last));
}

// --- stepping and autoplay ------------------------------------------------------------------

/** A step by hand (a button, a key, another hand): it stops the autoplay. */
function stepReplay(delta) {
  stopPlay();
  if (!RP.frames.length) return;
  RP.at = Math.max(0, Math.min(RP.frames.length - 1, RP.at + delta));
  drawReplay();
}

function speed() {
  return SPEEDS[$("#rp-speed").value] || SPEEDS.normal;
}

function showPlaying() {
  const b = $("#rp-play");
  b.querySelector(".rp-icon").textContent = R.playing ? "❚❚" : "▶";
  b.querySelector(".rp-word").textContent = R.playing ? "Pause" : "Play";
  b.setAttribute("aria-pressed", String(R.playing));
  b.classList.toggle("playing", R.playing);
}

function stopPlay() {
  clearTimeout(R.timer);
  R.timer = null;
  if (!R.playing) return;
  R.playing = false;
  showPlaying();
}

function schedule() {
  clearTimeout(R.timer);
  R.timer = setTimeout(tick, speed());
}

// Autoplay stops at the end of the hand, so that its result can be read; Play pressed there
// goes on with the next hand from its deal (after the last hand: this hand again from its
// deal). It also stops on any step by hand, and when the page is left.
function tick() {
  R.timer = null;
  if (!R.playing || document.body.dataset.page !== "replay" || !RP.frames.length) { stopPlay(); return; }
  RP.at = Math.min(RP.frames.length - 1, RP.at + 1);
  drawReplay();
  if (RP.at >= RP.frames.length - 1) stopPlay(); else schedule();
}

function togglePlay() {
  if (R.playing) { stopPlay(); return; }
  if (!RP.frames.length) return;
  if (RP.at >= RP.frames.length - 1) {
    if (RP.hand + 1 < RP.record.hands.length) replayHand(RP.hand + 1);
    else { RP.at = 0; drawReplay(); }
    if (!RP.frames.length) return;
  }
  R.playing = true;
  showPlaying();
  schedule();
}

export function initHistory() {
  $("#rp-first").addEventListener("click", () => stepReplay(-1e9));
  $("#rp-prev").addEventListener("click", () => stepReplay(-1));
  $("#rp-next").addEventListener("click", () => stepReplay(1));
  $("#rp-last").addEventListener("click", () => stepReplay(1e9));
  $("#rp-play").addEventListener("click", togglePlay);
  $("#rp-hand").addEventListener("change", (e) => { stopPlay(); replayHand(Number(e.target.value)); });
  const chosen = store.get("replaySpeed", "normal");
  $("#rp-speed").value = SPEEDS[chosen] ? chosen : "normal";
  $("#rp-speed").addEventListener("change", (e) => {
    store.set("replaySpeed", e.target.value);
    if (R.playing) schedule(); // the new pace from now on
  });
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.page !== "replay" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest("input, select, textarea, summary, .settings")) return;
    if (e.key === "ArrowRight") stepReplay(1);
    else if (e.key === "ArrowLeft") stepReplay(-1);
    else if (e.key === "Home") stepReplay(-1e9);
    else if (e.key === "End") stepReplay(1e9);
    else if (e.key === " " && !e.repeat) togglePlay();
    else return;
    // Space is Play/Pause wherever the focus is (a focused button would take it as a click,
    // and the page would scroll)
    e.preventDefault();
  });
  // a focused button takes Space as a click on its keyup: already toggled on keydown
  document.addEventListener("keyup", (e) => {
    if (document.body.dataset.page === "replay" && e.key === " " && e.target.closest("#replay button")) e.preventDefault();
  });
}
