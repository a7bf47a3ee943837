// The felt table: lobby, table, end-of-hand and end-of-game screens, history and replay.
// The server is the authority: this page sends actions in the engine's notation and draws
// the view its seat receives (docs/protocol.md). It never sees the opponent's hidden cards.

import { cardBack, cardFace, cardName, cardText, sortKey } from "./cards.js";
import { verifyHand } from "./fairness.js";
import { handFrames } from "./replay.js";
import * as sound from "./sound.js";

const $ = (sel) => document.querySelector(sel);
const store = {
  get: (k, d = null) => localStorage.getItem(`gr.${k}`) ?? d,
  set: (k, v) => localStorage.setItem(`gr.${k}`, v),
  json: (k, d) => { try { return JSON.parse(localStorage.getItem(`gr.${k}`)) ?? d; } catch { return d; } },
  setJson: (k, v) => localStorage.setItem(`gr.${k}`, JSON.stringify(v)),
};

const KIND_TITLE = { knock: "Knock", undercut: "Undercut!", gin: "Gin!", "big-gin": "Big Gin!", void: "Void hand" };

const S = {
  gameId: null,
  seat: null,
  view: null,
  ws: null,
  wsOpen: false,
  retry: 0,
  reconnectTimer: null,
  pingTimer: null,
  pongDue: null,
  selected: null,
  mode: null, // "knock" | "gin" while choosing the card to end with
  focusCard: null,
  customOrder: null,
  pending: null, // the action sent and not yet answered
  timerEnd: null, // performance.now() when the turn timer runs out (null: no timer runs)
  lastActionAt: 0,
  endQueue: [],
  showingEnd: null,
  hint: null,
  presence: [true, true],
  renderTimer: null,
};

// ---------------------------------------------------------------------------------------
// The player: a token kept in this browser stands for them in all their games.

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.get("player");
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const detail = data && data.detail;
    const message = (detail && detail.message) || (typeof detail === "string" ? detail : null) || `${res.status} ${res.statusText}`;
    const error = new Error(message);
    error.code = detail && detail.code;
    error.status = res.status;
    throw error;
  }
  return data;
}

async function ensurePlayer() {
  if (store.get("player")) return;
  const name = store.get("name") || null;
  const made = await api("POST", "/api/players", { name });
  store.set("player", made.token);
}

// ---------------------------------------------------------------------------------------
// Pages

function showPage(id) {
  for (const page of document.querySelectorAll(".page")) page.hidden = page.id !== id;
  document.body.dataset.page = id;
}

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  route();
}

