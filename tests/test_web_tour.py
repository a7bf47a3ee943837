"""Faults found on a person's tour of the web table, in real Chromium against a real
``ginrummy serve``: an address that leads nowhere, a table the server refuses, the Hint button
offline, the history's final scores, the last move on a phone, the settings under a finger.
"""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import web_support
from ginrummy.server.service import GameService
from ginrummy.server.store import open_store
from test_server_pages import SHORT, finished_game
from test_web_table import PHONE, game_view, start_ai_game
from web_support import Server, polite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute

pytestmark = pytest.mark.browser

browser = web_support.browser
page = web_support.page
server = web_support.server
live_server = web_support.live_server


@pytest.fixture
def strict(browser: Browser) -> Iterator[BrowserContext]:
    """A context that keeps the server's Content-Security-Policy (the ``page`` fixture's
    context bypasses it for Playwright's own predicates)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


# --- 1. an address that leads nowhere ------------------------------------------------------


@pytest.mark.parametrize("path", ["/nonexistent", "/game", "/foo/bar"])
def test_an_address_that_leads_nowhere_is_a_page_with_the_way_to_the_lobby(
    strict: BrowserContext, server: Server, path: str
) -> None:
    page = strict.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    answer = page.goto(server.base + path)
    assert answer is not None and answer.status == 404
    assert page.title() == "Gin Rummy: no such page"
    assert page.inner_text("#not-found-title") == "No such page"
    assert page.inner_text("#not-found-text") == (
        "There is nothing at this address. Check that the link was copied whole,"
        " or start again from the lobby."
    )
    assert "detail" not in page.inner_text("body")
    # dressed by the table's stylesheet under the Content-Security-Policy: the link is a
    # button, and nothing was refused (a refused style or script is a console error)
    link = page.locator("#not-found-lobby")
    assert "gradient" in link.evaluate("e => getComputedStyle(e).backgroundImage")
    assert link.inner_text() == "Back to the lobby"
    # 404 itself is logged by Chromium as a failed resource: only CSP refusals matter here
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    link.click()
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.evaluate("location.pathname") == "/"


# --- 2. a table the server refuses -----------------------------------------------------------

KEY_REFUSED = (
    "The server could not read this browser's player key: it is damaged, so the server cannot"
    " tell whether a seat at this game is yours. You can watch the game instead, with both"
    " hands face down, or go back to the lobby, which gives this browser a new key."
)
REFUSED = {
    "ws/auth-timeout": (
        "The connection was too slow: the server waited for this browser to say who it is,"
        " then gave up. Try again; if it keeps happening, the network is too slow just now."
    ),
    "service/unavailable": (
        "The server cannot reach its games for a moment, so it could not open this one."
        " Nothing was lost: try again in a little while."
    ),
    "ws/auth-first": (
        "The server refused to open this table. Try again, watch the game instead, or go back"
        " to the lobby."
    ),
}


def ai_game(server: Server) -> str:
    made = polite("POST", f"{server.base}/api/games", json={"opponent": "ai"})
    made.raise_for_status()
    return str(made.json()["game_id"])


def with_key(page: Page, server: Server, token: str) -> None:
    """This browser's player key (localStorage 'gr.player') set to ``token``."""
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("localStorage.getItem('gr.player') !== null")
    page.evaluate("t => localStorage.setItem('gr.player', t)", token)


def shows_refused(page: Page, title: str, text: str, buttons: list[str]) -> None:
    """The refusal's page with ``title`` and ``text``, ``buttons`` visible, no table."""
    page.wait_for_selector("#refused:not([hidden])")
    assert page.inner_text("#refused-title") == title
    assert page.inner_text("#refused-text") == text
    assert page.title() == "Gin Rummy: the table could not be opened"
    shown = [b for b in ("retry", "watch", "lobby") if page.is_visible(f"#refused-{b}")]
    assert shown == buttons
    for hidden in ("#table", "#lobby", "#no-game", "#btn-knock", "#stock", "#status"):
        assert not page.is_visible(hidden), hidden
    assert "refused this table" not in page.inner_text("body")


