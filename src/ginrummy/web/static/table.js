// The table: opening a game, and drawing its view (scores, both hands, the piles, the
// buttons, the turn line, the timer, presence). Input is in hand.js.

import { cardName, cardText, sortKey } from "./cards.js";
import { animateFrom, backCard, cardButton, centre, snapshot } from "./draw.js";
import { watchAddress } from "./lobby.js";
import { connect, moveText } from "./net.js";
import { ginReason, hintReason, knockReason } from "./refusals.js";
import { showPage } from "./router.js";
import { renderPresence, renderScores, renderTimer } from "./scores.js";
import { HIDDEN, parseAction } from "./stage.js";
import * as sound from "./sound.js";
import { $, S, awaitingFriend, backDesign, beat, motionMs, reducedMotion, setStatus, store, tapWord } from "./state.js";

export function openGame(gameId, { watch = false } = {}) {
  S.gameId = gameId;
  S.watching = watch;
  S.view = null;
  S.seat = null;
  S.selected = null;
  S.mode = null;
  S.hint = null;
  S.endQueue = [];
  S.showingEnd = null;
  S.customOrder = store.json(`order.${gameId}`, null);
  showPage("table");
  document.title = watch ? "Gin Rummy: watching" : "Gin Rummy: table";
  $("#watch-link").href = watchAddress(gameId);
  $("#watch-link").textContent = `${location.origin}${watchAddress(gameId)}`;
  $("#hand").replaceChildren();
  $("#opp-hand").replaceChildren();
  $("#log").replaceChildren();
  setStatus("Connecting…");
  connect();
}

export function legal() {
  const v = S.view;
  // nothing is legal while an action is on its way or the answer is not yet on screen
  const settled = !S.pending && !S.queued && !S.staging;
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
  // our stock card on its way (HIDDEN) goes where a drawn card shows: at the end
  const dead = arr.deadwood.filter((c) => c !== HIDDEN).sort((a, b) => key(a) - key(b));
  if (arr.deadwood.includes(HIDDEN)) dead.push(HIDDEN);
  for (const c of dead) groups.push({ meld: false, cards: [c] });
  return groups;
}

/**
 * A spectator's marks (the label; no actions, no keys), or a player's link to share once the
 * other seat is taken. Drawn with the table, and as soon as the server says who this is: a
 * spectator may arrive while a hand's end is shown, before any hand is drawn.
 */
export function showWatching(v) {
  const watching = S.seat === null;
  document.body.classList.toggle("watching", watching);
  $("#watch-label").hidden = !watching;
  $("#actions").hidden = watching;
  $("#keys").hidden = watching;
  $("#watch-share").hidden = watching || !v?.names?.[1 - (S.seat ?? 0)];
}

/**
 * Draw the position on screen (S.shown, or else S.view). `event`: the action this drawing
 * shows, whose cards move (a stock card flies face down from the stock, a pile card from the
 * pile, a discard to the pile); `deal`: the hand is being dealt (a shuffle, then the cards
 * one by one). Returns how long the motion takes, in ms.
 */
