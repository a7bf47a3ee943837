"""The replay page (``/replay/{id}``, web/static/history.js and replay.js) in real Chromium.

* replay.js's deadwood-minimal arrangement against the engine's (:func:`ginrummy.melds.arrange`)
  on random hands of ten and eleven cards;
* a finished game's replay: the players named, every move in words with suit symbols (checked
  against the record, move by move), no engine notation anywhere on the page;
* the last position of a knocked hand: both arrangements, the cards laid off marked on the
  knocker's melds, both deadwoods and the score line;
* autoplay: it steps by itself, pauses, stops on a step by hand, Space toggles it, and it stops
  at the end of the hand; the page fits a phone and a desktop.

The games are played through the HTTP API against the easy AI, to 10 points (one or two
hands), by the research baseline's moves (``greedy_action``). Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

import web_support
from ginrummy.cards import DECK
from ginrummy.melds import arrange, is_meld
from ginrummy.server.bot import greedy_action
from web_support import Server, artifact, polite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

browser = web_support.browser  # fixtures, by name
page = web_support.page
static_server = web_support.static_server

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
CARDS = [str(c) for c in DECK]
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
ENGINE_NOTATION = re.compile(
    r"\b(?:discard|knock|gin|take|pass|stock|pile|big-gin)\s+[AKQJT2-9][shdc]\b"
    r"|\b[KQJT2-9][shdc]\b|\bSeat [01]\b|\(you\)"
)
"""Engine notation ("discard Qh", a bare "Qh"), seat numbers and "(you)": none on the page."""


def card_text(card: str) -> str:
    """As cards.js's cardText: "Q♥", "10♠"."""
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOL[card[1]]