@pytest.mark.parametrize("length", [3000, 70000], ids=["over-2kb", "over-64kib"])
def test_a_damaged_key_says_so_and_offers_to_watch(page: Page, server: Server, length: int) -> None:
    gid = ai_game(server)
    with_key(page, server, "k" * length)
    page.goto(f"{server.base}/game/{gid}")
    shows_refused(page, "Your seat could not be opened", KEY_REFUSED, ["watch", "lobby"])
    assert "kkkkkkkk" not in page.content()  # the key is never shown
    assert page.get_attribute("#refused-watch", "href") == f"/game/{gid}#watch"
    page.click("#refused-watch")
    page.wait_for_selector("#watch-label:not([hidden])")
    assert page.inner_text("#status") == "You are watching this game."
    page.wait_for_function("document.querySelectorAll('#opp-hand .card').length === 10")
    # and the lobby gives this browser a new key
    page.click("#nav-lobby")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("(localStorage.getItem('gr.player') || '').length < 100")


@pytest.mark.parametrize("code", list(REFUSED))
def test_each_refusal_of_the_table_says_what_happened(
    page: Page, server: Server, code: str
) -> None:
    """The server's refusals before its hello, each in its own words (the socket is played
    by the test: these need a slow browser, a database away, or a client that errs)."""
    gid = ai_game(server)
    sockets: list[WebSocketRoute] = []

    def refuse(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        if len(sockets) > 1:  # the first is refused; then the real server answers
            ws.connect_to_server()
            return

        def answer(_message: str | bytes) -> None:
            ws.send(json.dumps({"type": "error", "code": code, "message": "refused"}))
            ws.close(code=4400)

        ws.on_message(answer)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), refuse)
    page.goto(f"{server.base}/game/{gid}")
    title = "The table could not be opened"
    buttons = ["retry", "watch", "lobby"] if code == "ws/auth-first" else ["retry", "lobby"]
    shows_refused(page, title, REFUSED[code], buttons)
    assert page.get_attribute("#refused-retry", "href") == f"/game/{gid}"
    page.click("#refused-retry")  # tried again, the table opens
    page.wait_for_selector("#hand .card")
    assert page.is_hidden("#refused")


def test_a_refusal_with_no_reason_still_says_what_to_do(page: Page, server: Server) -> None:
    gid = ai_game(server)
    page.route_web_socket(re.compile(r".*/ws/games/.*"), lambda ws: ws.close(code=4400))
    page.goto(f"{server.base}/game/{gid}#watch")
    # a spectator refused is not offered to watch again
    shows_refused(
        page, "The table could not be opened", REFUSED["ws/auth-first"], ["retry", "lobby"]
    )
    assert page.get_attribute("#refused-retry", "href") == f"/game/{gid}#watch"
    page.click("#refused-lobby")
    page.wait_for_selector("#lobby:not([hidden])")


def test_a_key_that_is_not_this_games_watches_and_is_told_why(page: Page, server: Server) -> None:
    gid = ai_game(server)
    other = polite("POST", f"{server.base}/api/players", json={"name": "Other"}).json()
    with_key(page, server, other["token"])
    page.goto(f"{server.base}/game/{gid}")
    page.wait_for_selector("#watch-label:not([hidden])")
    assert page.inner_text("#status") == (
        "You are watching this game: this browser holds neither of its seats."
    )
    assert page.is_hidden("#refused")


def test_a_store_away_on_reconnecting_is_one_more_lost_connection(
    page: Page, server: Server
) -> None:
    """Back after a loss, a refusal for ``service/unavailable`` (the database away a
    moment) keeps the table and reconnects with backoff, as after any lost connection."""
    gid = ai_game(server)
    sockets: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        if len(sockets) == 2:
            ws.on_message(
                lambda _m: (
                    ws.send(
                        json.dumps({"type": "error", "code": "service/unavailable", "message": "x"})
                    ),
                    ws.close(code=4400),
                )
            )
            return
        ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    page.goto(f"{server.base}/game/{gid}")
    page.wait_for_function("document.querySelectorAll('#opp-hand .card').length === 10")
    sockets[0].close(code=1011)  # the connection drops
    page.wait_for_function(
        "document.querySelector('#conn').textContent.startsWith('Connection lost')"
    )
    page.wait_for_selector("#conn", state="hidden", timeout=15000)  # back, on the third socket
    assert len(sockets) == 3
    assert page.is_hidden("#refused") and page.is_visible("#table")