async function route() {
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
  if ((m = path.match(/^\/game\/([0-9a-f]+)$/))) return openGame(m[1]);
  if ((m = path.match(/^\/join\/([0-9a-f]+)$/))) return joinGame(m[1]);
  if ((m = path.match(/^\/replay\/([0-9a-f]+)$/))) return openReplay(m[1]);
  if (path === "/history") return openHistory();
  return openLobby();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[href^='/']");
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
window.addEventListener("resize", () => { if (S.view && document.body.dataset.page === "table") render(); });

// ---------------------------------------------------------------------------------------
// Lobby

function gameLine(g) {
  const me = g.seat, opp = 1 - g.seat;
  const oppName = g.names[opp] || (g.ai_level ? `AI (${g.ai_level})` : "waiting for a player");
  const score = `${g.points[me]} – ${g.points[opp]}`;
  let outcome = "";
  if (g.finished) outcome = g.winner === null ? " · drawn" : g.winner === me ? " · you won" : " · you lost";
  return `vs ${oppName} · ${g.rules} · ${score}${outcome}`;
}

async function openLobby() {
  showPage("lobby");
  document.title = "Gin Rummy";
  $("#name").value = store.get("name", "");
  $("#level").value = store.get("level", "normal");
  $("#preset").value = store.get("preset", "tournament");
  $("#game-target").value = store.get("target", "");
  $("#oklahoma").checked = store.get("oklahoma") === "1";
  $("#turn-seconds").value = store.get("turnSeconds", "");
  $("#invite-box").hidden = true;
  $("#lobby-error").textContent = "";
  try {
    const games = await api("GET", "/api/players/me/games");
    const open = games.filter((g) => !g.finished).reverse();
    const done = games.filter((g) => g.finished).reverse();
    fillList($("#open-games"), open, (g) => [`/game/${g.game_id}`, `Resume: ${gameLine(g)}`]);
    fillList($("#finished-games"), done.slice(0, 10), (g) => [`/replay/${g.game_id}`, `Replay: ${gameLine(g)}`]);
  } catch (e) {
    if (e.code === "service/bad-player") { localStorage.removeItem("gr.player"); return route(); }
    $("#lobby-error").textContent = e.message;
  }
}

function fillList(ul, items, line) {
  ul.replaceChildren();
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "None yet.";
    ul.append(li);
  }
  for (const item of items) {
    const [href, text] = line(item);
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    li.append(a);
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

async function joinGame(gameId) {
  const invite = location.hash.slice(1);
  showPage("join");
  document.title = "Gin Rummy: join a game";
  $("#join-error").textContent = invite ? "" : "This invite link has no invite in it: ask for the link again.";
  $("#join-go").disabled = !invite;
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
  $("#join-name").focus();
  try {
    const view = await api("GET", `/api/games/${gameId}`);
    const host = view.names.find((n) => n) || "A player";
    $("#join-rules").textContent = `${host} invites you: ${view.rules.name} rules, to ${view.rules.target} points.`;
  } catch (e) {
    $("#join-error").textContent = `No such game: ${e.message}`;
    $("#join-go").disabled = true;
  }
}

// ---------------------------------------------------------------------------------------
// The table: connection

function openGame(gameId) {
  S.gameId = gameId;
  S.view = null;
  S.seat = null;
  S.selected = null;
  S.mode = null;
  S.hint = null;
  S.endQueue = [];
  S.showingEnd = null;
  S.customOrder = store.json(`order.${gameId}`, null);
  showPage("table");
  document.title = "Gin Rummy: table";
  $("#hand").replaceChildren();
  $("#opp-hand").replaceChildren();
  $("#log").replaceChildren();
  setStatus("Connecting…");
  connect();
}

function connect() {
  clearTimeout(S.reconnectTimer);
  const gameId = S.gameId;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${gameId}`);
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: store.get("player") }));
  ws.onmessage = (e) => {
    if (S.ws !== ws) return;
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    if (e.code === 4400) { // refused (no such game, bad auth): retrying cannot help
      S.ws = null;
      S.wsOpen = false;
      clearInterval(S.pingTimer);
      return;
    }
    S.wsOpen = false;
    S.pending = null;
    clearInterval(S.pingTimer);
    showConnection(false);
    const delay = Math.min(5000, 300 * 2 ** S.retry);
    S.retry += 1;
    S.reconnectTimer = setTimeout(connect, delay);
  };
}

function closeSocket() {
  clearTimeout(S.reconnectTimer);
  clearTimeout(S.renderTimer);
  S.renderTimer = null;
  S.pending = null;
  clearInterval(S.pingTimer);
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.onclose = null;
    try { ws.close(); } catch { /* already closed */ }
  }
  S.wsOpen = false;
  $("#conn").hidden = true;
}

function showConnection(ok) {
  const banner = $("#conn");
  if (ok) {
    if (!banner.hidden) {
      banner.textContent = "Reconnected.";
      banner.className = "conn ok";
      setTimeout(() => { if (S.wsOpen) banner.hidden = true; }, 1500);
    }
    return;
  }
  banner.hidden = false;
  banner.className = "conn lost";
  banner.textContent = "Connection lost. Reconnecting…";
}

function startPing(ws) {
  clearInterval(S.pingTimer);
  S.pingTimer = setInterval(() => {
    if (S.ws !== ws) return;
    if (S.pongDue && Date.now() > S.pongDue) { ws.close(); return; }
    try { ws.send(JSON.stringify({ type: "ping" })); } catch { return; }
    if (!S.pongDue) S.pongDue = Date.now() + 8000;
  }, 10000);
}

function onMessage(msg) {
  if (msg.type === "hello") {
    S.wsOpen = true;
    S.retry = 0;
    S.seat = msg.seat;
    S.pongDue = null;
    startPing(S.ws);
    showConnection(true);
    setStatus(msg.seat === null ? "You are watching: this browser holds no seat in this game." : "");
    receiveView(msg.view);
  } else if (msg.type === "view") {
    receiveView(msg.view);
  } else if (msg.type === "sync") {
    receiveView(msg.view);
  } else if (msg.type === "pong") {
    S.pongDue = null;
  } else if (msg.type === "presence") {
    S.presence = msg.connected;
    renderPresence();
  } else if (msg.type === "error") {
    S.pending = null;
    sound.play("error");
    setStatus(msg.message, true);
    if (msg.code === "service/stale" && S.ws && S.wsOpen) {
      // the table was behind: fetch what it missed
      S.ws.send(JSON.stringify({ type: "sync", since: S.view ? S.view.version : 0 }));
    }
    render();
  }
}

function send(action) {
  if (!S.wsOpen || !S.ws) {
    setStatus("Not connected: wait for the table to reconnect.", true);
    return false;
  }
  if (S.pending) return false;
  S.pending = action;
  S.lastActionAt = performance.now();
  // the version the move was made at: the server refuses it (service/stale) if the game
  // has moved on meanwhile, instead of applying a late message to a later turn
  const version = S.view ? S.view.version : undefined;
  S.ws.send(JSON.stringify({ type: "action", action, version }));
  S.selected = null;
  S.mode = null;
  S.hint = null;
  $("#hint-text").hidden = true;
  const kind = action.split(" ")[0];
  if (["stock", "pile", "take"].includes(kind)) sound.play("draw");
  else if (kind === "discard") sound.play("discard");
  else if (kind === "knock") sound.play("knock");
  else if (kind === "pass") sound.play("pass");
  return true;
}

// ---------------------------------------------------------------------------------------
// The table: receiving views

function receiveView(view) {
  const old = S.view;
  const receivedAt = performance.now();
  // Pace the opponent's moves: a reply that arrives at once is shown after a short beat.
  const since = performance.now() - S.lastActionAt;
  const theirMove = old && view.version > old.version && lastMover(view) !== S.seat;
  const wait = theirMove && since < 550 && !reducedMotion() ? 550 - since : 0;
  clearTimeout(S.renderTimer);
  S.renderTimer = null;
  const gameId = S.gameId;
  const apply = () => {
    S.renderTimer = null;
    if (gameId !== S.gameId || view.game_id !== S.gameId) return; // the page left that game
    S.pending = null;
    if (old && view.version !== old.version) setStatus("");
    S.view = view;
    // the turn timer counts down from what was left when the server sent the view
    const left = view.timer ? view.timer.seconds_left : null;
    S.timerEnd = left === null ? null : receivedAt + left * 1000;
    rememberDeal(view);
    noteEvents(old, view);
    queueHandEnds(view);
    render(old);
  };
  if (wait > 0) S.renderTimer = setTimeout(apply, wait); else apply();
}

function lastMover(view) {
  const h = view.hand.history;
  return h.length ? h[h.length - 1].seat : null;
}

function rememberDeal(view) {
  // What this browser saw at the deal, to check against the seed when it is revealed.
  if (S.seat === null) return;
  const n = view.hand.hand_number;
  const key = `deal.${view.game_id}.${n}`;
  const fair = view.fairness.find((f) => f.hand === n);
  if (!fair || store.get(key)) return;
  const acted = view.hand.history.some((e) => e.seat === S.seat && e.action !== "pass");
  store.setJson(key, { commitment: fair.commitment, hand: acted || view.hand.result ? null : view.hand.hand.slice() });
}

function describe(event, view) {
  const text = describeAction(event, view);
  return event.by === "timer" ? `${text.slice(0, -1)} (time ran out: played by the timer).` : text;
}

function describeAction(event, view) {
  const who = event.seat === S.seat ? "You" : view.names[event.seat] || "Opponent";
  const [kind, card] = event.action.split(" ");
  const c = card ? cardText(card) : event.card ? cardText(event.card) : "";
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

function noteEvents(old, view) {
  const log = $("#log");
  let fresh = view.hand.history;
  if (old && old.hand.hand_number === view.hand.hand_number) fresh = fresh.slice(old.hand.history.length);
  else if (old || !log.childElementCount) {
    const dealer = view.hand.dealer === S.seat ? "you deal" : `${view.names[view.hand.dealer] || "the dealer"} deals`;
    addLog(`Hand ${view.hand.hand_number}: ${dealer}.`);
    if (old) sound.play("deal");
  }
  for (const e of fresh) addLog(describe(e, view));
  if (old && fresh.some((e) => e.seat !== S.seat && ["discard", "stock", "pile", "take"].includes(e.action.split(" ")[0]))) sound.play("discard");
}

function addLog(text) {
  const log = $("#log");
  const p = document.createElement("p");
  p.textContent = text;
  log.append(p);
  while (log.childElementCount > 40) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------------------------------
// The table: drawing it

function legal() {
  const v = S.view;
  // nothing is legal while an action is on its way or the answer is not yet on screen
  const settled = !S.pending && !S.renderTimer;
  const actions = settled && v && S.seat !== null && v.hand.to_act === S.seat ? v.hand.legal_actions : [];
  const set = (kind) => new Set(actions.filter((a) => a.startsWith(`${kind} `)).map((a) => a.split(" ")[1]));
  return {
    any: actions.length > 0,
    take: actions.includes("take"),
    pass: actions.includes("pass"),
    stock: actions.includes("stock"),
    pile: actions.includes("pile"),
    bigGin: actions.includes("big-gin"),
    discard: set("discard"),
    knock: set("knock"),
    gin: set("gin"),
  };
}

function bySuit() { return store.get("sort", "rank") === "suit"; }
function customSort() { return store.get("sort", "rank") === "custom"; }

/** The hand in display order, as groups: `[{meld: bool, cards: [...]}, ...]`. */
function handGroups(view) {
  const cards = view.hand.hand;
  const arr = view.hand.arrangement || { melds: [], deadwood: cards };
  const meldOf = new Map();
  arr.melds.forEach((m, i) => m.forEach((c) => meldOf.set(c, i)));
  if (customSort() && S.customOrder) {
    const known = S.customOrder.filter((c) => cards.includes(c));
    const order = known.concat(cards.filter((c) => !known.includes(c)));
    return order.map((c) => ({ meld: false, meldIndex: meldOf.get(c), cards: [c] }));
  }
  const key = (c) => sortKey(c, bySuit());
  const melds = arr.melds.map((m) => m.slice().sort((a, b) => key(a) - key(b)));
  melds.sort((a, b) => key(a[0]) - key(b[0]));
  const groups = melds.map((m, i) => ({ meld: true, meldIndex: i, cards: m }));
  const dead = arr.deadwood.slice().sort((a, b) => key(a) - key(b));
  for (const c of dead) groups.push({ meld: false, cards: [c] });
  return groups;
}

function cardButton(card, opts = {}) {
  const el = document.createElement(opts.tag || "button");
  if (el.tagName === "BUTTON") el.type = "button";
  el.className = "card";
  el.dataset.card = card;
  el.innerHTML = cardFace(card, document.body.classList.contains("four-colour"));
  el.setAttribute("aria-label", opts.label || cardName(card));
  return el;
}

function backCard() {
  const el = document.createElement("span");
  el.className = "card back";
  el.innerHTML = cardBack();
  return el;
}

function snapshot() {
  const rects = new Map();
  for (const el of document.querySelectorAll("#table [data-card]")) rects.set(el.dataset.card, el.getBoundingClientRect());
  return rects;
}

function animateFrom(el, from, delay = 0) {
  if (reducedMotion() || !from) return;
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: 320, delay, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards" },
  );
}

function reducedMotion() {
  return document.body.classList.contains("reduce-motion") || matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function render(old) {
  const v = S.view;
  if (!v || document.body.dataset.page !== "table") return;
  const hadFocus = $("#hand").contains(document.activeElement);
  const focusIndex = [...$("#hand").querySelectorAll(".card")].indexOf(document.activeElement);
  const before = snapshot();
  const stockRect = $("#stock").getBoundingClientRect();
  const oppRect = $("#opp-hand").getBoundingClientRect();
  const me = S.seat ?? 0, opp = 1 - me;
  const h = v.hand;
  const L = legal();

  // scoreboard
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
  $("#opp-name").textContent = seatName(v, opp);
  $("#my-name").textContent = S.seat === null ? seatName(v, me) : "You";

  // opponent: face down, with the cards known from the pile shown
  const oppHand = $("#opp-hand");
  oppHand.replaceChildren();
  const known = h.known_cards[opp] || [];
  const shownOpp = h.result ? h.result.hands[opp] : known;
  for (let i = 0; i < h.hand_sizes[opp]; i++) {
    let el;
    if (i < shownOpp.length) {
      el = cardButton(shownOpp[i], { tag: "span", label: `${cardName(shownOpp[i])}, known to be in their hand` });
      el.classList.add("known");
    } else {
      el = backCard();
      el.setAttribute("aria-label", "a hidden card");
    }
    el.setAttribute("role", "listitem");
    oppHand.append(el);
  }
  oppHand.setAttribute("aria-label", `Opponent's hand: ${h.hand_sizes[opp]} cards${known.length ? `, known: ${known.map(cardName).join(", ")}` : ""}`);

  // stock and pile
  const stock = $("#stock");
  stock.querySelector(".count").textContent = h.stock_size;
  stock.style.setProperty("--depth", Math.min(8, Math.ceil(h.stock_size / 4)));
  stock.querySelector(".stack").innerHTML = h.stock_size ? cardBack() : "";
  stock.disabled = !L.stock;
  stock.classList.toggle("can", L.stock);
  stock.setAttribute("aria-label", `Stock, ${h.stock_size} cards${L.stock ? ": press to draw (T)" : ""}`);
  const pile = $("#pile");
  const pileCards = $("#pile-cards");
  pileCards.replaceChildren();
  const shown = h.discard_pile.slice(-4);
  shown.forEach((c, i) => {
    const el = cardButton(c, { tag: "span" });
    el.style.setProperty("--i", i - shown.length + 1);
    pileCards.append(el);
  });
  const top = h.discard_pile[h.discard_pile.length - 1];
  const canDrawPile = L.pile || L.take;
  pile.classList.toggle("can", canDrawPile || (L.discard.size > 0));
  pile.setAttribute("aria-label", `Discard pile${top ? `, top card ${cardName(top)}` : ", empty"}${canDrawPile ? ": press to take it (D)" : ""}`);

  // my hand
  const hand = $("#hand");
  hand.replaceChildren();
  if (S.seat !== null) {
    const groups = handGroups(v);
    const drawn = newestDraw(h);
    for (const g of groups) {
      const parent = g.meld ? document.createElement("div") : hand;
      if (g.meld) {
        parent.className = "meld-group";
        parent.setAttribute("role", "group");
        parent.setAttribute("aria-label", `meld: ${g.cards.map(cardName).join(", ")}`);
        hand.append(parent);
      }
      for (const c of g.cards) {
        const inMeld = g.meld || g.meldIndex !== undefined;
        const el = cardButton(c, { label: `${cardName(c)}${inMeld ? ", in a meld" : ", deadwood"}` });
        el.setAttribute("role", "option");
        el.setAttribute("aria-selected", String(S.selected === c));
        el.classList.toggle("selected", S.selected === c);
        el.classList.toggle("deadwood-card", !inMeld);
        if (!g.meld && g.meldIndex !== undefined) el.dataset.meld = g.meldIndex % 4;
        if (c === drawn) el.classList.add("drawn");
        if (S.mode === "knock") el.classList.toggle("choosable", L.knock.has(c));
        if (S.mode === "gin") el.classList.toggle("choosable", L.gin.has(c));
        if (S.hint && S.hint.card === c) el.classList.add("hinted");
        el.tabIndex = -1;
        parent.append(el);
      }
    }
    fitHand(hand);
    const cards = [...hand.querySelectorAll(".card")];
    const focus = cards.find((el) => el.dataset.card === (S.focusCard || S.selected))
      || cards[Math.min(Math.max(focusIndex, 0), cards.length - 1)];
    if (focus) {
      focus.tabIndex = 0;
      if (hadFocus) focus.focus({ preventScroll: true }); // keyboard players keep their place
    }
    hand.setAttribute("aria-label", `Your hand, ${cards.length} cards`);
  }

  // deadwood
  const arr = h.arrangement;
  let dw = "";
  if (arr) {
    dw = `Deadwood ${arr.deadwood_points}`;
    if (arr.deadwood_after_discard !== undefined) dw += ` · ${arr.deadwood_after_discard} after your best discard`;
    if (arr.deadwood_points === 0) dw = "Deadwood 0: all melded";
  } else if (S.seat !== null && h.result) {
    dw = `Deadwood ${h.result.deadwood[S.seat]}`;
  }
  $("#deadwood").textContent = dw;

  // buttons
  $("#btn-take").hidden = !L.take;
  $("#btn-pass").hidden = !L.pass;
  $("#btn-knock").disabled = L.knock.size === 0;
  $("#btn-knock").classList.toggle("lit", L.knock.size > 0);
  $("#btn-gin").disabled = L.gin.size === 0;
  $("#btn-gin").classList.toggle("lit", L.gin.size > 0);
  $("#btn-big-gin").hidden = !L.bigGin;
  $("#btn-big-gin").classList.toggle("lit", L.bigGin);
  $("#btn-hint").hidden = !v.ai_level || S.seat === null;
  $("#btn-hint").disabled = !L.any;
  const sortMode = store.get("sort", "rank");
  const sortBtn = $("#btn-sort");
  sortBtn.firstChild.textContent = sortMode === "suit" ? "By rank " : "By suit ";
  sortBtn.setAttribute("aria-label", sortMode === "suit" ? "Sort by rank" : "Sort by suit");
  sortBtn.dataset.sort = sortMode;

  // turn
  $("#turn").textContent = turnText(v, L);
  renderTimer();
  $("#btn-claim").hidden = !(v.timer && v.timer.can_claim);
  const invite = S.seat !== null && !v.names[opp] ? store.get(`invite.${v.game_id}`) : null;
  $("#invite-reminder").hidden = !invite;
  $("#invite-reminder-link").textContent = invite || "";
  document.body.dataset.version = v.version;
  document.body.dataset.hand = h.hand_number;
  document.body.classList.toggle("my-turn", L.any);
  renderPresence();

  // animate what moved; a new deal comes off the stock card by card
  const drawSeat = lastMover(v);
  const newDeal = old && old.hand.hand_number !== h.hand_number;
  let dealt = 0;
  for (const el of document.querySelectorAll("#table [data-card]")) {
    if (newDeal && el.closest("#hand")) { animateFrom(el, stockRect, 45 * dealt++); continue; }
    let from = before.get(el.dataset.card);
    if (!from && old) {
      if (el.closest("#hand")) from = stockRect;
      else if (el.closest("#pile") && drawSeat !== S.seat) from = oppRect;
      else if (el.closest("#opp-hand")) from = before.get(el.dataset.card) || $("#pile").getBoundingClientRect();
    }
    animateFrom(el, from);
  }
  maybeShowEnd();
}

/** Overlap the hand's cards just enough for it to fit its row (phones, large cards). */
function fitHand(hand) {
  hand.style.removeProperty("--overlap");
  const cards = [...hand.querySelectorAll(".card")];
  if (cards.length < 2) return;
  const width = cards[0].getBoundingClientRect().width;
  let overlap = parseFloat(getComputedStyle(hand).getPropertyValue("--overlap")) || -0.18;
  const span = () => cards[cards.length - 1].getBoundingClientRect().right - cards[0].getBoundingClientRect().left;
  const style = getComputedStyle(hand);
  const room = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
  for (let i = 0; i < 3; i++) { // each step removes the measured excess from the overlaps
    const excess = span() + hand.querySelectorAll(".meld-group").length * 12 - room;
    if (excess <= 0 || overlap <= -0.8) return;
    overlap = Math.max(-0.8, overlap - excess / ((cards.length - 1) * width));
    hand.style.setProperty("--overlap", overlap.toFixed(4));
  }
}

function newestDraw(h) {
  for (let i = h.history.length - 1; i >= 0; i--) {
    const e = h.history[i];
    if (e.seat !== S.seat) continue;
    if (["stock", "pile", "take"].includes(e.action) && h.hand.length === 11) return e.card;
    return null;
  }
  return null;
}

function seatName(v, seat) {
  if (seat === S.seat) return v.names[seat] || "You";
  return v.names[seat] || "Waiting for a player…";
}

function turnText(v, L) {
  if (v.is_over) return v.claimed_by === null ? "The game is over." : `${seatName(v, v.claimed_by)} claimed the game.`;
  const h = v.hand;
  const opp = 1 - (S.seat ?? 0);
  if (S.seat !== null && !v.names[opp]) {
    return "Waiting for your opponent to open the invite link…";
  }
  if (!L.any) return `${seatName(v, h.to_act)} to play…`;
  if (S.mode === "knock") return "Knock: choose the card to discard face down (Esc cancels).";
  if (S.mode === "gin") return "Gin: choose the card to discard (Esc cancels).";
  if (L.take) return `Your turn: take the upcard ${cardText(h.upcard)} or pass.`;
  if (L.stock && L.pile) return "Your turn: draw from the stock or the pile.";
  if (L.stock) return "Your turn: draw from the stock.";
  if (L.bigGin) return "Big Gin is yours: all eleven cards meld!";
  if (L.gin.size) return "Your turn: discard, or go gin!";
  if (L.knock.size) return "Your turn: discard, or knock.";
  return "Your turn: discard a card (select it, then click it again or drag it to the pile).";
}

/** The turn timer's countdown: whose turn and the time left (hidden when no timer runs). */
function renderTimer() {
  const el = $("#turn-timer");
  const v = S.view;
  if (!v || !v.timer || S.timerEnd === null || v.is_over || !v.hand) {
    el.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((S.timerEnd - performance.now()) / 1000));
  const whose = v.hand.to_act === S.seat ? "Your time" : `${seatName(v, v.hand.to_act)}'s time`;
  const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const missed = v.timer.timeouts[v.hand.to_act];
  el.textContent = `${whose}: ${clock} left${missed ? ` · timed out ${missed} in a row` : ""}`;
  el.classList.toggle("low", left <= 10);
  el.hidden = false;
}
setInterval(renderTimer, 250);

$("#btn-claim").addEventListener("click", () => send("claim"));

function renderPresence() {
  const v = S.view;
  if (!v) return;
  const opp = 1 - (S.seat ?? 0);
  const el = $("#opp-presence");
  if (v.ai_level || !v.names[opp]) { el.textContent = ""; return; }
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

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function setStatus(text, isError = false) {
  const el = $("#status");
  el.textContent = text;
  el.classList.toggle("error", isError);
}

// ---------------------------------------------------------------------------------------
// The table: playing

function drawStock() {
  const L = legal();
  if (L.stock) send("stock");
  else if (L.take) setStatus("Take the upcard or pass first.", true);
}

function drawPile() {
  const L = legal();
  if (L.take) send("take");
  else if (L.pile) send("pile");
}

function discardCard(card) {
  const L = legal();
  if (S.mode === "knock" && L.knock.has(card)) return send(`knock ${card}`);
  if (S.mode === "gin" && L.gin.has(card)) return send(`gin ${card}`);
  if (L.discard.has(card)) return send(`discard ${card}`);
  if (L.discard.size) {
    setStatus(`You cannot discard ${cardText(card)}: you just took it from the pile.`, true);
    sound.play("error");
  } else if (L.any) {
    setStatus("Draw first: from the stock (T) or the pile (D).", true);
  }
  return false;
}

function clickCard(card) {
  S.focusCard = card;
  const L = legal();
  const inMode = (S.mode === "knock" && L.knock.has(card)) || (S.mode === "gin" && L.gin.has(card));
  if (S.selected === card || inMode) {
    if (!discardCard(card)) render();
    return;
  }
  S.selected = card;
  render();
  if (L.discard.size) setStatus(`${cardText(card)} selected: click it again or drag it to the pile to discard.`);
}

function knock() {
  const L = legal();
  if (!L.knock.size) return;
  if (S.selected && L.knock.has(S.selected)) { send(`knock ${S.selected}`); return; }
  if (S.selected) setStatus(`Knocking by discarding ${cardText(S.selected)} is not allowed: choose a highlighted card.`, true);
  else if (L.knock.size === 1) { send(`knock ${[...L.knock][0]}`); return; }
  S.mode = S.mode === "knock" ? null : "knock";
  render();
}

function gin() {
  const L = legal();
  if (!L.gin.size) return;
  if (S.selected && L.gin.has(S.selected)) { send(`gin ${S.selected}`); return; }
  if (S.selected) setStatus(`Discarding ${cardText(S.selected)} is not gin: choose a highlighted card.`, true);
  else if (L.gin.size === 1) { send(`gin ${[...L.gin][0]}`); return; }
  S.mode = S.mode === "gin" ? null : "gin";
  render();
}

async function showHint() {
  if (!S.view || !legal().any || S.hintPending) return;
  const asked = S.view.version;
  S.hintPending = true;
  const box = $("#hint-text");
  box.hidden = false;
  box.textContent = "Thinking…";
  try {
    const h = await api("GET", `/api/games/${S.gameId}/hint`);
    if (!S.view || S.view.version !== asked) return; // the position moved on meanwhile
    const [, card] = h.action.split(" ");
    S.hint = { ...h, card };
    box.textContent = `Hint: ${h.reason}`;
    render();
  } catch (e) {
    box.textContent = `No hint: ${e.message}`;
  } finally {
    S.hintPending = false;
  }
}

function toggleSort() {
  const mode = store.get("sort", "rank");
  store.set("sort", mode === "suit" ? "rank" : "suit");
  S.customOrder = null;
  localStorage.removeItem(`gr.order.${S.gameId}`);
  render();
}

function moveCard(card, target, after) {
  // Manual reorder: the hand keeps this order (until a sort is chosen again).
  const order = [...document.querySelectorAll("#hand .card")].map((el) => el.dataset.card);
  const from = order.indexOf(card);
  if (from < 0) return;
  order.splice(from, 1);
  let to = target === null ? order.length : order.indexOf(target) + (after ? 1 : 0);
  if (to < 0) to = order.length;
  order.splice(to, 0, card);
  S.customOrder = order;
  store.setJson(`order.${S.gameId}`, order);
  store.set("sort", "custom");
  S.focusCard = card;
  render();
  focusHandCard(card);
}

function focusHandCard(card) {
  const el = document.querySelector(`#hand .card[data-card="${card}"]`);
  if (!el) return;
  for (const other of document.querySelectorAll("#hand .card")) other.tabIndex = -1;
  el.tabIndex = 0;
  el.focus();
}

$("#stock").addEventListener("click", drawStock);
$("#pile").addEventListener("click", () => {
  const L = legal();
  if (S.selected && L.discard.size) discardCard(S.selected);
  else drawPile();
});
$("#btn-take").addEventListener("click", () => send("take"));
$("#btn-pass").addEventListener("click", () => send("pass"));
$("#btn-knock").addEventListener("click", knock);
$("#btn-gin").addEventListener("click", gin);
$("#btn-big-gin").addEventListener("click", () => send("big-gin"));
$("#btn-hint").addEventListener("click", showHint);
$("#btn-sort").addEventListener("click", toggleSort);
$("#btn-scores").addEventListener("click", () => {
  const sheet = $("#score-sheet");
  sheet.hidden = !sheet.hidden;
  $("#btn-scores").setAttribute("aria-expanded", String(!sheet.hidden));
});

// A click with no pointer behind it (a screen reader's "activate") acts like Enter.
$("#hand").addEventListener("click", (e) => {
  const el = e.target.closest(".card");
  if (el && e.detail === 0 && !e.pointerType) clickCard(el.dataset.card);
});

// Pointer drag: a card dropped on the pile is discarded; dropped on another card, it moves
// there. A press without movement is a click.
let drag = null;
$("#hand").addEventListener("pointerdown", (e) => {
  const el = e.target.closest(".card");
  if (!el || e.button !== 0) return;
  drag = { el, card: el.dataset.card, x: e.clientX, y: e.clientY, ghost: null, pointer: e.pointerId };
});
document.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
  if (!drag.ghost && Math.hypot(dx, dy) < 8) return;
  if (!drag.ghost) {
    const r = drag.el.getBoundingClientRect();
    drag.ghost = drag.el.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.style.width = `${r.width}px`;
    drag.ghost.style.height = `${r.height}px`;
    drag.offset = [drag.x - r.left, drag.y - r.top];
    document.body.append(drag.ghost);
    drag.el.classList.add("dragging");
  }
  drag.ghost.style.left = `${e.clientX - drag.offset[0]}px`;
  drag.ghost.style.top = `${e.clientY - drag.offset[1]}px`;
  const over = dropTarget(e);
  $("#pile").classList.toggle("drop", over.kind === "pile");
});
document.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  $("#pile").classList.remove("drop");
  if (!d.ghost) { clickCard(d.card); return; }
  const over = dropTarget(e);
  d.ghost.remove();
  d.el.classList.remove("dragging");
  if (over.kind === "pile") {
    S.selected = d.card;
    if (!discardCard(d.card)) render();
  } else if (over.kind === "card" && over.card !== d.card) {
    moveCard(d.card, over.card, over.after);
  } else if (over.kind === "hand") {
    moveCard(d.card, null, true);
  }
});
document.addEventListener("pointercancel", () => {
  if (drag && drag.ghost) { drag.ghost.remove(); drag.el.classList.remove("dragging"); }
  drag = null;
});

