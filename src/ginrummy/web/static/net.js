// The game's WebSocket (docs/protocol.md): auth, views, sync, presence, errors, the moves
// this page sends, and an honest connection: a heartbeat, the browser's offline and online
// events, a banner (#conn) while it is lost, reconnection with backoff, a sync on return,
// and a move made meanwhile kept waiting and sent (exactly once) when the table is back.

import { cardText } from "./cards.js";
import * as sound from "./sound.js";
import { $, S, setStatus, store } from "./state.js";
import { refusalKind, showNoGame, showRefused } from "./router.js";
import { renderPresence } from "./scores.js";
import { render, renderHintButton, showWatching } from "./table.js";
import { receiveView, rollBack, showOwnMove } from "./views.js";

const PING_AFTER = 1000; // ms of silence before a ping
const SILENCE = 2000; // ms without an answer to a ping: the connection is lost
const SILENCE_ACTING = 20000; // the same while a move is being answered (the AI may think)
const HELLO_WITHIN = 5000; // ms for a new socket to say hello
const BACKOFF = [300, 600, 1200, 2500, 5000]; // ms between attempts to reconnect

/** A move in words, for the waiting and refusal messages. */
export function moveText(action) {
  const [kind, card] = action.split(" ");
  const c = card ? ` ${cardText(card)}` : "";
  return {
    stock: "draw from the stock", pile: "take from the pile", take: "take the upcard", pass: "pass",
    discard: `discard${c}`, knock: `knock with${c}`, gin: `gin with${c}`, "big-gin": "Big Gin", claim: "claim the game",
  }[kind] || action;
}

