// Card elements and their motion, for the table, the dialogs and the replay.

import { cardBack, cardFace, cardName } from "./cards.js";
import { reducedMotion } from "./state.js";

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
  el.innerHTML = cardBack();
  return el;
}

export function snapshot() {
  const rects = new Map();
  for (const el of document.querySelectorAll("#table [data-card]")) rects.set(el.dataset.card, el.getBoundingClientRect());
  return rects;
}

export function animateFrom(el, from, delay = 0) {
  if (reducedMotion() || !from) return;
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: 320, delay, easing: "cubic-bezier(.2,.8,.2,1)", fill: "backwards" },
  );
}
