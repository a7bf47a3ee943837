"""The table is honest with a person: a lost connection is shown and a move made meanwhile
waits and is played exactly once; every refusal says why; the phone lobby fits; spectators
see no hidden card. Real Chromium against a real ``ginrummy serve`` (see test_web_table).
"""

from __future__ import annotations

import os
import re
import signal
import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import web_support
from ginrummy.server.bot import greedy_action
from test_web_table import (
    PHONE,
    do_by_clicks,
    game_id,
    game_view,
    my_discards,
    page_version,
    play,
    player_token,
    server_view,
    start_ai_game,
    tap_card,
)
from web_support import Server, artifact, polite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

browser = web_support.browser
page = web_support.page
server = web_support.server
live_server = web_support.live_server


def my_turn(page: Page, server: Server, timeout: float = 20) -> dict[str, Any]:
    """Wait until it is the page's seat to act and the page shows that view; return it."""
    deadline = time.monotonic() + timeout
    while True:
        view = server_view(server, page)
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and hand["legal_actions"]:
            if page_version(page) == view["version"] and page.is_hidden("#hand-end"):
                return view
            if page.is_visible("#hand-end"):
                page.click("#btn-next")
        assert time.monotonic() < deadline, "the page never showed the person's turn"
        time.sleep(0.05)


def status(page: Page) -> str:
    return page.inner_text("#status")


# --- the connection -----------------------------------------------------------------------


