// Card elements and their motion, for the table, the dialogs and the replay.

import { cardBack, cardFace, cardName } from "./cards.js";
import { backDesign, reducedMotion } from "./state.js";

export function cardButton(card, opts = {}) {
  const el = document.createElement(opts.tag || "button");
  if (el.tagName === "BUTTON") el.type = "button";
  el.className = "card";
  el.dataset.card = card;
  el.innerHTML = cardFace(card, document.body.classList.contains("four-colour"));
  el.setAttribute("aria-label", opts.label || cardName(card));
  return el;
}

export function backCard() {
  const el = document.createElement("span");
  el.className = "card back";
  el.innerHTML = cardBack(backDesign());
  return el;
}

/** Where each card on the table is now (in mid-flight too), by its name or, for a card
 * face down, its place (`data-slot`). */
export function snapshot() {
  const rects = new Map();
  for (const el of document.querySelectorAll("#table [data-card], #table [data-slot]")) {
    rects.set(el.dataset.card || el.dataset.slot, el.getBoundingClientRect());
  }
  return rects;
}

/** A card-sized box at the middle of `rect` (a row of cards a card leaves from). */
export function centre(rect, width = 60) {
  const height = width * 1.4;
  const left = rect.left + rect.width / 2 - width / 2, top = rect.top + rect.height / 2 - height / 2;
  return { left, top, width, height };
}

/** Let `el` glide from the box `from` to where it is (after `delay` ms, for `duration`). */
export function animateFrom(el, from, delay = 0, duration = 320) {
  if (reducedMotion() || !from || !duration) return;
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration, delay, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards" },
  );
}