function dropTarget(e) {
  const under = document.elementsFromPoint(e.clientX, e.clientY).filter((el) => !el.closest(".ghost"));
  for (const el of under) {
    if (el.closest("#pile")) return { kind: "pile" };
    const card = el.closest("#hand .card");
    if (card) {
      const r = card.getBoundingClientRect();
      return { kind: "card", card: card.dataset.card, after: e.clientX > r.left + r.width / 2 };
    }
    if (el.closest("#hand")) return { kind: "hand" };
  }
  return { kind: "none" };
}

// Keyboard: every action has a key; arrows walk the hand.
document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, select, textarea, summary")) return;
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (!$("#hand-end").hidden || !$("#game-end").hidden) {
    if (!$("#hand-end").hidden && (e.key === "n" || e.key === "N")) { e.preventDefault(); nextFromEnd(); }
    return;
  }
  if (document.body.dataset.page !== "table") return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const cardEl = e.target.closest && e.target.closest("#hand .card");
  if ((key === "ArrowLeft" || key === "ArrowRight") && S.view) {
    e.preventDefault();
    const cards = [...document.querySelectorAll("#hand .card")].map((el) => el.dataset.card);
    if (!cards.length) return;
    const current = cardEl ? cardEl.dataset.card : S.focusCard || S.selected || cards[0];
    const i = Math.max(0, cards.indexOf(current));
    const j = Math.min(cards.length - 1, Math.max(0, i + (key === "ArrowLeft" ? -1 : 1)));
    if (e.shiftKey) {
      if (j !== i) moveCard(current, cards[j], key === "ArrowRight");
      return;
    }
    S.focusCard = cards[j];
    focusHandCard(cards[j]);
    return;
  }
  if (cardEl && (key === "Enter" || key === " ")) {
    e.preventDefault();
    clickCard(cardEl.dataset.card);
    focusHandCard(cardEl.dataset.card);
    return;
  }
  const acts = {
    t: drawStock, d: drawPile, p: () => legal().pass && send("pass"), k: knock, g: gin,
    b: () => legal().bigGin && send("big-gin"), h: showHint, s: toggleSort,
    Escape: () => { S.mode = null; S.selected = null; render(); },
    m: () => { $("#mute").checked = !$("#mute").checked; applySettings(); },
  };
  if (acts[key]) { e.preventDefault(); acts[key](); }
  const onPage = e.target === document.body || e.target.closest("#hand");
  if (key === "Enter" && !cardEl && S.selected && onPage) { e.preventDefault(); discardCard(S.selected); }
});

