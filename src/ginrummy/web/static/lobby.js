// The lobby (new games, invites, your open and finished games) and the join page.

import { api } from "./api.js";
import { navigate, route, showPage } from "./router.js";
import { $, store } from "./state.js";

export function gameLine(g) {
  const me = g.seat, opp = 1 - g.seat;
  // a friend who joined without a name has none: seat_free tells them from a seat still free
  const nameless = g.ai_level ? `AI (${g.ai_level})` : g.seat_free === false ? "your opponent" : "waiting for a player";
  const oppName = g.names[opp] || nameless;
  // the score a person would read as the game's: the grand totals with the bonuses once it
  // is played out (what the end-of-game dialog ends with), else the hand points, labelled
  const final = g.finished && g.grand_totals ? g.grand_totals : null;
  const totals = final || g.points;
  const label = !g.finished ? "points so far" : final ? "grand total with bonuses"
    : g.claimed_by !== null && g.claimed_by !== undefined ? "points when it was claimed" : "points";
  const score = `${label} ${totals[me]} – ${totals[opp]}`;
  let outcome = "";
  if (g.finished) outcome = g.winner === null ? " · drawn" : g.winner === me ? " · you won" : " · you lost";
  return `vs ${oppName} · ${g.rules} · ${score}${outcome}`;
}

export async function openLobby() {
  showPage("lobby");
  document.title = "Gin Rummy";
  $("#name").value = store.get("name", "");
  $("#level").value = store.get("level", "normal");
  $("#preset").value = store.get("preset", "tournament");
  aboutChoices();
  $("#game-target").value = store.get("target", "");
  $("#oklahoma").checked = store.get("oklahoma") === "1";
  $("#turn-seconds").value = store.get("turnSeconds", "");
  $("#invite-box").hidden = true;
  $("#lobby-error").textContent = "";
  try {
    const games = await api("GET", "/api/players/me/games");
    const open = games.filter((g) => !g.finished).reverse();
    const done = games.filter((g) => g.finished).reverse();
    fillList($("#open-games"), open, (g) => [`/game/${g.game_id}`, `Resume: ${gameLine(g)}`, watchLink(g.game_id)]);
    fillList($("#finished-games"), done.slice(0, 10), (g) => [`/replay/${g.game_id}`, `Replay: ${gameLine(g)}`]);
  } catch (e) {
    if (e.code === "service/bad-player") { store.remove("player"); return route(); }
    $("#lobby-error").textContent = e.message;
  }
}

/** The address that shows a game to a spectator: anyone may open it (it holds no secret),
 * and it opens as a spectator even in a browser that holds a seat. */
export function watchAddress(gameId) {
  return `/game/${gameId}#watch`;
}

function watchLink(gameId) {
  const a = document.createElement("a");
  a.href = watchAddress(gameId);
  a.className = "watch-link";
  a.textContent = "watch link";
  a.title = "Share it: whoever opens it watches this game, both hands face down";
  return a;
}

/** Each level in a few plain words (the lobby writes the chosen one under its select). */
export const LEVEL_ABOUT = {
  easy: "Easy: keeps its melds, throws its highest card and knocks as soon as it may. Good for learning the game.",
  normal: "Normal: plays sensible cards, takes from the pile when that helps and avoids feeding you cards you took.",
  hard: "Hard: keeps track of what you took, passed and threw, guesses your hand, and thinks twice before knocking into an undercut.",
  expert: "Expert: the same reading of your hand with deeper checks before each knock. A strong club player.",
  master: "Master: looks ahead over many possible deals for every draw, discard and knock, plays for the game score, and knows from thousands of games against itself when a knock really pays. The strongest level.",
};

/** Each preset in a few plain words (the full rules are in docs/rules.md). */
export const PRESET_ABOUT = {
  tournament: "Tournament: 25 for gin and for an undercut, Big Gin 31; at 100 every hand won adds 25 and the game adds 100; a shutout doubles the winner's hand points; the higher grand total wins.",
  classic: "Classic: 25 for gin and for an undercut; no Big Gin and no bonuses: the first to 100 wins.",
  app: "App: like tournament, but the first to 100 wins, and a shutout (the loser scored nothing) doubles the winner's bonuses.",
  parlor: "Parlor: no Big Gin; 25 a hand won and 100 for the game, the first to 100 wins; a loser who won no hand doubles the game bonus.",
};

/** The chosen level and preset in words under their selects (a narrow select cuts its text). */
function aboutChoices() {
  $("#level-about").textContent = LEVEL_ABOUT[$("#level").value] || "";
  $("#preset-about").textContent = PRESET_ABOUT[$("#preset").value] || $("#preset").selectedOptions[0]?.textContent || "";
}

/** `line(item)` gives `[href, text, extra element or undefined]` for each item. */
export function fillList(ul, items, line) {
  ul.replaceChildren();
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "None yet.";
    ul.append(li);
  }
  for (const item of items) {
    const [href, text, extra] = line(item);
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    li.append(a);
    if (extra) li.append(" · ", extra);
    ul.append(li);
  }
}

