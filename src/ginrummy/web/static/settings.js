// Settings: the felt, the card back, the speed, four colours, large cards, sounds, fewer
// animations (kept in this browser).

import { BACKS } from "./cards.js";
import * as sound from "./sound.js";
import { $, BEATS, store } from "./state.js";
import { render } from "./table.js";

export function applySettings() {
  store.set("theme", $("#theme").value);
  store.set("back", $("#card-back").value);
  store.set("speed", $("#speed").value);
  store.set("four", $("#four-colour").checked ? "1" : "0");
  store.set("large", $("#large").checked ? "1" : "0");
  store.set("motion", $("#reduce-motion").checked ? "1" : "0");
  sound.setMuted($("#mute").checked);
  loadSettings();
  render();
}

export function loadSettings() {
  const theme = store.get("theme", "green");
  $("#theme").value = theme;
  document.body.dataset.theme = theme;
  const back = store.get("back", "lattice");
  $("#card-back").value = BACKS.some((b) => b.id === back) ? back : "lattice";
  document.body.dataset.back = $("#card-back").value;
  const speed = store.get("speed", "normal");
  $("#speed").value = speed in BEATS ? speed : "normal";
  $("#four-colour").checked = store.get("four") === "1";
  $("#large").checked = store.get("large") === "1";
  $("#reduce-motion").checked = store.get("motion") === "1";
  $("#mute").checked = sound.isMuted();
  document.body.classList.toggle("four-colour", $("#four-colour").checked);
  document.body.classList.toggle("large", $("#large").checked);
  document.body.classList.toggle("reduce-motion", $("#reduce-motion").checked);
}

export function initSettings() {
  const select = $("#card-back");
  for (const b of BACKS) {
    const o = document.createElement("option");
    o.value = b.id;
    o.textContent = b.name;
    select.append(o);
  }
  for (const id of ["#theme", "#card-back", "#speed", "#four-colour", "#large", "#mute", "#reduce-motion"]) $(id).addEventListener("change", applySettings);
  loadSettings();
}
