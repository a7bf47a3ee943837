"""Take the pictures of the table in docs/ afresh: a desktop (1366x800), a phone (390x844),
a phone held sideways (844x390), the cut at the start of a game, the end of a hand and the
replay. It starts its own ``ginrummy serve`` on 127.0.0.1 with a scratch database and drives
Debian's Chromium through Playwright (the test extra), as the browser tests do::

    .venv/bin/python docs/screenshots.py            # writes docs/*.png
    .venv/bin/python docs/screenshots.py --out /tmp  # somewhere else

The person's moves are the research baseline's (``greedy_action``), played over the HTTP API
so that the pictures show a hand in progress, with a meld or two and a move log.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

from ginrummy.server.bot import greedy_action

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def wait_ready(base: str) -> None:
    for _ in range(200):
        try:
            httpx.get(base + "/api/health", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def view_of(base: str, game: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def settle(page: Page, base: str, game: str, token: str) -> dict[str, Any]:
    view = view_of(base, game, token)
    page.wait_for_function(
        f"Number(document.body.dataset.version) >= {view['version']}"
        " && document.body.dataset.staging === 'false'",
        timeout=30000,
    )
    return view


def play_until(base: str, game: str, token: str, done: Any, limit: int = 300) -> dict[str, Any]:
    """The person's moves over the API until ``done(view)``."""
    for _ in range(limit):
        view = view_of(base, game, token)
        if done(view):
            return view
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and hand["legal_actions"]:
            httpx.post(
                f"{base}/api/games/{game}/actions",
                json={"action": greedy_action(hand), "version": view["version"]},
                headers={"Authorization": f"Bearer {token}"},
            ).raise_for_status()
        else:
            time.sleep(0.05)
    raise SystemExit("the game did not get there")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as tmp:
        serve = ["serve", "--port", str(args.port), "--db", f"{tmp}/games.db"]
        server = subprocess.Popen(
            [sys.executable, "-m", "ginrummy.cli", *serve, "--http-rate", "1000"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_ready(base)
            shoot(base, out, args.chromium)
        finally:
            server.terminate()
            server.wait(10)


def shoot(base: str, out: Path, chromium: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        desk = browser.new_context(viewport={"width": 1366, "height": 800}, bypass_csp=True)
        page = desk.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#lobby:not([hidden])")
        page.fill("#name", "Ann")
        page.select_option("#level", "expert")
        page.click("#play-ai")
        page.wait_for_selector("#cut:not([hidden])")
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / "cut.png"))
        token = page.evaluate("localStorage.getItem('gr.player')")
        game = page.url.rsplit("/", 1)[1]
        settle(page, base, game, token)

        # a hand in progress: several turns played, the person to discard (eleven cards)
        def mid_hand(v: dict[str, Any]) -> bool:
            h = v["hand"]
            mine = sum(1 for e in h["history"] if e["seat"] == v["seat"])
            melds = (h.get("arrangement") or {}).get("melds") or []
            return mine >= 6 and h["to_act"] == v["seat"] and len(h["hand"]) == 11 and bool(melds)

        view = play_until(base, game, token, lambda v: mid_hand(v) or v["results"])
        while not mid_hand(view):  # the hand ended first: try the next one
            settle(page, base, game, token)
            page.wait_for_selector("#hand-end:not([hidden])")
            page.click("#btn-next")
            seen = len(view["results"])
            view = play_until(
                base, game, token, lambda v, n=seen: mid_hand(v) or len(v["results"]) > n
            )
        settle(page, base, game, token)
        page.wait_for_timeout(800)  # the last card's motion ends
        page.screenshot(path=str(out / "table.png"))

        for name, size in (("table-phone", (390, 844)), ("table-landscape", (844, 390))):
            ctx = browser.new_context(
                viewport={"width": size[0], "height": size[1]},
                is_mobile=True,
                has_touch=True,
                bypass_csp=True,
            )
            # the same person on another screen: their token there before the page runs
            ctx.add_init_script(
                f"localStorage.setItem('gr.player', '{token}');"
                f" localStorage.setItem('gr.dealt.{game}', '99');"
                f" localStorage.setItem('gr.seen.{game}', '{len(view['results'])}')"
            )
            other = ctx.new_page()
            other.goto(f"{base}/game/{game}")
            settle(other, base, game, token)
            other.wait_for_timeout(800)
            other.screenshot(path=str(out / f"{name}.png"))
            ctx.close()

        # the end of a hand
        number = view["hand"]["hand_number"]
        play_until(base, game, token, lambda v: v["hand"]["hand_number"] > number or v["is_over"])
        page.wait_for_selector("#hand-end:not([hidden])")
        page.wait_for_selector("#fairness-status[data-ok='true']", timeout=20000)
        page.wait_for_timeout(1200)  # the lay-offs move
        page.screenshot(path=str(out / "hand-end.png"))
        page.click("#btn-next")

        # the replay, once the game is over (a game in play has no public record)
        play_until(base, game, token, lambda v: v["is_over"], limit=5000)
        page.goto(f"{base}/replay/{game}")
        page.wait_for_selector("#rp-hand-0 .card")
        page.click("#rp-last")
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / "replay.png"))
        browser.close()


if __name__ == "__main__":
    main()