function lobbyChoices() {
  const name = $("#name").value.trim();
  store.set("name", name);
  store.set("level", $("#level").value);
  store.set("preset", $("#preset").value);
  store.set("target", $("#game-target").value);
  store.set("oklahoma", $("#oklahoma").checked ? "1" : "0");
  store.set("turnSeconds", $("#turn-seconds").value);
  const choices = { name: name || null, level: $("#level").value, preset: $("#preset").value };
  if ($("#game-target").value) choices.target = Number($("#game-target").value);
  if ($("#oklahoma").checked) choices.oklahoma = true;
  return choices;
}

export async function joinGame(gameId) {
  const invite = location.hash.slice(1);
  showPage("join");
  document.title = "Gin Rummy: join a game";
  $("#join-error").textContent = invite ? "" : "This invite link has no invite in it: ask for the link again.";
  $("#join-go").disabled = !invite;
  $("#join-title").textContent = "You are invited to a game of Gin Rummy";
  $("#join-rules").textContent = "";
  // nothing to do until the game says whether it has a seat to take
  for (const id of ["#join-name-row", "#join-go", "#join-closed", "#join-instead-row"]) $(id).hidden = true;
  $("#join-name").value = store.get("name", "");
  $("#join-form").onsubmit = async (e) => {
    e.preventDefault();
    const name = $("#join-name").value.trim();
    store.set("name", name);
    try {
      await api("POST", `/api/games/${gameId}/join`, { invite, name: name || null });
    } catch (err) {
      if (err.code !== "service/already-seated") { // the link opened again: go to the seat
        $("#join-error").textContent = err.code === "service/full"
          ? "This game already has two players."
          : `Could not join: ${err.message}`;
        return;
      }
    }
    navigate(`/game/${gameId}`, true);
  };
  try {
    const view = await api("GET", `/api/games/${gameId}`);
    if (location.pathname !== `/join/${gameId}`) return; // the page has moved on meanwhile
    // this browser already sits at the game (the host opening their own link): to the seat
    if (view.seat !== null && view.seat !== undefined) return navigate(`/game/${gameId}`, true);
    const host = view.names.find((n) => n) || "A player";
    const closed = view.is_over ? "over" : view.seat_free === false ? "full" : null;
    if (closed) return joinClosed(gameId, closed, view);
    joinOpen(true);
    $("#join-name").focus();
    $("#join-rules").textContent = `${host} invites you: ${view.rules.name} rules, to ${view.rules.target} points.`;
  } catch (e) {
    $("#join-error").textContent = `No such game: ${e.message}`;
    $("#join-go").disabled = true;
  }
}

/** The join page's name field and button (`open`), or neither (a game with no seat to take). */
function joinOpen(open) {
  $("#join-name-row").hidden = !open;
  $("#join-go").hidden = !open;
  $("#join-closed").hidden = open;
  $("#join-instead-row").hidden = open;
}

/** A game that is `full` (two players: it may be watched) or `over` (its replay): said up
 * front, with no name asked. */
function joinClosed(gameId, why, view) {
  joinOpen(false);
  const names = view.names.map((n, seat) => n || (seat === 0 ? "Player 1" : "Player 2")).join(" and ");
  $("#join-title").textContent = why === "over" ? "This game is over" : "This game is full";
  $("#join-closed").textContent = why === "over"
    ? `${names} have finished this game: there is no seat left to take. You can watch its replay.`
    : `This game already has two players (${names}): there is no seat left to take. You can watch it.`;
  $("#join-instead").textContent = why === "over" ? "Watch the replay" : "Watch the game";
  $("#join-instead").href = why === "over" ? `/replay/${gameId}` : watchAddress(gameId);
}

export function initLobby() {
  $("#preset").addEventListener("change", aboutChoices);
  $("#level").addEventListener("change", aboutChoices);
  $("#new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    const c = lobbyChoices();
    try {
      const made = await api("POST", "/api/games", { opponent: "ai", ...c });
      navigate(`/game/${made.game_id}`);
    } catch (err) {
      $("#lobby-error").textContent = err.message;
    }
  });

  $("#invite-human").addEventListener("click", async () => {
    const c = lobbyChoices();
    try {
      const { level: _, ...rules } = c;
      // a turn timer keeps an absent friend from stalling the game (the AI never does)
      if ($("#turn-seconds").value) rules.turn_seconds = Number($("#turn-seconds").value);
      const made = await api("POST", "/api/games", { opponent: "human", ...rules });
      // The invite travels in the fragment: browsers never send it to the server in the URL.
      $("#invite-link").value = `${location.origin}/join/${made.game_id}#${made.invite}`;
      store.set(`invite.${made.game_id}`, $("#invite-link").value);
      $("#invite-box").hidden = false;
      $("#go-invited").onclick = () => navigate(`/game/${made.game_id}`);
      $("#invite-link").select();
    } catch (err) {
      $("#lobby-error").textContent = err.message;
    }
  });

  $("#copy-invite").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("#invite-link").value); $("#copy-invite").textContent = "Copied"; } catch {
      $("#invite-link").select();
    }
  });
}