def test_offline_shown_at_once_a_move_waits_and_is_played_once(page: Page, server: Server) -> None:
    start_ai_game(page, server)
    view = my_turn(page, server)
    token = player_token(page)
    page.context.set_offline(True)
    started = time.monotonic()
    page.wait_for_selector("#conn.lost:not([hidden])", timeout=3000)
    assert time.monotonic() - started < 3
    assert "Reconnecting" in page.inner_text("#conn")
    # a move made while offline waits, and says so
    action = greedy_action(view["hand"])
    do_by_clicks(page, action)
    page.wait_for_function(
        "document.querySelector('#status').textContent.includes('is sent when it is back')"
    )
    assert "waits" in page.inner_text("#conn")
    assert "waits for the connection" in page.inner_text("#turn")
    name = action.partition(" ")[2]
    if name:
        assert page.locator(f'#hand .card.waiting[data-card="{name}"]').count() == 1
    page.screenshot(path=str(artifact("offline-move-waits.png")))
    time.sleep(1.5)  # a while offline: nothing reaches the server
    assert server_view(server, page)["version"] == view["version"]
    # back online: the banner clears, the move is played, exactly once
    page.context.set_offline(False)
    page.wait_for_selector("#conn", state="hidden", timeout=15000)
    page.wait_for_function(
        f"Number(document.body.dataset.version) > {view['version']}"
        " || !document.querySelector('#hand-end').hidden"  # the hand may end
    )
    events = httpx.get(
        f"{server.base}/api/games/{game_id(page)}/events",
        params={"since": view["version"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ).json()
    assert events[0]["seat"] == view["seat"] and events[0]["action"] == action, events
    mine = [e for e in events if e["seat"] == view["seat"]]
    assert len(mine) == 1, events  # the AI answered; this seat moved once
    assert page.locator("#hand .card.waiting").count() == 0
    # and play goes on
    after = server_view(server, page)["version"]
    play(page, server, do_by_clicks, until=lambda v: v["version"] > after + 2 or v["results"])
    assert not [e for e in page.console_errors if "WebSocket" not in e]  # type: ignore[attr-defined]


def test_a_silent_server_is_found_by_the_heartbeat(page: Page, live_server: Server) -> None:
    """No offline event here: the server stops answering (SIGSTOP), and the page's pings
    find it out within a few seconds; it comes back by itself when the server does."""
    server = live_server
    start_ai_game(page, server)
    view = my_turn(page, server)
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        page.wait_for_selector("#conn.lost:not([hidden])", timeout=5000)
        assert time.monotonic() - started < 4
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    page.wait_for_selector("#conn", state="hidden", timeout=20000)
    assert page_version(page) == view["version"]
    play(
        page,
        server,
        do_by_clicks,
        until=lambda v: v["version"] > view["version"] + 2 or v["results"],
    )


def test_a_waiting_move_can_be_cancelled(page: Page, server: Server) -> None:
    start_ai_game(page, server)
    view = my_turn(page, server)
    page.context.set_offline(True)
    page.wait_for_selector("#conn.lost:not([hidden])", timeout=3000)
    do_by_clicks(page, greedy_action(view["hand"]))
    page.wait_for_function("document.querySelector('#status').textContent.includes('Esc')")
    page.keyboard.press("Escape")
    assert "cancelled" in status(page)
    assert "waits" not in page.inner_text("#conn")
    page.context.set_offline(False)
    page.wait_for_selector("#conn", state="hidden", timeout=15000)
    time.sleep(0.5)
    assert server_view(server, page)["version"] == view["version"]  # nothing was played
    my_turn(page, server)  # and the turn is still the person's to play


def test_a_hint_asked_offline_says_it_needs_the_connection(page: Page, server: Server) -> None:
    start_ai_game(page, server)
    my_turn(page, server)
    page.context.set_offline(True)
    page.wait_for_selector("#conn.lost:not([hidden])", timeout=3000)
    # greyed while offline (test_web_tour checks how), and a press still says why
    assert page.get_attribute("#btn-hint", "aria-disabled") == "true"
    page.click("#btn-hint", force=True)
    page.wait_for_function(
        "document.querySelector('#hint-text').textContent.startsWith('No hint')", timeout=10000
    )
    assert page.inner_text("#hint-text") == (
        "No hint: you are offline, and a hint needs the connection."
    )
    page.context.set_offline(False)
    page.wait_for_selector("#conn", state="hidden", timeout=15000)
    page.click("#btn-hint")  # back online, the hint comes
    page.wait_for_function(
        "document.querySelector('#hint-text').textContent.startsWith('Hint: ')", timeout=15000
    )


# --- refusals -----------------------------------------------------------------------------


def test_the_greyed_knock_says_why_by_click_hover_screen_reader_and_key(
    page: Page, server: Server
) -> None:
    start_ai_game(page, server)
    # before the draw: knock comes after a draw
    view = my_turn(page, server)
    limit = view["hand"]["knock_limit"]
    assert page.get_attribute("#btn-knock", "aria-disabled") == "true"
    assert not page.is_enabled("#btn-knock")
    page.click("#btn-knock", force=True)  # a person can press it: it answers
    assert re.search(
        rf"Draw first: you may knock after your draw, with deadwood {limit} or less", status(page)
    )
    assert "error" in (page.get_attribute("#status", "class") or "")
    # Esc clears the message
    page.keyboard.press("Escape")
    assert status(page) == ""
    # a wrong-moment key says what is expected
    page.keyboard.press("g")
    assert status(page).startswith("Draw first: gin is a discard")
    # after the draw, until a discard with too much deadwood leaves Knock greyed
    for _ in range(30):
        view = my_turn(page, server)
        hand = view["hand"]
        kinds = {a.split()[0] for a in hand["legal_actions"]}
        if "discard" in kinds and not kinds & {"knock", "gin", "big-gin"}:
            break
        do_by_clicks(page, greedy_action(hand))
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {view['version']}"
            " || !document.querySelector('#hand-end').hidden"  # the hand may end
        )
    else:
        pytest.skip("every discard moment could knock")
    after = hand["arrangement"]["deadwood_after_discard"]
    expected = f"Deadwood {after}: you may knock at {limit} or less."
    assert page.get_attribute("#btn-knock", "title") == expected  # on hover
    assert page.inner_text("#knock-why") == expected  # for screen readers
    assert page.get_attribute("#btn-knock", "aria-describedby") == "knock-why"
    page.click("#btn-knock", force=True)
    assert status(page) == expected
    page.keyboard.press("Escape")
    assert status(page) == ""
    page.keyboard.press("k")
    assert status(page) == expected
    # a draw key now: it says a discard is expected; the next action clears the message
    page.keyboard.press("t")
    assert status(page).startswith("Drawing from the stock is not possible now. Discard a card")
    page.screenshot(path=str(artifact("knock-refused.png")))
    do_by_clicks(page, greedy_action(hand))
    page.wait_for_function(
        f"Number(document.body.dataset.version) > {view['version']}"
        " || !document.querySelector('#hand-end').hidden"  # the hand may end
    )
    assert "not possible" not in status(page)
    assert not page.console_errors  # type: ignore[attr-defined]


def test_a_click_in_the_opponents_turn_selects_nothing(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    ann = player_token(page)
    made = httpx.post(
        f"{server.base}/api/games",
        json={"opponent": "human", "name": "Ann"},
        headers={"Authorization": f"Bearer {ann}"},
        timeout=10,
    ).json()
    bob = httpx.post(f"{server.base}/api/players", json={"name": "Bob"}, timeout=10).json()
    httpx.post(
        f"{server.base}/api/games/{made['game_id']}/join",
        json={"invite": made["invite"], "name": "Bob"},
        headers={"Authorization": f"Bearer {bob['token']}"},
        timeout=10,
    ).raise_for_status()
    tokens = {made["seat"]: ann, 1 - made["seat"]: bob["token"]}

    def view_of(seat: int) -> dict[str, Any]:
        r = polite(
            "GET",
            f"{server.base}/api/games/{made['game_id']}",
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def act(seat: int) -> None:
        # greedy play, but never ending the hand: a dealt hand low enough to knock at once
        # (a few per cent of deals) would leave no cards on the table for the clicks below
        v = view_of(seat)
        action = greedy_action(v["hand"])
        kind, _, card = action.partition(" ")
        if kind in ("knock", "gin", "big-gin"):
            discards = [a for a in v["hand"]["legal_actions"] if a.startswith("discard ")]
            action = f"discard {card}" if card else discards[0]
        polite(
            "POST",
            f"{server.base}/api/games/{made['game_id']}/actions",
            json={"action": action, "version": v["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        ).raise_for_status()

    me = made["seat"]
    # play Ann's turns by the API until it is Bob's turn to discard (a long turn of his)
    for _ in range(6):
        v = view_of(me)
        if v["hand"]["to_act"] != me:
            break
        act(me)
    page.goto(f"{server.base}/game/{made['game_id']}")
    page.wait_for_selector("#hand .card")
    v = view_of(me)
    assert v["hand"]["to_act"] != me
    page.wait_for_function(f"Number(document.body.dataset.version) === {v['version']}")
    first = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")[0]
    tap_card(page, first)
    assert page.locator("#hand .card.selected").count() == 0
    assert "It is Bob's turn: wait for their move." in status(page), status(page)
    page.keyboard.press("Enter")  # keys too
    assert page.locator("#hand .card.selected").count() == 0
    # Bob plays until it is Ann's turn: nothing was carried into it
    for _ in range(6):
        v = view_of(me)
        if v["hand"]["to_act"] == me:
            break
        act(1 - me)
    page.wait_for_function(f"Number(document.body.dataset.version) === {view_of(me)['version']}")
    assert page.locator("#hand .card.selected").count() == 0
    assert "Bob's turn" not in status(page)  # the stale message went with the turn
    context.close()


# --- the lobby fits -----------------------------------------------------------------------

OVERFLOW = """(sel) => {
  const out = [];
  for (const panel of document.querySelectorAll(sel)) {
    const box = panel.getBoundingClientRect();
    for (const el of panel.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > box.right + 0.5 || r.left < box.left - 0.5) {
        const at = (b) => `${Math.round(b.left)}-${Math.round(b.right)}`;
        out.push(`${el.tagName}#${el.id}.${el.className} ${at(r)} in ${at(box)}`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", [PHONE, {"width": 1366, "height": 800}], ids=["phone", "desktop"])
def test_the_lobby_fits_its_screen(browser: Browser, server: Server, size: dict[str, int]) -> None:
    phone = size == PHONE
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, bypass_csp=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#how-to summary")  # the rules open too
    page.click("#invite-human")  # and the invite box
    page.wait_for_selector("#invite-box:not([hidden])")
    width = size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        "(w) => [...document.querySelectorAll('body *')].filter(e =>"
        " e.getBoundingClientRect().right > w + 0.5).map(e => e.tagName + '#' + e.id)",
        width,
    )
    assert not wide, wide
    assert page.evaluate(OVERFLOW, "#lobby .panel") == []
    # the chosen rules in full, under their select (which may cut them)
    assert page.inner_text("#preset-about").startswith("Tournament: 25 for gin")
    for sel in ("#level", "#preset", "#play-ai", "#invite-human", "#invite-link"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, sel
    page.screenshot(path=str(artifact(f"lobby-{width}.png")), full_page=True)
    context.close()


# --- spectators ---------------------------------------------------------------------------


def test_a_spectator_through_the_watch_link_sees_no_hidden_card(
    browser: Browser, server: Server
) -> None:
    ann_context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ann = ann_context.new_page()
    ann_errors: list[str] = []
    ann.on("pageerror", lambda e: ann_errors.append(str(e)))
    start_ai_game(ann, server)
    play(ann, server, do_by_clicks, until=lambda v: my_discards(v) >= 2 or bool(v["results"]))
    gid = game_id(ann)
    # the lobby lists the open game with its watch link; the table shows it to share
    ann.goto(server.base + "/")
    ann.wait_for_selector("#open-games a.watch-link")
    assert ann.get_attribute("#open-games a.watch-link", "href") == f"/game/{gid}#watch"
    ann.goto(f"{server.base}/game/{gid}")
    ann.wait_for_selector("#actions:not([hidden])")
    # a hand that has just ended is shown first, over the table (the AI may have knocked
    # before Ann's second discard): she closes it, and the table is drawn under it
    if ann.is_visible("#hand-end"):
        ann.click("#btn-next")
    try:
        ann.wait_for_selector("#watch-share:not([hidden])", timeout=20_000)
    except PlaywrightTimeout:
        # say what the table showed
        state = {
            sel: ann.is_visible(sel)
            for sel in ("#watch-label", "#hand-end", "#actions", "#game-end", "#conn")
        }
        status = ann.inner_text("#status") if ann.is_visible("#status") else None
        view = httpx.get(f"{server.base}/api/games/{gid}", timeout=10).json()
        raise AssertionError(
            f"no watch link on the table: visible {state}, status {status!r}, page errors "
            f"{ann_errors}, results {bool(view.get('results'))}, names {view.get('names')}"
        ) from None
    shared = ann.inner_text("#watch-link")
    assert shared == f"{server.base}/game/{gid}#watch"

    watcher_context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    watcher = watcher_context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(shared)
    watcher.wait_for_selector("#watch-label:not([hidden])")
    assert "Watching" in watcher.inner_text("#watch-label")
    for _ in range(3):
        public = httpx.get(f"{server.base}/api/games/{gid}", timeout=10).json()
        assert public["seat"] is None
        # a hand that has just ended is shown first (the next deal waits for its dialog)
        if watcher.is_visible("#hand-end"):
            watcher.click("#btn-next")
        watcher.wait_for_function(
            f"Number(document.body.dataset.version) >= {public['version']}"
            " || !document.querySelector('#hand-end').hidden"
        )
        if watcher.is_visible("#hand-end"):
            watcher.click("#btn-next")
            watcher.wait_for_function(
                f"Number(document.body.dataset.version) >= {public['version']}"
            )
        hand = public["hand"]
        # both seats drawn, face down but for what the rules revealed
        assert watcher.locator("#hand .card").count() == hand["hand_sizes"][0]
        assert watcher.locator("#opp-hand .card").count() == hand["hand_sizes"][1]
        revealed = set(hand["discard_pile"]) | {c for k in hand["known_cards"] for c in k}
        for result in [hand.get("result"), *public["results"]]:  # hands over: all shown
            if result:
                revealed |= {c for h in result["hands"] for c in h}
        shown = set(
            watcher.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
        )
        assert shown <= revealed, shown - revealed
        ann_hidden = set(server_view(server, ann)["hand"]["hand"]) - revealed
        html = watcher.content()
        assert not any(f'data-card="{c}"' in html for c in ann_hidden)
        # both names, the scores, the log; nothing to press
        assert watcher.inner_text("#my-name") == public["names"][0]
        assert watcher.inner_text("#opp-name") == public["names"][1]
        assert watcher.inner_text("#score-0 .pts") == str(public["points"][0])
        assert watcher.locator("#log p").count() > 0
        assert watcher.is_hidden("#actions")
        assert watcher.locator("#felt button:enabled:visible").count() == 0
        watcher.screenshot(path=str(artifact("spectator.png")))
        # Ann plays on; the spectator follows
        before = public["version"]
        play(ann, server, do_by_clicks, until=lambda v, n=before: v["version"] > n)
    assert not errors, errors
    ann_context.close()
    watcher_context.close()


def test_who_arrives_while_a_hand_end_is_shown_sees_the_watch_marks_at_once(
    browser: Browser, server: Server
) -> None:
    """A hand that has just ended is shown first to whoever opens the game after it, before
    any hand is drawn (the next deal waits for the dialog): the watch marks must not wait for
    a hand to be drawn (until 2026-12-06 they did). Ann deals the first hand (games are
    started until the cut makes her the dealer: then the next hand is hers to begin, and it
    stays unbegun), plays it by the API, the page away in the lobby, until it ends, then opens
    the game again: the link to share is there behind the dialog. A spectator arriving by
    that link gets the dialog too, with the watch label and nothing to press."""
    ann_context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ann = ann_context.new_page()
    for _ in range(12):
        start_ai_game(ann, server)
        first = server_view(server, ann)
        if first["hand"]["dealer"] == first["seat"]:
            break
    assert first["hand"]["dealer"] == first["seat"], "the cut never made Ann the dealer"
    gid, token = game_id(ann), player_token(ann)
    ann.goto(server.base + "/")  # the page is away: it sees nothing of the hand
    ann.wait_for_selector("#lobby:not([hidden])")
    for _ in range(400):
        view = game_view(server, gid, token)
        if view["results"]:
            break
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and hand["legal_actions"]:
            r = polite(
                "POST",
                f"{server.base}/api/games/{gid}/actions",
                json={"action": greedy_action(hand), "version": view["version"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            r.raise_for_status()
        else:
            time.sleep(0.05)
    assert view["results"] and view["hand"]["history"] == []
    ann.goto(f"{server.base}/game/{gid}")
    ann.wait_for_selector("#hand-end:not([hidden])")
    ann.wait_for_selector("#watch-share:not([hidden])", timeout=5000)
    assert ann.is_hidden("#watch-label") and ann.is_visible("#hand-end")

    watcher_context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    watcher = watcher_context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(f"{server.base}/game/{gid}#watch")
    watcher.wait_for_selector("#hand-end:not([hidden])")
    watcher.wait_for_selector("#watch-label:not([hidden])", timeout=5000)
    assert "Watching" in watcher.inner_text("#watch-label")
    assert watcher.is_visible("#hand-end")
    assert watcher.is_hidden("#actions") and watcher.is_hidden("#watch-share")
    assert not errors, errors
    ann_context.close()
    watcher_context.close()
