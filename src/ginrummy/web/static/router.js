// Pages and addresses: the page routes itself from location.pathname (the server answers
// every page's address with index.html).

import { ensurePlayer } from "./api.js";
import { hideOverlays } from "./dialogs.js";
import { openHistory, openReplay } from "./history.js";
import { joinGame, openLobby } from "./lobby.js";
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
