// The HTTP API (docs/protocol.md) and the player: a token kept in this browser stands for
// them in all their games.

import { store } from "./state.js";

/**
 * Whether `token` could be a player key the server gave (a short run of URL-safe letters and
 * digits). A damaged one is never sent over HTTP: the server's HTTP parser refuses a request
 * head of tens of KB with a bare 400 before the app could say the key is unknown, so the
 * lobby would show "400 Bad Request" for ever instead of making a new key. Sent without it,
 * the request is refused as from no player (`service/bad-player`), and the lobby starts afresh.
 */
function looksLikeKey(token) {
  return /^[A-Za-z0-9_-]{8,200}$/.test(token);
}

export async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.get("player");
  if (token && looksLikeKey(token)) headers.Authorization = `Bearer ${token}`;
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