# --- 3. Hint while the connection is lost ----------------------------------------------------

HINT_OFFLINE = "No hint: you are offline, and a hint needs the connection."
HINT_LOST = "No hint: the connection to the server is lost, and a hint needs it."


def hint_greyed(page: Page, why: str) -> None:
    """Hint greyed like a greyed Knock: aria-disabled, its reason on hover and for screen
    readers, and said when pressed (without asking the server)."""
    page.wait_for_selector("#btn-hint[aria-disabled='true']", timeout=5000)
    assert not page.is_enabled("#btn-hint")
    assert page.get_attribute("#btn-hint", "title") == why
    assert page.get_attribute("#btn-hint", "aria-describedby") == "hint-why"
    assert page.text_content("#hint-why") == why
    assert page.eval_on_selector("#btn-hint", "e => getComputedStyle(e).opacity") == "0.45"
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)
    page.click("#btn-hint", force=True)  # a person can press it: it answers
    assert page.inner_text("#hint-text") == why
    assert not asked


def hint_lit(page: Page) -> None:
    page.wait_for_selector("#btn-hint:not([aria-disabled]):not([disabled])", timeout=15000)
    assert page.get_attribute("#btn-hint", "title") == ""
    assert page.text_content("#hint-why") == ""


def test_hint_is_greyed_while_offline_and_says_why(page: Page, server: Server) -> None:
    start_ai_game(page, server)
    hint_lit(page)  # the person's turn (the non-dealer's upcard, or a draw)
    page.context.set_offline(True)
    page.wait_for_selector("#conn.lost:not([hidden])", timeout=3000)
    hint_greyed(page, HINT_OFFLINE)
    page.context.set_offline(False)
    page.wait_for_selector("#conn", state="hidden", timeout=15000)
    hint_lit(page)
    page.click("#btn-hint")  # back online, the hint comes
    page.wait_for_function(
        "document.querySelector('#hint-text').textContent.startsWith('Hint: ')", timeout=15000
    )


def test_hint_is_greyed_while_the_server_is_silent(page: Page, live_server: Server) -> None:
    start_ai_game(page, live_server)
    hint_lit(page)
    assert live_server.proc is not None
    os.kill(live_server.proc.pid, signal.SIGSTOP)  # no offline event: the heartbeat finds it
    try:
        page.wait_for_selector("#conn.lost:not([hidden])", timeout=6000)
        hint_greyed(page, HINT_LOST)
    finally:
        os.kill(live_server.proc.pid, signal.SIGCONT)
    page.wait_for_selector("#conn", state="hidden", timeout=20000)
    hint_lit(page)


# --- 4. the history's final scores -------------------------------------------------------------


def test_the_history_shows_a_finished_games_grand_totals(page: Page, tmp_path: Path) -> None:
    """The game list shows a finished game's final score as the end-of-game dialog does (its
    grand totals, with the bonuses), labelled so; an open game's points say they are so far."""
    db = str(tmp_path / "games.db")
    token, gid, view = finished_game(db)
    service = GameService(open_store(db))
    service.create_game(SHORT, ai_level="easy", seat=0, player_token=token)
    points = service.games_of(token)[1]["points"]  # 0 - 0 unless the AI knocked at once
    playing = f"Resume: vs AI (easy) · tournament · points so far {points[0]} – {points[1]}"
    o = view["outcome"]
    me = view["seat"]
    won = "you won" if o["winner"] == me else "drawn" if o["winner"] is None else "you lost"
    total = f"{o['grand_totals'][me]} – {o['grand_totals'][1 - me]}"
    line = f"vs AI (easy) · tournament · grand total with bonuses {total} · {won}"
    with Server(db) as server:
        with_key(page, server, token)
        page.reload()
        page.wait_for_selector("#finished-games a")
        assert page.inner_text("#finished-games a") == f"Replay: {line}"
        assert page.get_attribute("#finished-games a", "href") == f"/replay/{gid}"
        assert page.inner_text("#open-games a >> nth=0") == playing
        page.click("#nav-history")
        page.wait_for_selector("#history-games a")
        assert page.locator("#history-games a").all_inner_texts() == [playing, f"Replay: {line}"]


# --- 5. the last move on a phone -----------------------------------------------------------

