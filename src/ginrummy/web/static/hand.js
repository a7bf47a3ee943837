// The hand and the moves: draws, discards, knock and gin, hints, sorting, and every way to
// make them (clicks, taps, drag and drop, keys).

import { api } from "./api.js";
import { cardText, withSuitSymbols } from "./cards.js";
import { nextFromEnd } from "./dialogs.js";
import { cancelQueued, send } from "./net.js";
import { HINT_OFFLINE, expected, ginReason, hintReason, knockReason, refuse, refuseNow } from "./refusals.js";
import { applySettings } from "./settings.js";
import * as sound from "./sound.js";
import { $, S, setStatus, store, tapWord } from "./state.js";
import { legal, render } from "./table.js";

function drawStock() {
  const L = legal();
  if (L.stock) send("stock");
  else refuseNow("Drawing from the stock", L);
}

function drawPile() {
  const L = legal();
  if (L.take) send("take");
  else if (L.pile) send("pile");
  else if (L.discard.size && !S.selected) refuse("You have drawn: now discard. Select a card and press it again, or drag it to the pile.");
  else refuseNow("Taking from the pile", L);
}

function discardCard(card) {
  const L = legal();
  if (S.mode === "knock" && L.knock.has(card)) return send(`knock ${card}`);
  if (S.mode === "gin" && L.gin.has(card)) return send(`gin ${card}`);
  if (L.discard.has(card)) return send(`discard ${card}`);
  if (L.discard.size) refuse(`You cannot discard ${cardText(card)}: you just took it from the pile.`);
  else refuseNow(`Discarding ${cardText(card)}`, L);
  return false;
}

function clickCard(card) {
  S.focusCard = card;
  const L = legal();
  if (!L.any) {
    // nothing is selected outside your turn (it would stay selected into the next one)
    S.selected = null;
    refuseNow(`Choosing ${cardText(card)}`, L);
    render();
    return;
  }
  const inMode = (S.mode === "knock" && L.knock.has(card)) || (S.mode === "gin" && L.gin.has(card));
  if (S.selected === card || inMode) {
    if (!discardCard(card)) render();
    return;
  }
  if (!L.discard.size) {
    S.selected = null;
    refuseNow(`Discarding ${cardText(card)}`, L);
    render();
    return;
  }
  S.selected = card;
  render();
  setStatus(`${cardText(card)} selected: ${tapWord()} it again or drag it to the pile to discard.`);
}



function knock() {
  const L = legal();
  if (!L.knock.size) { refuse(knockReason(L)); return; }
  if (S.selected && L.knock.has(S.selected)) { send(`knock ${S.selected}`); return; }
  if (S.selected) refuse(`Knocking by discarding ${cardText(S.selected)} is not allowed: choose a highlighted card.`);
  else if (L.knock.size === 1) { send(`knock ${[...L.knock][0]}`); return; }
  S.mode = S.mode === "knock" ? null : "knock";
  render();
}

function gin() {
  const L = legal();
  if (!L.gin.size) { refuse(ginReason(L)); return; }
  if (S.selected && L.gin.has(S.selected)) { send(`gin ${S.selected}`); return; }
  if (S.selected) refuse(`Discarding ${cardText(S.selected)} is not gin: choose a highlighted card.`);
  else if (L.gin.size === 1) { send(`gin ${[...L.gin][0]}`); return; }
  S.mode = S.mode === "gin" ? null : "gin";
  render();
}

/** Why no hint came, in the page's words: the server's reason, or the lost connection. */
function hintRefused(e) {
  if (e.status) return `No hint: ${e.message}`; // the server answered, and said why
  if (navigator.onLine === false) return HINT_OFFLINE;
  return "No hint: the server cannot be reached. Try again when the connection is back.";
}

async function showHint() {
  if (!S.view || S.hintPending) return;
  if (!S.view.ai_level || S.seat === null) { refuse("Hints are given only in games against the computer."); return; }
  const box = $("#hint-text");
  const offline = hintReason();
  if (offline) { // greyed: it says why (as Knock and Gin do), and asks nothing
    box.hidden = false;
    box.textContent = offline;
    sound.play("error");
    return;
  }
  if (!legal().any) { refuseNow("A hint", legal()); return; }
  const asked = S.view.version;
  S.hintPending = true;
  box.hidden = false;
  box.textContent = "Thinking…";
  try {
    const h = await api("GET", `/api/games/${S.gameId}/hint`);
    if (!S.view || S.view.version !== asked) return; // the position moved on meanwhile
    const [, card] = h.action.split(" ");
    S.hint = { ...h, card };
    box.textContent = `Hint: ${withSuitSymbols(h.reason)}`;
    render();
  } catch (e) {
    box.textContent = hintRefused(e);
  } finally {
    S.hintPending = false;
  }
}

function toggleSort() {
  const mode = store.get("sort", "rank");
  store.set("sort", mode === "suit" ? "rank" : "suit");
  S.customOrder = null;
  store.remove(`order.${S.gameId}`);
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

// Pointer drag: a card dropped on the pile is discarded; dropped on another card, it moves
// there. A press without movement is a click.
let drag = null;

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

export function initHand() {
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

  // A click with no pointer behind it (a screen reader's "activate") acts like Enter.
  $("#hand").addEventListener("click", (e) => {
    const el = e.target.closest(".card");
    if (el && e.detail === 0 && !e.pointerType) clickCard(el.dataset.card);
  });

  $("#hand").addEventListener("pointerdown", (e) => {
    const el = e.target.closest(".card");
    if (!el || e.button !== 0 || !el.dataset.card || S.seat === null) return;
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


  // Keyboard: every action has a key; arrows walk the hand.
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea, summary")) return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (document.body.dataset.page === "table" && (e.key === "m" || e.key === "M")) {
      // the mute key works at any moment at the table, an end-of-hand dialog open or not
      e.preventDefault();
      $("#mute").checked = !$("#mute").checked;
      applySettings();
      return;
    }
    if (!$("#hand-end").hidden || !$("#game-end").hidden) {
      if (!$("#hand-end").hidden && (e.key === "n" || e.key === "N")) { e.preventDefault(); nextFromEnd(); }
      return;
    }
    if (document.body.dataset.page !== "table") return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const cardEl = e.target.closest && e.target.closest("#hand .card");
    if (S.seat === null && S.view) { // watching: only the mute key works
      if (key.length === 1 || key === "Enter") refuse("You are watching: there is nothing to press.");
      return;
    }
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
      t: drawStock, d: drawPile, k: knock, g: gin, h: showHint, s: toggleSort,
      p: () => (legal().pass ? send("pass") : refuseNow("Passing")),
      b: () => (legal().bigGin ? send("big-gin") : refuseNow("Big Gin")),
      Escape: () => {
        if (cancelQueued()) return;
        S.mode = null;
        S.selected = null;
        setStatus("");
        render();
      },
    };
    if (acts[key]) { e.preventDefault(); acts[key](); }
    const onPage = e.target === document.body || e.target.closest("#hand");
    if (key === "Enter" && !cardEl && onPage) {
      e.preventDefault();
      if (S.selected) discardCard(S.selected);
      else if (S.view) refuse(expected() || "Choose a card first: ← and → walk the hand.");
    }
  });
}