export function connect() {
  clearTimeout(S.reconnectTimer);
  clearTimeout(S.connectTimer);
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${S.gameId}`);
  S.ws = ws;
  S.wsOpen = false;
  S.connectTimer = setTimeout(() => connectionFailed(ws), HELLO_WITHIN);
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: S.watching ? null : store.get("player") }));
  ws.onmessage = (e) => {
    if (S.ws !== ws) return;
    S.lastHeard = performance.now();
    S.pingSentAt = null;
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onerror = () => connectionFailed(ws);
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    if (e.code === 4400 || (e.code === 1009 && !S.wsOpen)) {
      // refused (its error came first and was shown; else no reason came), or the auth
      // message was too big to be read at all (1009): retrying cannot help
      abandon();
      showRefused(e.code === 1009 ? "key" : refusalKind(null));
      return;
    }
    connectionFailed(ws);
  };
}

/** Leave the current socket without waiting for it: Chromium delays a close while offline. */
function abandon() {
  clearTimeout(S.connectTimer);
  clearInterval(S.pingTimer);
  const ws = S.ws;
  S.ws = null;
  S.wsOpen = false;
  S.pingSentAt = null;
  if (!ws) return;
  ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
  try { ws.close(); } catch { /* already closed */ }
}

/** The socket `ws` is dead (or never came alive): show it, keep the move, try again. */
function connectionFailed(ws) {
  if (ws !== S.ws || !S.gameId) return;
  abandon();
  if (S.pending) { // it may or may not have reached the server: the sync on return tells
    S.queued = S.pending;
    S.pending = null;
  }
  if (!S.lost) {
    S.lost = true;
    render();
  }
  showConnection();
  scheduleReconnect();
}

function scheduleReconnect() {
  clearTimeout(S.reconnectTimer);
  // offline: wait for the browser's online event, but try now and then in case it never comes
  const delay = navigator.onLine === false ? 5000 : BACKOFF[Math.min(S.retry, BACKOFF.length - 1)];
  S.retry += 1;
  S.reconnectTimer = setTimeout(connect, delay);
}

export function closeSocket() {
  clearTimeout(S.reconnectTimer);
  S.stageRun += 1; // a staging in progress stops
  S.staging = false;
  S.shown = null;
  S.onScreen = null;
  S.ownShownAt = null;
  S.pending = null;
  S.queued = null;
  S.lost = false;
  S.retry = 0;
  abandon();
  $("#conn").hidden = true;
}

/** The banner: lost (with the move waiting, if any), back, or nothing. */
export function showConnection() {
  const banner = $("#conn");
  clearTimeout(S.bannerTimer);
  if (S.lost) {
    banner.hidden = false;
    banner.className = "conn lost";
    const offline = navigator.onLine === false ? "You are offline" : "Connection lost";
    const waiting = S.queued ? ` Your move (${moveText(S.queued.action)}) waits and is sent when it is back.` : "";
    banner.textContent = `${offline}. Reconnecting…${waiting}`;
    return;
  }
  if (!banner.hidden) {
    banner.textContent = "Reconnected.";
    banner.className = "conn ok";
    S.bannerTimer = setTimeout(() => { if (!S.lost) banner.hidden = true; }, 1200);
  }
}

function startHeartbeat(ws) {
  clearInterval(S.pingTimer);
  S.lastHeard = performance.now();
  S.pingSentAt = null;
  S.pingTimer = setInterval(() => {
    if (S.ws !== ws) return;
    const now = performance.now();
    if (S.pingSentAt !== null) {
      if (now - S.pingSentAt > (S.pending ? SILENCE_ACTING : SILENCE)) connectionFailed(ws);
      return;
    }
    if (now - S.lastHeard < PING_AFTER) return;
    try { ws.send(JSON.stringify({ type: "ping" })); } catch { connectionFailed(ws); return; }
    S.pingSentAt = now;
  }, 250);
}

function onMessage(msg) {
  if (msg.type === "hello") {
    clearTimeout(S.connectTimer);
    const back = S.lost;
    S.wsOpen = true;
    S.lost = false;
    S.retry = 0;
    S.seat = msg.seat;
    startHeartbeat(S.ws);
    showConnection();
    if (back) renderHintButton(); // a hint may be asked again
    // a game's own address (not its watch link) opened by a browser that holds neither
    // seat (another player's browser, or a key that is not this game's): it watches
    if (msg.seat === null) setStatus(S.watching ? "You are watching this game." : "You are watching this game: this browser holds neither of its seats.");
    else if (!S.queued) setStatus(""); // "Connecting…", or a message from before the loss
    if (S.view) {
      // back after a loss: ask what was missed (and learn whether a waiting move got there)
      S.ws.send(JSON.stringify({ type: "sync", since: S.queued ? S.queued.version : S.view.version }));
    } else {
      receiveView(msg.view);
    }
    if (document.body.dataset.page === "table") showWatching(S.view);
  } else if (msg.type === "view") {
    receiveView(msg.view);
  } else if (msg.type === "sync") {
    const settled = settleQueued(msg.events || [], msg.view);
    receiveView(msg.view);
    if (settled) settled();
  } else if (msg.type === "pong") {
    // heard: the heartbeat is satisfied
  } else if (msg.type === "presence") {
    S.presence = msg.connected;
    renderPresence();
  } else if (msg.type === "error") {
    if (msg.code === "service/no-game" && !S.wsOpen) { // the socket is closed after this
      abandon();
      showNoGame("missing");
      return;
    }
    if (!S.wsOpen && msg.code !== "ws/too-many-connections") {
      // the table is refused before its hello, and the socket closed after this (code
      // 4400). Back after a loss, a store away for a moment is one more lost connection
      // (the close is taken as a failure, and the page reconnects with backoff).
      if (msg.code === "service/unavailable" && S.view) {
        const ws = S.ws;
        ws.onclose = () => connectionFailed(ws);
        return;
      }
      abandon();
      showRefused(refusalKind(msg.code));
      return;
    }
    const mine = S.pending;
    S.pending = null;
    if (msg.code === "service/stale" && mine && mine.resent && S.ws && S.wsOpen) {
      // a move sent again after a loss found the game moved on: perhaps its first copy got
      // there after all; the sync says
      S.queued = mine;
      S.ws.send(JSON.stringify({ type: "sync", since: mine.version }));
      return;
    }
    rollBack(); // the move drawn ahead of the answer goes back where it was
    sound.play("error");
    setStatus(msg.message, true);
    if (msg.code === "service/stale" && S.ws && S.wsOpen) {
      // the table was behind: fetch what it missed (the refusal's reason stays in view)
      S.holdStatus = true;
      S.ws.send(JSON.stringify({ type: "sync", since: S.view ? S.view.version : 0 }));
    }
    render();
  }
}

/**
 * After a sync: what became of the move that waited (S.queued). It reached the server (the
 * first event after its version is it), or the game is where it was made (send it now), or
 * the game moved on without it (say so). Returns what to do once the view is drawn.
 */
function settleQueued(events, view) {
  const q = S.queued;
  if (!q) return null;
  S.queued = null;
  const first = events.find((e) => e.version > q.version);
  if (first && first.version === q.version + 1 && first.seat === S.seat && first.action === q.action) {
    return () => setStatus(`Your move (${moveText(q.action)}) was played.`);
  }
  if (view.version === q.version && view.hand.to_act === S.seat && view.hand.legal_actions.includes(q.action)) {
    return () => sendNow(q.action, q.version, true);
  }
  return () => setStatus(`Your move (${moveText(q.action)}) was not played: the game moved on meanwhile.`, true);
}

/**
 * Make a move. Connected: it is sent with the version it was made at. Connection lost: it
 * waits (shown as waiting; Esc cancels it) and is sent when the table is back, if the game
 * is still where it was. Returns whether the move was taken.
 */
export function send(action) {
  if (S.pending || S.queued) return false;
  const version = S.view ? S.view.version : undefined;
  if (S.lost || !S.wsOpen || !S.ws) {
    S.queued = { action, version };
    S.mode = null;
    S.hint = null;
    $("#hint-text").hidden = true;
    setStatus(`Waiting for the connection: your move (${moveText(action)}) is sent when it is back. Esc cancels it.`, true);
    showConnection();
    render();
    return true;
  }
  sendNow(action, version, false);
  setStatus(""); // an older message no longer applies
  S.selected = null;
  S.mode = null;
  S.hint = null;
  $("#hint-text").hidden = true;
  if (action !== "claim") showOwnMove(action); // drawn at once; the answer confirms it
  const kind = action.split(" ")[0];
  if (["stock", "pile", "take"].includes(kind)) sound.play("draw");
  else if (kind === "discard") sound.play("discard");
  else if (kind === "knock") sound.play("knock");
  else if (kind === "pass") sound.play("pass");
  return true;
}

function sendNow(action, version, resent) {
  S.pending = { action, version, resent };
  // the version the move was made at: the server refuses it (service/stale) if the game
  // has moved on meanwhile, instead of applying a late message to a later turn
  S.ws.send(JSON.stringify({ type: "action", action, version }));
  if (resent) {
    S.selected = null;
    setStatus(`Your move (${moveText(action)}) is sent.`);
    render();
  }
}

/** Esc while a move waits for the connection: forget it. */
export function cancelQueued() {
  if (!S.queued) return false;
  S.queued = null;
  S.selected = null;
  setStatus("The waiting move is cancelled.");
  showConnection();
  render();
  return true;
}

export function initNet() {
  window.addEventListener("offline", () => {
    if (S.ws) connectionFailed(S.ws);
    else if (S.lost) { showConnection(); renderHintButton(); } // now it says offline
  });
  window.addEventListener("online", () => {
    if (!S.gameId || !S.lost || document.body.dataset.page !== "table") return;
    S.retry = 0;
    abandon(); // an attempt made while offline may hang: start afresh
    showConnection();
    connect(); // at once, not at the end of the backoff
  });
}