# --- games through the HTTP API -----------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module; its rate limits lifted, since the games are played by a
    loop of HTTP requests."""
    db = tmp_path_factory.mktemp("replay") / "games.db"
    rates = ["--http-rate", "10000", "--create-rate", "10000"]
    with Server(str(db), extra_args=rates) as srv:
        yield srv


def new_player(server: Server, name: str | None) -> str:
    r = httpx.post(f"{server.base}/api/players", json={"name": name}, timeout=10)
    r.raise_for_status()
    return str(r.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def get_view(server: Server, game_id: str, token: str | None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    r = polite("GET", f"{server.base}/api/games/{game_id}", headers=headers)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def play_game(
    server: Server,
    token: str,
    name: str | None,
    policy: Callable[[dict[str, Any]], str] = greedy_action,
) -> dict[str, Any]:
    """A game against the easy AI to 10 points, played to its end by ``policy`` through the
    API; returns the final view."""
    r = httpx.post(
        f"{server.base}/api/games",
        json={"opponent": "ai", "level": "easy", "preset": "classic", "target": 10, "name": name},
        headers=auth(token),
        timeout=10,
    )
    r.raise_for_status()
    game_id = r.json()["game_id"]
    for _ in range(5000):
        view = get_view(server, game_id, token)
        if view["is_over"]:
            return view
        hand = view["hand"]
        assert hand["to_act"] == view["seat"] and hand["legal_actions"], hand
        move = {"action": policy(hand), "version": view["version"]}
        polite(
            "POST", f"{server.base}/api/games/{game_id}/actions", json=move, headers=auth(token)
        ).raise_for_status()
    raise AssertionError("the game did not finish")


def never_knock(hand: dict[str, Any]) -> str:
    """The baseline's move, but never ending the hand: the AI knocks, and a hand full of
    deadwood often lays off."""
    action = greedy_action(hand)
    kind, _, card = action.partition(" ")
    if kind in ("knock", "gin"):
        return f"discard {card}"
    return "discard " + hand["hand"][0] if kind == "big-gin" else action


@pytest.fixture(scope="module")
def ann_game(server: Server) -> tuple[str, dict[str, Any]]:
    """Ann's finished game: her player token and the game's final view (for her seat)."""
    token = new_player(server, "Ann")
    for _ in range(10):
        view = play_game(server, token, "Ann")
        # the autoplay test watches the first hand step, pause and step again: a first hand
        # ended within a few moves (a knock on the first turn, under 1 % of games) is too short
        if len(record_of(server, view["game_id"])["hands"][0]["actions"]) >= 8:
            return token, view
    raise AssertionError("ten games in a row with a first hand of fewer than eight moves")


@pytest.fixture(scope="module")
def layoff_game(server: Server) -> tuple[str, dict[str, Any], int]:
    """A finished game with a knocked hand where the defender laid off: Ann's token, the
    final view, and the index of that hand."""
    token = new_player(server, "Ann")
    for _ in range(60):
        view = play_game(server, token, "Ann", policy=never_knock)
        for i, result in enumerate(view["results"]):
            if result["kind"] == "knock" and result["layoffs"]:
                return token, view, i
    raise AssertionError("no knocked hand with a lay-off in 60 games")


def record_of(server: Server, game_id: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/games/{game_id}/record", timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


# --- the page -----------------------------------------------------------------------------


def open_replay(
    browser: Browser, server: Server, game_id: str, token: str | None, viewport: dict[str, int]
) -> Page:
    """The replay page in a new context: as the player of ``token`` (None: someone else)."""
    phone = viewport == PHONE
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        is_mobile=phone,
        has_touch=phone,
        bypass_csp=True,
    )
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.console_errors = errors  # type: ignore[attr-defined]
    if token is not None:
        p.add_init_script(f"localStorage.setItem('gr.player', {json.dumps(token)})")
    p.goto(f"{server.base}/replay/{game_id}")
    p.wait_for_function("document.querySelector('#rp-pos').textContent.startsWith('Move 0 of')")
    return p


def position(p: Page) -> int:
    m = re.fullmatch(r"Move (\d+) of (\d+)", p.inner_text("#rp-pos"))
    assert m, p.inner_text("#rp-pos")
    return int(m.group(1))


def moves_in_words(record_hand: dict[str, Any], name: Callable[[int, bool], str]) -> list[str]:
    """What the page must say for the deal and each action of a hand, every card named
    (the stock's too: the game is over). ``name(seat, start)``: the seat as a subject."""
    deck = record_hand["deck"].split()
    dealer = record_hand["dealer"]
    pile = [deck[20]]
    stock = 21
    seat = 1 - dealer
    phase = "offer"
    out = [f"Hand {{n}}: {name(dealer, False)} dealt; the upcard is {card_text(deck[20])}."]
    for action in record_hand["actions"]:
        kind, _, card = action.partition(" ")
        who = name(seat, True)
        if kind == "pass":
            out.append(f"{who} passed the upcard {card_text(pile[-1])}.")
            phase, seat = ("dealer", dealer) if phase == "offer" else ("first", 1 - dealer)
            continue
        if kind == "take":
            out.append(f"{who} took the upcard {card_text(pile.pop())}.")
        elif kind == "pile":
            out.append(f"{who} took {card_text(pile.pop())} from the discard pile.")
        elif kind == "stock":
            out.append(f"{who} drew from the stock: {card_text(deck[stock])}.")
            stock += 1
        elif kind == "discard":
            out.append(f"{who} discarded {card_text(card)}.")
            pile.append(card)
            seat = 1 - seat
        elif kind == "knock":
            out.append(f"{who} knocked, discarding {card_text(card)}.")
        elif kind == "gin":
            out.append(f"{who} went gin, discarding {card_text(card)}.")
        else:
            assert kind == "big-gin", action
            out.append(f"{who} went Big Gin with all eleven cards!")
    return out


def namer(names: list[str | None], me: int | None) -> Callable[[int, bool], str]:
    """The page's names in a sentence: "You"/"you" for the viewer, else the player's name
    ("Your opponent", or "Player 2" for a viewer in neither seat, when unnamed)."""

    def name(seat: int, start: bool) -> str:
        if seat == me:
            return "You" if start else "you"
        if names[seat]:
            return str(names[seat])
        if me is not None:
            return "Your opponent" if start else "your opponent"
        return f"Player {seat + 1}"

    return name


def fits(p: Page, width: int) -> None:
    """Nothing on the page is wider than the screen."""
    wide = p.evaluate(
        f"""[...document.querySelectorAll('#replay *')]
          .filter((e) => e.getBoundingClientRect().right > {width} + 0.5)
          .map((e) => e.tagName + '#' + e.id + '.' + e.className)"""
    )
    assert p.evaluate("document.documentElement.scrollWidth") <= width, wide
    assert not wide, wide


# --- the tests ----------------------------------------------------------------------------


def random_hands() -> list[list[str]]:
    """Hands of 10 and 11 cards: from the whole deck, and from a few ranks only (sets, runs
    and their overlaps, where an arrangement has choices to make); and some by hand."""
    rng = random.Random(20250611)
    texts = [
        "As 2s 3s 4s 5s 5h 5d 5c 6c 7c",
        "7s 7h 7d 7c 8c 9c 6c 5c 8h 9h Th",
        "As Ah Ad 2s 2h 2d 3s 3h 3d 4c",
        "Ks Qs Js Ts 9s Kh Kd Kc Qh Qd Qc",
        "4s 5s 6s 4h 5h 6h 4d 5d 6d 4c 5c",
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh",
        "Ks Kh Qd Jc 9s 8h 7d 6c 5s 4h",
    ]
    hands = [text.split() for text in texts]
    for _ in range(140):
        hands.append(rng.sample(CARDS, rng.choice((10, 11))))
    for _ in range(260):
        low = rng.randrange(0, 9)
        ranks = "A23456789TJQK"[low : low + rng.choice((3, 4, 5))]
        pool = [c for c in CARDS if c[0] in ranks] + rng.sample(CARDS, 4)
        pool = list(dict.fromkeys(pool))
        hands.append(rng.sample(pool, min(len(pool), rng.choice((10, 11)))))
    return hands


def test_js_arrangement_has_the_engines_deadwood(page: Page, static_server: Any) -> None:
    hands = random_hands()
    page.goto(static_server.base + "/")
    found = page.evaluate(
        """async (hands) => {
          const m = await import('/replay.js');
          const t0 = performance.now();
          const out = hands.map((h) => m.arrangeHand(h));
          return { out, ms: performance.now() - t0 };
        }""",
        hands,
    )
    assert found["ms"] < 3000, f"{len(hands)} hands took {found['ms']:.0f} ms"
    melded_hands = 0
    for hand, js in zip(hands, found["out"], strict=True):
        engine = arrange(hand)
        assert js["deadwood_points"] == engine.deadwood_points, (hand, js, str(engine))
        # a real arrangement of exactly these cards: melds, then deadwood worth its points
        laid = [c for meld in js["melds"] for c in meld] + js["deadwood"]
        assert sorted(laid) == sorted(hand), (hand, js)
        assert all(is_meld(meld) for meld in js["melds"]), (hand, js)
        assert js["deadwood_points"] == sum(
            min(10, "A23456789TJQK".index(c[0]) + 1) for c in js["deadwood"]
        )
        melded_hands += bool(js["melds"])
    assert melded_hands > len(hands) // 2  # the hands do exercise melds


def test_a_finished_games_replay_names_the_players_in_words(
    browser: Browser, server: Server, ann_game: tuple[str, dict[str, Any]]
) -> None:
    token, view = ann_game
    game_id, me = view["game_id"], view["seat"]
    record = record_of(server, game_id)
    assert view["names"][me] == "Ann"
    # as Ann, then as someone else who opens the address
    for viewer_token, viewer_seat in ((token, me), (None, None)):
        p = open_replay(browser, server, game_id, viewer_token, DESKTOP)
        name = namer(view["names"], viewer_seat)
        labels = [p.inner_text(f"#rp-name-{seat}") for seat in (0, 1)]
        assert labels[me].split()[0] == "Ann" and labels[1 - me].startswith("AI (easy)")
        assert ("you" in labels[me].split()) == (viewer_seat == me)
        for number, hand in enumerate(record["hands"], start=1):
            p.select_option("#rp-hand", str(number - 1))
            p.wait_for_function(
                "document.querySelector('#rp-pos').textContent.startsWith('Move 0')"
            )
            dealer = p.inner_text(f"#rp-name-{hand['dealer']}")
            assert "dealer" in dealer and "dealer" not in p.inner_text(
                f"#rp-name-{1 - hand['dealer']}"
            )
            words = moves_in_words(hand, name)
            assert p.inner_text("#rp-action") == words[0].format(n=number)
            for i, expected in enumerate(words[1:], start=1):
                p.click("#rp-next")
                assert position(p) == i
                assert p.inner_text("#rp-action") == expected
                if i % 7 == 0 or i == len(words) - 1:
                    text = p.inner_text("#replay")
                    assert not ENGINE_NOTATION.search(text), ENGINE_NOTATION.search(text)
            # the hands on the felt: the frame's cards, in melds and deadwood
            shown = sorted(
                p.eval_on_selector_all(
                    "#rp-hand-0 [data-card], #rp-hand-1 [data-card]",
                    "es => es.map(e => e.dataset.card)",
                )
            )
            assert len(shown) in (20, 21)
        text = p.inner_text("#replay")
        assert any(s in text for s in SUIT_SYMBOL.values())
        assert not ENGINE_NOTATION.search(text), ENGINE_NOTATION.search(text)
        assert not p.console_errors  # type: ignore[attr-defined]
        p.screenshot(path=str(artifact(f"replay-words-{'ann' if viewer_token else 'other'}.png")))
        p.context.close()


def test_an_unnamed_player_is_you(browser: Browser, server: Server) -> None:
    token = new_player(server, None)
    view = play_game(server, token, None)
    me = view["seat"]
    assert view["names"][me] is None
    p = open_replay(browser, server, view["game_id"], token, DESKTOP)
    assert p.inner_text(f"#rp-name-{me}").split()[0] == "You"
    p.click("#rp-last")
    text = p.inner_text("#replay")
    assert not ENGINE_NOTATION.search(text), ENGINE_NOTATION.search(text)
    assert "You (you)" not in text and "Opponent" not in text  # the AI has a name
    hand = p.inner_text("#rp-action")
    assert hand.startswith(("You ", "AI (easy) "))
    p.context.close()


def test_the_last_frame_of_a_knocked_hand_shows_melds_layoffs_and_the_score(
    browser: Browser, server: Server, layoff_game: tuple[str, dict[str, Any], int]
) -> None:
    token, view, index = layoff_game
    result = view["results"][index]
    me, k = view["seat"], result["knocker"]
    d = 1 - k
    assert k != me  # Ann never knocks: the AI did, and she laid off
    for viewport in (DESKTOP, PHONE):
        p = open_replay(browser, server, view["game_id"], token, viewport)
        p.select_option("#rp-hand", str(index))
        p.wait_for_function("document.querySelector('#rp-pos').textContent.startsWith('Move 0')")
        assert p.is_hidden("#rp-result")
        p.click("#rp-last")
        p.wait_for_selector("#rp-result:not([hidden])")
        # the knocker's melds, with the defender's lay-offs on them, marked
        knocker = p.locator(f"#rp-hand-{k}")
        arrangement = result["arrangements"][k]
        assert knocker.locator(".meld-group").count() == len(arrangement["melds"])
        for i, meld in enumerate(arrangement["melds"]):
            group = knocker.locator(f'.meld-group[data-meld="{i}"]')
            laid = [lo["card"] for lo in result["layoffs"] if lo["meld"] == i]
            cards = group.locator("[data-card]").evaluate_all("es => es.map(e => e.dataset.card)")
            assert sorted(cards) == sorted(meld + laid)
            marked = group.locator(".laid-off").evaluate_all("es => es.map(e => e.dataset.card)")
            assert sorted(marked) == sorted(laid)
        assert knocker.locator(".laid-off").count() == len(result["layoffs"])
        dead = knocker.locator(".deadwood-group [data-card]").evaluate_all(
            "es => es.map(e => e.dataset.card)"
        )
        assert sorted(dead) == sorted(arrangement["deadwood"])
        # the defender's own melds and deadwood, without the cards laid off
        defender = p.locator(f"#rp-hand-{d}")
        own = result["arrangements"][d]
        assert defender.locator(".meld-group").count() == len(own["melds"])
        dead = defender.locator(".deadwood-group [data-card]").evaluate_all(
            "es => es.map(e => e.dataset.card)"
        )
        assert sorted(dead) == sorted(own["deadwood"])
        assert defender.locator(".laid-off").count() == 0
        # both deadwoods, and the score line in words
        dw = result["deadwood"]
        laid_text = [card_text(lo["card"]) for lo in result["layoffs"]]
        laid_words = (
            laid_text[0]
            if len(laid_text) == 1
            else ", ".join(laid_text[:-1]) + " and " + laid_text[-1]
        )
        assert p.inner_text(f"#rp-dw-{k}") == f"Deadwood {dw[k]}"
        assert p.inner_text(f"#rp-dw-{d}") == f"Deadwood {dw[d]} after laying off {laid_words}"
        assert "knocked" in p.inner_text(f"#rp-name-{k}")
        line = p.inner_text("#rp-result")
        expected = (
            f"Knock AI (easy) knocked with {dw[k]}; you had {dw[d]} after laying off "
            f"{laid_words}: AI (easy) scores {result['points']}."
        )
        assert line.startswith(expected), (line, expected)
        assert result["points"] == dw[d] - dw[k]
        fits(p, viewport["width"])
        tag = "phone" if viewport == PHONE else "desktop"
        p.screenshot(path=str(artifact(f"replay-knock-{tag}.png")), full_page=True)
        assert not p.console_errors  # type: ignore[attr-defined]
        p.context.close()


def test_autoplay_steps_by_itself_and_stops(
    browser: Browser, server: Server, ann_game: tuple[str, dict[str, Any]]
) -> None:
    token, view = ann_game
    p = open_replay(browser, server, view["game_id"], token, DESKTOP)
    assert p.get_attribute("#rp-play", "aria-pressed") == "false"
    p.select_option("#rp-speed", "fast")
    p.click("#rp-play")
    assert p.get_attribute("#rp-play", "aria-pressed") == "true"
    assert p.inner_text("#rp-play").endswith("Pause")
    p.wait_for_function("document.querySelector('#rp-pos').textContent.startsWith('Move 2 ')")
    p.click("#rp-play")  # pause
    assert p.get_attribute("#rp-play", "aria-pressed") == "false"
    paused = position(p)
    time.sleep(1.5)
    assert position(p) == paused
    # Space toggles it, even with the focus on the Play button (which would take it as a
    # click too); a step by hand stops it
    p.focus("#rp-play")
    p.keyboard.press(" ")
    assert p.get_attribute("#rp-play", "aria-pressed") == "true"
    p.wait_for_function(
        f"document.querySelector('#rp-pos').textContent.startsWith('Move {paused + 1} ')"
    )
    p.keyboard.press("ArrowRight")
    assert p.get_attribute("#rp-play", "aria-pressed") == "false"
    stepped = position(p)
    assert stepped >= paused + 2
    time.sleep(1.0)
    assert position(p) == stepped
    # the steady pace: about a second a move at the normal speed
    p.select_option("#rp-speed", "normal")
    p.keyboard.press("End")
    total = position(p)
    p.keyboard.press("ArrowLeft")
    p.keyboard.press("ArrowLeft")
    start = time.monotonic()
    p.keyboard.press(" ")
    p.wait_for_function(
        f"document.querySelector('#rp-pos').textContent.startsWith('Move {total - 1} ')"
    )
    first = time.monotonic() - start
    assert 0.7 < first < 2.5, first
    # it stops at the end of the hand, with the result shown
    p.wait_for_selector("#rp-play[aria-pressed='false']", timeout=5000)
    assert position(p) == total
    assert p.is_visible("#rp-result")
    time.sleep(1.2)
    assert position(p) == total
    assert not p.console_errors  # type: ignore[attr-defined]
    p.context.close()


def test_the_replay_fits_a_phone_and_a_desktop(
    browser: Browser, server: Server, ann_game: tuple[str, dict[str, Any]]
) -> None:
    token, view = ann_game
    for viewport, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        p = open_replay(browser, server, view["game_id"], token, viewport)
        fits(p, viewport["width"])
        # the first moves: the deal, the upcard, eleven cards after a draw
        total = int(p.inner_text("#rp-pos").split()[-1])
        for i in range(1, min(total, 12) + 1):
            p.click("#rp-next")
            if i in (3, 4):
                fits(p, viewport["width"])
        fits(p, viewport["width"])
        p.screenshot(path=str(artifact(f"replay-{tag}.png")), full_page=True)
        p.context.close()


LONG_HAND = "As 2s 3s 5h 6h 7h 9d Td Jd 4c 8c"
"""Eleven cards in four groups: three melds and two deadwood cards."""


def test_a_long_hand_fits_one_row_on_a_phone(browser: Browser, server: Server) -> None:
    """Four groups of eleven cards (the most a hand can hold) stay on one row on a phone,
    so the page does not jump while it plays."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    p = context.new_page()
    p.goto(server.base + "/")
    rows = p.evaluate(
        """async (hand) => {
          const { arrangeHand } = await import('/static/replay.js');
          const { cardButton } = await import('/static/draw.js');
          const a = arrangeHand(hand);
          const row = document.createElement('div');
          row.className = 'rp-cards';
          for (const group of [...a.melds, a.deadwood]) {
            const g = document.createElement('span');
            g.className = 'meld-group';
            for (const c of group) g.append(cardButton(c, { tag: 'span' }));
            row.append(g);
          }
          const felt = document.createElement('div');
          felt.className = 'felt replay-felt';
          felt.append(row);
          const panel = document.querySelector('#replay .replay-panel');
          document.querySelector('#replay').hidden = false;
          for (const s of document.querySelectorAll('.page')) s.hidden = s.id !== 'replay';
          panel.append(felt);
          const tops = new Set([...row.querySelectorAll('.card')]
            .map((e) => Math.round(e.getBoundingClientRect().top)));
          const right = row.getBoundingClientRect().right;
          return { rows: tops.size, right, groups: row.childElementCount };
        }""",
        LONG_HAND.split(),
    )
    assert rows["groups"] == 4
    assert rows["rows"] == 1 and rows["right"] <= PHONE["width"], rows
    context.close()


def test_static_files_are_where_the_page_loads_them() -> None:
    """index.html loads replay.css, and every id history.js draws into is in the page."""
    static = Path(web_support.STATIC)
    html = (static / "index.html").read_text(encoding="utf-8")
    assert '<link rel="stylesheet" href="/static/replay.css">' in html
    script = (static / "history.js").read_text(encoding="utf-8")
    for found in sorted(set(re.findall(r'\$\("#(rp-[a-z0-9-]+)"\)', script))):
        assert f'id="{found}"' in html, found