export function render({ event = null, deal = false } = {}) {
  const v = S.shown || S.view;
  if (!v || document.body.dataset.page !== "table") return 0;
  showWatching(v);
  if (!v.hand) return 0;
  S.onScreen = v;
  const hadFocus = $("#hand").contains(document.activeElement);
  const focusIndex = [...$("#hand").querySelectorAll(".card")].indexOf(document.activeElement);
  const before = snapshot();
  const stockRect = $("#stock .stack").getBoundingClientRect();
  const pileRect = $("#pile .stack").getBoundingClientRect();
  const rowRect = { opp: $("#opp-hand").getBoundingClientRect(), me: $("#hand").getBoundingClientRect() };
  const me = S.seat ?? 0, opp = 1 - me;
  const h = v.hand;
  const L = legal();

  renderScores(v);
  $("#opp-name").textContent = seatName(v, opp);
  $("#my-name").textContent = S.seat === null ? seatName(v, me) : "You";

  // opponent: face down, with the cards known from the pile shown
  const watching = S.seat === null;
  const oppHand = $("#opp-hand");
  faceDown(oppHand, h, opp, "opp");
  fitHand(oppHand);
  const known = h.known_cards[opp] || [];
  oppHand.setAttribute("aria-label", `${S.seat === null ? `${seatName(v, opp)}'s` : "Opponent's"} hand: ${h.hand_sizes[opp]} cards${known.length ? `, known: ${known.map(cardName).join(", ")}` : ""}`);

  // stock and pile
  const stock = $("#stock");
  stock.querySelector(".count").textContent = h.stock_size;
  stock.style.setProperty("--depth", Math.min(8, Math.ceil(h.stock_size / 4)));
  const stack = stock.querySelector(".stack");
  if (!h.stock_size) stack.replaceChildren();
  else if (!stack.firstChild || stack.dataset.back !== backDesign()) {
    stack.replaceChildren(backCard());
    stack.dataset.back = backDesign();
  }
  const queuedKind = S.queued ? S.queued.action.split(" ")[0] : null;
  stock.classList.toggle("waiting", queuedKind === "stock");
  $("#pile").classList.toggle("waiting", queuedKind === "pile" || queuedKind === "take");
  // a hint to draw marks the pile it means (a discard hint marks the card, below)
  const hinted = S.hint ? S.hint.action.split(" ")[0] : null;
  stock.classList.toggle("hinted", hinted === "stock");
  $("#pile").classList.toggle("hinted", hinted === "pile"); // "take": the Take button
  $("#btn-pass").classList.toggle("hinted", hinted === "pass");
  $("#btn-take").classList.toggle("hinted", hinted === "take");
  stock.disabled = !L.stock;
  $("#pile").disabled = watching;
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
  hand.setAttribute("role", watching ? "list" : "listbox");
  if (watching) {
    // a spectator: the bottom seat face down too, only what the rules have revealed shown
    faceDown(hand, h, me, "me");
    fitHand(hand);
    const k = h.known_cards[me] || [];
    hand.setAttribute("aria-label", `${seatName(v, me)}'s hand: ${h.hand_sizes[me]} cards${k.length ? `, known: ${k.map(cardName).join(", ")}` : ""}`);
  } else {
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
        if (c === HIDDEN) { // our stock card, on its way from the server
          const el = backCard();
          el.dataset.card = HIDDEN;
          el.setAttribute("role", "option");
          el.setAttribute("aria-label", "the card you drew, on its way");
          parent.append(el);
          continue;
        }
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
        if (S.queued && S.queued.action.split(" ")[1] === c) el.classList.add("selected", "waiting");
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
    if (arr.deadwood_after_discard === undefined && h.hand.length === 11) dw += " · …";
    if (arr.deadwood_points === 0) dw = "Deadwood 0: all melded";
  } else if (S.seat !== null && !h.result && h.hand.length) {
    dw = "Deadwood …"; // a card came or went: the server is arranging the hand
  } else if (S.seat !== null && h.result) {
    dw = `Deadwood ${h.result.deadwood[S.seat]}`;
  } else if (watching) {
    dw = h.result ? `Deadwood ${h.result.deadwood[me]}` : `${h.hand_sizes[me]} cards`;
  }
  $("#deadwood").textContent = dw;

  // buttons
  $("#btn-take").hidden = !L.take;
  $("#btn-pass").hidden = !L.pass;
  // Knock and Gin stay pressable when greyed (aria-disabled), to say why not
  explainButton($("#btn-knock"), knockReason(L), "knock-why");
  explainButton($("#btn-gin"), ginReason(L), "gin-why");
  $("#btn-big-gin").hidden = !L.bigGin;
  $("#btn-big-gin").classList.toggle("lit", L.bigGin);
  renderHintButton(v, L);
  const sortMode = store.get("sort", "rank");
  const sortBtn = $("#btn-sort");
  sortBtn.firstChild.textContent = sortMode === "suit" ? "By rank " : "By suit ";
  sortBtn.setAttribute("aria-label", sortMode === "suit" ? "Sort by rank" : "Sort by suit");
  sortBtn.dataset.sort = sortMode;

  // turn
  $("#turn").textContent = turnText(v, L);
  renderTimer();
  $("#btn-claim").hidden = !(v.timer && v.timer.can_claim);
  const invite = S.seat !== null && awaitingFriend(v, opp) ? store.get(`invite.${v.game_id}`) : null;
  $("#invite-reminder").hidden = !invite;
  $("#invite-reminder-link").textContent = invite || "";
  // the hands drawn to their end: those before this one, and with the last view's final
  // position (not a step on the way to it) every hand its results count
  S.endedDrawn = !S.shown && !S.staging ? Math.max(v.results.length, h.hand_number - 1) : h.hand_number - 1;
  // the version on screen once its staging is over (what a test waits for before acting)
  if (!S.staging) document.body.dataset.version = v.version;
  document.body.dataset.staging = String(S.staging);
  document.body.dataset.hand = h.hand_number;
  document.body.classList.toggle("my-turn", L.any);
  renderPresence();

  return deal ? dealMotion(v, stockRect) : moveMotion(before, event, { stockRect, pileRect, rowRect });
}

/** Each card that moved glides from where it was: a card already on the table from its old
 * place (even in mid-flight), a new one from where the action says it came from. */
function moveMotion(before, event, rects) {
  const me = S.seat ?? 0;
  const ev = event ? { ...parseAction(event), seat: event.seat } : null;
  const rowOf = (seat) => centre(seat === me ? rects.rowRect.me : rects.rowRect.opp);
  const ms = motionMs();
  for (const el of document.querySelectorAll("#table [data-card], #table [data-slot]")) {
    let from = before.get(el.dataset.card || el.dataset.slot);
    if (!from && ev) {
      if (el.closest("#hand") && el.dataset.card) {
        from = before.get(HIDDEN) || (ev.kind === "pile" || ev.kind === "take" ? rects.pileRect : rects.stockRect);
      } else if (el.closest("#pile")) {
        from = rowOf(ev.seat);
      } else if (el.dataset.slot && ev.kind === "stock") {
        from = rects.stockRect; // a face-down card drawn from the stock
      } else if (el.dataset.card) {
        from = ev.kind === "stock" ? rects.stockRect : rects.pileRect;
      }
    }
    animateFrom(el, from, 0, ms);
  }
  return ms;
}

/** The deal: a short shuffle of the stock, then ten cards each, one at a time from the
 * stock, the non-dealer first, and the upcard turned onto the pile. */
function dealMotion(v, stockRect) {
  if (reducedMotion() || beat() === 0) return 0;
  const scale = beat() / 550;
  const shuffle = Math.round(520 * scale), step = Math.round(80 * scale), fly = motionMs();
  const stack = $("#stock .stack");
  stack.animate(
    [{ transform: "none" }, { transform: "translateX(-9px) rotate(-4deg)" }, { transform: "translateX(9px) rotate(4deg)" }, { transform: "none" }],
    { duration: shuffle / 2, iterations: 2, easing: "ease-in-out" },
  );
  const me = S.seat ?? 0;
  const rows = { [me]: [...$("#hand").querySelectorAll(".card")], [1 - me]: [...$("#opp-hand").querySelectorAll(".card")] };
  const first = 1 - v.hand.dealer;
  const order = [];
  for (let i = 0; i < 10; i++) order.push(rows[first][i], rows[1 - first][i]);
  order.forEach((el, k) => { if (el) animateFrom(el, stockRect, shuffle + k * step, fly); });
  const pile = [...$("#pile-cards").children];
  const up = pile[pile.length - 1];
  if (up) animateFrom(up, stockRect, shuffle + order.length * step, fly);
  sound.play("deal");
  return shuffle + (order.length + 1) * step + fly;
}

/**
 * Hint: only in games against the computer, for a seat. Greyed while the connection is
 * lost (a hint is the server's), saying why like Knock and Gin do (title, aria-describedby,
 * and on a press); else disabled while there is nothing to play. Drawn with the table, and
 * when the connection is lost or back (net.js).
 */
export function renderHintButton(v = S.shown || S.view, L = legal()) {
  const button = $("#btn-hint");
  if (!v) return;
  button.hidden = !v.ai_level || S.seat === null;
  const why = hintReason();
  button.disabled = why === null && !L.any;
  if (why === null) button.removeAttribute("aria-disabled");
  else button.setAttribute("aria-disabled", "true");
  button.title = why || "";
  $("#hint-why").textContent = why || "";
}

/** A button that is lit, or greyed with its reason: on hover (title), for screen readers
 * (aria-describedby), and said on click or key (hand.js). */
function explainButton(button, reason, whyId) {
  button.setAttribute("aria-disabled", String(reason !== null));
  button.classList.toggle("lit", reason === null);
  button.title = reason || "";
  $(`#${whyId}`).textContent = reason || "";
}

/** A seat's cards face down, with the ones the view shows (known from the pile, or all of
 * them once the hand is over) face up. The page draws only what the view holds. */
function faceDown(row, h, seat, slot) {
  row.replaceChildren();
  const shown = h.result ? h.result.hands[seat] : h.known_cards[seat] || [];
  for (let i = 0; i < h.hand_sizes[seat]; i++) {
    let el;
    if (i < shown.length) {
      el = cardButton(shown[i], { tag: "span", label: `${cardName(shown[i])}, known to be in their hand` });
      el.classList.add("known");
    } else {
      el = backCard();
      el.setAttribute("aria-label", "a hidden card");
      el.dataset.slot = `${slot}:${i}`; // a back has no name: its place keeps its motion
    }
    el.setAttribute("role", "listitem");
    row.append(el);
  }
}

/** Overlap a row's cards just enough for it to fit its width (phones, large cards): your
 * hand, or a hand face down. */
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

export function seatName(v, seat) {
  if (seat === S.seat) return v.names[seat] || "You";
  return v.names[seat] || (awaitingFriend(v, seat) ? "Waiting for a player…" : "Opponent");
}

function turnText(v, L) {
  if (v.is_over) return v.claimed_by === null ? "The game is over." : `${seatName(v, v.claimed_by)} claimed the game.`;
  const h = v.hand;
  const opp = 1 - (S.seat ?? 0);
  if (S.seat !== null && awaitingFriend(v, opp)) {
    return "Waiting for your opponent to open the invite link…";
  }
  if (S.queued) return `Your move (${moveText(S.queued.action)}) waits for the connection…`;
  if (!L.any) return `${seatName(v, h.to_act)} to play…`;
  if (S.mode === "knock") return "Knock: choose the card to discard face down (Esc cancels).";
  if (S.mode === "gin") return "Gin: choose the card to discard (Esc cancels).";
  if (L.take) return `Your turn: take the upcard ${cardText(h.upcard)} or pass.`;
  if (L.stock && L.pile) return "Your turn: draw from the stock or the pile.";
  if (L.stock) return "Your turn: draw from the stock.";
  if (L.bigGin) return "Big Gin is yours: all eleven cards meld!";
  if (L.gin.size) return "Your turn: discard, or go gin!";
  if (L.knock.size) return "Your turn: discard, or knock.";
  return `Your turn: discard a card (select it, then ${tapWord()} it again or drag it to the pile).`;
}

export function initTable() {
  $("#copy-watch").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("#watch-link").href); $("#copy-watch").textContent = "Copied"; } catch {
      getSelection().selectAllChildren($("#watch-link"));
    }
  });
}