LONG_NAME = "Wilhelmina Montgomery-Worthington Wolfe"  # 39 of the 40 characters a name may have


def test_a_long_last_move_is_whole_on_a_phone(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    base = server.base
    page.goto(base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.wait_for_function("localStorage.getItem('gr.player') !== null")
    key = page.evaluate("localStorage.getItem('gr.player')")
    made = polite(
        "POST",
        f"{base}/api/games",
        json={"opponent": "human", "name": "Ann"},
        headers={"Authorization": f"Bearer {key}"},
    ).json()
    gid = made["game_id"]
    bob = polite(
        "POST", f"{base}/api/games/{gid}/join", json={"invite": made["invite"], "name": LONG_NAME}
    ).json()
    page.goto(f"{base}/game/{gid}")
    page.wait_for_selector("#hand .card")
    # the upcard: Ann passes if she is first, then the friend with the long name passes
    tokens = {made["seat"]: made["token"], bob["seat"]: bob["token"]}
    while True:
        view = game_view(server, gid, made["token"])
        seat = view["hand"]["to_act"]
        r = polite(
            "POST",
            f"{base}/api/games/{gid}/actions",
            json={"action": "pass", "version": view["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert r.status_code == 200, r.text
        if seat == bob["seat"]:
            break
    said = f"{LONG_NAME} passed the upcard."
    page.wait_for_function(f"document.querySelector('#last-move').textContent === {said!r}")
    page.wait_for_function("document.body.dataset.staging === 'false'")
    strip = page.eval_on_selector(
        "#last-move",
        "e => { const r = e.getBoundingClientRect(); return {sw: e.scrollWidth, cw: e.clientWidth,"
        " sh: e.scrollHeight, ch: e.clientHeight, left: r.left, right: r.right,"
        " visible: getComputedStyle(e).display !== 'none'}; }",
    )
    assert strip["visible"]
    assert strip["sw"] <= strip["cw"], strip  # not cut at the side (no ellipsis)
    assert strip["sh"] <= strip["ch"] + 1, strip  # nor at the bottom
    assert strip["left"] >= 0 and strip["right"] <= PHONE["width"], strip
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right"
        f" > {PHONE['width']} + 0.5).map(e => e.tagName + '#' + e.id + '.' + e.className"
        " + ' ' + e.getBoundingClientRect().right)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    context.close()


# --- 6. the settings under a finger ------------------------------------------------------------

SETTINGS_JS = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, height: r.height};
  };
  const out = {};
  for (const e of document.querySelectorAll('.settings-body select, .settings-body input')) {
    out[e.id] = {type: e.type, own: box(e), label: box(e.closest('label'))};
  }
  out.body = box(document.querySelector('.settings-body'));
  return out;
}"""


def open_settings(page: Page, server: Server) -> dict[str, Any]:
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#settings summary")
    page.wait_for_selector(".settings-body", state="visible")
    found: dict[str, Any] = page.evaluate(SETTINGS_JS)
    return found


def test_the_settings_are_big_enough_for_a_finger_on_a_phone(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    found = open_settings(page, server)
    body = found.pop("body")
    assert set(found) == {
        "theme", "card-back", "speed", "four-colour", "large", "mute", "reduce-motion"
    }  # fmt: skip
    for name, part in found.items():
        assert part["own"]["height"] >= 44, (name, part)  # the control itself
        assert part["label"]["height"] >= 44, (name, part)
    assert body["left"] >= 0 and body["right"] <= PHONE["width"], body
    # a finger on a checkbox, or on its words, sets it
    page.tap("#mute")
    assert page.is_checked("#mute")
    page.locator("label", has=page.locator("#mute")).tap(position={"x": 120, "y": 22})
    assert not page.is_checked("#mute")
    page.tap("#speed")  # a select opens under a finger too (its value is chosen as usual)
    page.select_option("#speed", "quick")
    assert page.evaluate("localStorage.getItem('gr.speed')") == "quick"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


def test_the_desktop_settings_keep_their_size(page: Page, server: Server) -> None:
    found = open_settings(page, server)
    found.pop("body")
    for name, part in found.items():
        limit = 20 if part["type"] == "checkbox" else 30
        assert part["own"]["height"] < limit, (name, part)
