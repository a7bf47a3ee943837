"""A game's address that leads to no game, in real Chromium against a real ``ginrummy serve``:
a well-formed id the server does not know, or an address that is no game's id at all. The
page says so in plain words, with the way back to the lobby, and draws no empty table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

import web_support
from web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

browser = web_support.browser
page = web_support.page
server = web_support.server


MISSING = "There is no game at this address: the link is wrong, or the game no longer exists."
MALFORMED = "This link is wrong: it is not the address of a game. Check that it was copied whole."


def shows_no_game(page: Page, text: str) -> None:
    """The no-game page with ``text``, nothing of the table, and a working way to the lobby."""
    page.wait_for_selector("#no-game:not([hidden])")
    assert page.inner_text("#no-game-title") == "No such game"
    assert page.inner_text("#no-game-text") == text
    assert page.title() == "Gin Rummy: no such game"
    for hidden in ("#table", "#lobby", "#btn-knock", "#btn-hint", "#stock", "#my-name"):
        assert not page.is_visible(hidden), hidden
    assert page.inner_text("#no-game-lobby") == "Back to the lobby"
    page.click("#no-game-lobby")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.is_hidden("#no-game")
    assert page.evaluate("location.pathname") == "/"


def test_a_game_that_does_not_exist_says_so(page: Page, server: Server) -> None:
    page.goto(f"{server.base}/game/{'0' * 32}")
    shows_no_game(page, MISSING)
    assert not page.is_visible("#conn")
    assert not [e for e in page.console_errors if "WebSocket" not in e]  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["zzz", "last-not-hex", "upper-case", "join", "replay"])
def test_a_badly_formed_game_address_says_so(page: Page, server: Server, kind: str) -> None:
    made = httpx.post(f"{server.base}/api/games", json={"opponent": "ai"}, timeout=30)
    made.raise_for_status()
    real = made.json()["game_id"]
    path = {
        "zzz": "/game/zzz",
        "last-not-hex": f"/game/{real[:-1]}g",
        "upper-case": f"/game/{real.upper()}",
        "join": "/join/zzz",
        "replay": f"/replay/{real[:-1]}-",
    }[kind]
    page.goto(server.base + path)
    shows_no_game(page, MALFORMED)