// ---------------------------------------------------------------------------------------
// End of a hand, end of the game

function queueHandEnds(view) {
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

function maybeShowEnd() {
  if (S.showingEnd !== null || !$("#game-end").hidden) return;
  if (S.endQueue.length) { showHandEnd(S.endQueue.shift()); return; }
  if (S.view && S.view.is_over) showGameEnd();
}

function hideOverlays() {
  $("#hand-end").hidden = true;
  $("#game-end").hidden = true;
  S.showingEnd = null;
  syncInert();
}

/** While a dialog is open, the page behind it takes no focus, clicks or keys. */
function syncInert() {
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

function showHandEnd(index) {
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
      const title = seat === k ? `${who(seat)} (${r.kind === "gin" || r.kind === "big-gin" ? "gin" : "knocked"})` : who(seat);
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

function explain(r, who) {
  const dw = r.deadwood;
  if (r.kind === "void") return "The stock ran down to its last two cards without a knock: the hand is void and nobody scores.";
  const k = r.knocker, d = 1 - k;
  const doubled = r.multiplier > 1 ? ` (×${r.multiplier})` : "";
  if (r.kind === "gin") return `${who(k)} went gin: ${who(d)}'s deadwood ${dw[d]} plus the gin bonus makes ${r.points}${doubled}. No lay-offs against gin.`;
  if (r.kind === "big-gin") return `${who(k)} went Big Gin with all eleven cards: ${who(d)}'s deadwood ${dw[d]} plus the Big Gin bonus makes ${r.points}${doubled}.`;
  const laid = r.layoffs && r.layoffs.length ? ` after laying off ${r.layoffs.map((l) => cardText(l.card)).join(" ")}` : "";
  if (r.kind === "undercut") return `Undercut! ${who(k)} knocked with ${dw[k]}, but ${who(d)} has ${dw[d]}${laid}: ${who(d)} scores the difference plus the undercut bonus, ${r.points}${doubled}.`;
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

function nextFromEnd() {
  if (S.showingEnd === null) return;
  store.set(`seen.${S.gameId}`, String(S.showingEnd + 1));
  S.showingEnd = null;
  $("#hand-end").hidden = true;
  syncInert();
  maybeShowEnd();
  if ($("#game-end").hidden && S.showingEnd === null) $("#hand").querySelector(".card[tabindex='0']")?.focus();
}
$("#btn-next").addEventListener("click", nextFromEnd);

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

// ---------------------------------------------------------------------------------------
// History, statistics and replay

async function openHistory() {
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

const RP = { record: null, hand: 0, frames: [], at: 0, names: ["Seat 0", "Seat 1"] };

async function openReplay(gameId) {
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

// ---------------------------------------------------------------------------------------
// Settings

function applySettings() {
  store.set("theme", $("#theme").value);
  store.set("four", $("#four-colour").checked ? "1" : "0");
  store.set("large", $("#large").checked ? "1" : "0");
  store.set("motion", $("#reduce-motion").checked ? "1" : "0");
  sound.setMuted($("#mute").checked);
  loadSettings();
  render();
}

function loadSettings() {
  const theme = store.get("theme", "green");
  $("#theme").value = theme;
  document.body.dataset.theme = theme;
  $("#four-colour").checked = store.get("four") === "1";
  $("#large").checked = store.get("large") === "1";
  $("#reduce-motion").checked = store.get("motion") === "1";
  $("#mute").checked = sound.isMuted();
  document.body.classList.toggle("four-colour", $("#four-colour").checked);
  document.body.classList.toggle("large", $("#large").checked);
  document.body.classList.toggle("reduce-motion", $("#reduce-motion").checked);
}

for (const id of ["#theme", "#four-colour", "#large", "#mute", "#reduce-motion"]) $(id).addEventListener("change", applySettings);
loadSettings();
route();
