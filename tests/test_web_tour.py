"""Faults found on a person's tour of the web table, in real Chromium against a real
``ginrummy serve``: an address that leads nowhere, a table the server refuses, the Hint button
offline, the history's final scores, the last move on a phone, the settings under a finger.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

import web_support
from web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

pytestmark = pytest.mark.browser

browser = web_support.browser
page = web_support.page
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
    strict: BrowserContext, live_server: Server, path: str
) -> None:
    page = strict.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    answer = page.goto(live_server.base + path)
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
