// The HTTP API (docs/protocol.md) and the player: a token kept in this browser stands for
// them in all their games.

import { store } from "./state.js";

export async function api(method, path, body) {
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

export async function ensurePlayer() {
  if (store.get("player")) return;
  const name = store.get("name") || null;
  const made = await api("POST", "/api/players", { name });
  store.set("player", made.token);
}
