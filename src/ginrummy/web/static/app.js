// The felt table: lobby, table, end-of-hand and end-of-game screens, history and replay.
// The server is the authority: this page sends actions in the engine's notation and draws
// the view its seat receives (docs/protocol.md). It never sees the opponent's hidden cards.
//
// This module only starts the page; docs/web.md says which module holds what. Modules import
// each other in a circle (the table draws, the dialogs open from a drawing, the router opens
// the table), so none of them does anything when it is evaluated: each `init*` below binds
// its listeners, once every module is loaded.

import { initDialogs } from "./dialogs.js";
import { initHand } from "./hand.js";
import { initHistory } from "./history.js";
import { initLobby } from "./lobby.js";
import { initNet } from "./net.js";
import { initRouter, route } from "./router.js";
import { initScores } from "./scores.js";
import { initSettings } from "./settings.js";
import { initTable } from "./table.js";

initRouter();
initLobby();
initNet();
initTable();
initScores();
initHand();
initDialogs();
initHistory();
initSettings();
route();
