// Settings: the felt, four colours, large cards, sounds, fewer animations (kept in this
// browser).

import * as sound from "./sound.js";
import { $, store } from "./state.js";
import { render } from "./table.js";

export function applySettings() {
  store.set("theme", $("#theme").value);
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
  $("#four-colour").checked = store.get("four") === "1";
  $("#large").checked = store.get("large") === "1";
  $("#reduce-motion").checked = store.get("motion") === "1";
  $("#mute").checked = sound.isMuted();
  document.body.classList.toggle("four-colour", $("#four-colour").checked);
  document.body.classList.toggle("large", $("#large").checked);
  document.body.classList.toggle("reduce-motion", $("#reduce-motion").checked);
}

export function initSettings() {
  for (const id of ["#theme", "#four-colour", "#large", "#mute", "#reduce-motion"]) $(id).addEventListener("change", applySettings);
  loadSettings();
}
