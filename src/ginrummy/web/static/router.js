// Pages and addresses: the page routes itself from location.pathname (the server answers
// every page's address with index.html).

import { ensurePlayer } from "./api.js";
import { hideOverlays } from "./dialogs.js";
import { openHistory, openReplay } from "./history.js";
import { joinGame, openLobby, watchAddress } from "./lobby.js";
import { closeSocket } from "./net.js";
import { $, S } from "./state.js";
import { openGame, render } from "./table.js";

export function showPage(id) {
  for (const page of document.querySelectorAll(".page")) page.hidden = page.id !== id;
  document.body.dataset.page = id;
}

/**
 * A game's address that leads to no game: `missing` (a well-formed id the server does not
 * know) or `malformed` (not a game's id at all). A page of its own, with the way back to the
 * lobby, instead of an empty table or a silent lobby under the wrong address.
 */
export function showNoGame(why) {
  showPage("no-game");
  document.title = "Gin Rummy: no such game";
  $("#no-game-text").textContent = why === "malformed"
    ? "This link is wrong: it is not the address of a game. Check that it was copied whole."
    : "There is no game at this address: the link is wrong, or the game no longer exists.";
}

/**
 * What each refusal of a game's socket (other than no such game) says, and what the person
 * can do: `key` (this browser's player key could not be read: it is far longer than any the
 * server gives), `slow` (the browser did not say who it is in time), `unavailable` (the
 * server cannot reach its games a moment), `other` (any other refusal). Never a token.
 */
const REFUSALS = {
  key: {
    title: "Your seat could not be opened",
    text: "The server could not read this browser's player key: it is damaged, so the server cannot tell whether a seat at this game is yours. You can watch the game instead, with both hands face down, or go back to the lobby, which gives this browser a new key.",
    retry: false, watch: true,
  },
  slow: {
    title: "The table could not be opened",
    text: "The connection was too slow: the server waited for this browser to say who it is, then gave up. Try again; if it keeps happening, the network is too slow just now.",
    retry: true, watch: false,
  },
  unavailable: {
    title: "The table could not be opened",
    text: "The server cannot reach its games for a moment, so it could not open this one. Nothing was lost: try again in a little while.",
    retry: true, watch: false,
  },
  other: {
    title: "The table could not be opened",
    text: "The server refused to open this table. Try again, watch the game instead, or go back to the lobby.",
    retry: true, watch: true,
  },
};

/** The refusal's kind (REFUSALS) for the code of the server's error (null: none came). */
export function refusalKind(code) {
  if (code === "ws/too-large" || code === "ws/malformed") return "key";
  if (code === "ws/auth-timeout") return "slow";
  if (code === "service/unavailable") return "unavailable";
  return "other";
}

/**
 * The server refused this game's table for another reason than "no such game" (see
 * REFUSALS): a page that says what happened and what to do, instead of an empty table.
 */
export function showRefused(kind) {
  const r = REFUSALS[kind] || REFUSALS.other;
  showPage("refused");
  document.title = "Gin Rummy: the table could not be opened";
  $("#refused-title").textContent = r.title;
  $("#refused-text").textContent = r.text;
  $("#refused-retry").hidden = !r.retry;
  $("#refused-retry").setAttribute("href", location.pathname + location.hash);
  // a spectator's table refused: watching is what failed, so it is not offered again
  $("#refused-watch").hidden = !r.watch || S.watching || !S.gameId;
  if (S.gameId) $("#refused-watch").setAttribute("href", watchAddress(S.gameId));
  $("#refused-retry").classList.toggle("primary", r.retry);
  $("#refused-watch").classList.toggle("primary", !r.retry);
}

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  route();
}

export async function route() {
  const path = location.pathname;
  closeSocket();
  hideOverlays();
  S.view = null;
  S.endQueue = [];
  let m;
  try {
    await ensurePlayer();
  } catch (e) {
    showPage("lobby");
    $("#lobby-error").textContent = `The server cannot be reached: ${e.message}`;
    return;
  }
  if ((m = path.match(/^\/game\/([0-9a-f]+)$/))) return openGame(m[1], { watch: location.hash === "#watch" });
  if ((m = path.match(/^\/join\/([0-9a-f]+)$/))) return joinGame(m[1]);
  if ((m = path.match(/^\/replay\/([0-9a-f]+)$/))) return openReplay(m[1]);
  if (/^\/(game|join|replay)\//.test(path)) return showNoGame("malformed");
  if (path === "/history") return openHistory();
  return openLobby();
}

export function initRouter() {
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='/']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
    e.preventDefault();
    navigate(a.getAttribute("href"));
  });
  window.addEventListener("popstate", route);
  window.addEventListener("resize", () => { if (S.view && document.body.dataset.page === "table") render(); });
}
