// Celebrations: a gin, a Big Gin, an undercut and the game's winner get a banner over the
// table and a burst of confetti (the sounds are sound.js's). With fewer animations only the
// banner shows, briefly and still.

import { $, reducedMotion } from "./state.js";

const COLOURS = ["#ffd76e", "#ff6b6b", "#7cc4ff", "#9ff0b0", "#ffa6d1", "#fbf4e4"];

/** Show `text` as a banner; `confetti`: with a burst of confetti. Gone after about 2 s. */
export function celebrate(text, { confetti = true } = {}) {
  const box = $("#celebrate");
  box.replaceChildren();
  const banner = document.createElement("div");
  banner.className = "banner";
  banner.textContent = text;
  box.append(banner);
  if (confetti && !reducedMotion()) {
    for (let i = 0; i < 60; i++) {
      const bit = document.createElement("span");
      bit.className = "bit";
      // spread over the width, each with its own drift, spin, delay and fall time
      bit.style.left = `${(i * 37) % 100}%`;
      bit.style.background = COLOURS[i % COLOURS.length];
      bit.style.setProperty("--x", `${((i * 53) % 120) - 60}px`);
      bit.style.setProperty("--r", `${360 + ((i * 97) % 540)}deg`);
      bit.style.setProperty("--d", `${((i * 29) % 60) / 100}s`);
      bit.style.setProperty("--t", `${1.4 + ((i * 17) % 90) / 100}s`);
      box.append(bit);
    }
  }
  box.hidden = false;
  box.dataset.text = text;
  clearTimeout(celebrate.timer);
  celebrate.timer = setTimeout(() => { box.hidden = true; box.replaceChildren(); }, reducedMotion() ? 1200 : 2600);
}
