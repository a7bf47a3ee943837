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
