"""The table stages every move: your own at once, then the opponent's one by one with its
own motion; the cut and the deal are seen; everything is in view on a desktop, a phone and a
phone held sideways; the card back can be chosen; every text on the felt reaches WCAG AA;
the words have the right grammar for both seats. Real Chromium against a real
``ginrummy serve`` (see test_web_table).
"""

from __future__ import annotations

import itertools
import re
import time
from typing import TYPE_CHECKING, Any

import pytest

import web_support
from ginrummy.engine.game import cut_cards, cut_for_deal
from ginrummy.server.bot import greedy_action
from test_web_table import (
    first_deal,
    game_id,
    page_version,
    player_token,
    server_view,
    start_ai_game,
)
from web_support import Server, artifact, polite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

browser = web_support.browser
page = web_support.page
server = web_support.server


def new_game(page: Page, server: Server, speed: str = "normal", level: str = "easy") -> None:
    """A game against the AI from the lobby, at ``speed``, with motion (no fewer animations),
    its first hand on the table (``test_web_table.first_deal``)."""
    first_deal(page, server, lambda: new_game_once(page, server, speed, level))


def new_game_once(page: Page, server: Server, speed: str, level: str) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#settings summary")
    page.select_option("#speed", speed)
    page.click("#settings summary")
    page.fill("#name", "Ann")
    page.select_option("#level", level)
    page.select_option("#preset", "classic")
    page.click("#play-ai")


def settled(page: Page, server: Server, timeout: float = 30) -> dict[str, Any]:
    """Wait until the page has drawn the server's newest view and finished staging it."""
    deadline = time.monotonic() + timeout
    while True:
        if page.is_visible("#hand-end"):  # the next deal waits for the dialog
            page.click("#btn-next")
        view = server_view(server, page)
        done = page.evaluate("document.body.dataset.staging === 'false'")
        if done and page_version(page) == view["version"]:
            return view
        assert time.monotonic() < deadline, "the page never settled"
        time.sleep(0.05)


def act_by_api(server: Server, page: Page, action: str, version: int) -> None:
    r = polite(
        "POST",
        f"{server.base}/api/games/{game_id(page)}/actions",
        json={"action": action, "version": version},
        headers={"Authorization": f"Bearer {player_token(page)}"},
    )
    r.raise_for_status()


def until_my_discard(page: Page, server: Server) -> dict[str, Any]:
    """Play the person's draws by the API until the page shows a turn to discard."""
    for _ in range(40):
        view = settled(page, server)
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and any(
            a.startswith("discard ") for a in hand["legal_actions"]
        ):
            return view
        if hand["to_act"] == view["seat"]:
            legal = hand["legal_actions"]
            act_by_api(server, page, "stock" if "stock" in legal else "pass", view["version"])
        else:
            time.sleep(0.1)
    raise AssertionError("no turn to discard came")


# JavaScript: watch the table and record, with times, every line added to the log, every
# change in the size of the opponent's hand, and whether the card that came moved.
WATCH = """() => {
  window.seen = [];
  const t0 = performance.now();
  new MutationObserver(() => {
    const last = document.querySelector('#log p:last-child');
    window.seen.push({kind: 'log', text: last ? last.textContent : '', t: performance.now() - t0});
  }).observe(document.querySelector('#log'), {childList: true});
  let size = document.querySelectorAll('#opp-hand .card').length;
  new MutationObserver(() => {
    const cards = [...document.querySelectorAll('#opp-hand .card')];
    if (cards.length === size) return;
    const moving = cards.length > size && cards.some((c) => c.getAnimations().length > 0);
    size = cards.length;
    window.seen.push({kind: 'opp', size, moving, t: performance.now() - t0});
  }).observe(document.querySelector('#opp-hand'), {childList: true});
  new MutationObserver(() => {
    const top = document.querySelector('#pile-cards .card:last-child');
    if (!top) return;
    window.seen.push({kind: 'pile', card: top.dataset.card, moving: top.getAnimations().length > 0,
                      t: performance.now() - t0});
  }).observe(document.querySelector('#pile-cards'), {childList: true});
}"""

# JavaScript: click a card of the hand (select it first), and measure how long until it has
# left the hand, frame by frame.
DISCARD_AND_TIME = """(card) => new Promise((resolve) => {
  const sel = `#hand .card[data-card="${card}"]`;
  const el = document.querySelector(sel);
  const start = performance.now();
  const at = {bubbles: true, button: 0, pointerId: 1, clientX: 5, clientY: 5};
  el.dispatchEvent(new PointerEvent('pointerdown', at));
  document.dispatchEvent(new PointerEvent('pointerup', at));
  // gone when the click has been handled (then painted in the next frame), or by a frame
  if (!document.querySelector(sel)) { resolve(performance.now() - start); return; }
  const frame = () => {
    if (!document.querySelector(sel)) resolve(performance.now() - start);
    else if (performance.now() - start > 3000) resolve(null);
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})"""


def test_your_discard_shows_at_once_then_each_opponent_action_in_order(
    page: Page, server: Server
) -> None:
    new_game(page, server, speed="normal")
    for _ in range(6):  # a few turns, until the AI replies with a draw and a discard
        view = until_my_discard(page, server)
        hand = view["hand"]
        card = greedy_action(hand).split()[1]
        if f"discard {card}" not in hand["legal_actions"]:
            card = next(a.split()[1] for a in hand["legal_actions"] if a.startswith("discard "))
        page.click(f'#hand .card[data-card="{card}"]', position={"x": 6, "y": 24})  # select
        page.wait_for_selector(f'#hand .card.selected[data-card="{card}"]')
        page.evaluate(WATCH)
        took = page.evaluate(DISCARD_AND_TIME, card)
        assert took is not None and took <= 250, f"the discard took {took} ms to leave the hand"
        after = settled(page, server)
        seen: list[dict[str, Any]] = page.evaluate("window.seen")
        fresh = after["hand"]["history"][len(hand["history"]) :]
        if after["hand"]["hand_number"] != hand["hand_number"] or len(fresh) < 3:
            continue  # the hand ended (or the AI knocked): try another turn
        logs = [e for e in seen if e["kind"] == "log"]
        # the log has the person's discard, then each of the AI's actions, in order
        assert logs[0]["text"] == f"You discarded {card_text(card)}."
        ai = [e for e in fresh[1:]]
        assert len(logs) == 1 + len(ai), seen
        for event, line in zip(ai, logs[1:], strict=True):
            assert line["text"].startswith("AI (easy) "), line
            if event["action"].startswith("discard"):
                assert line["text"].endswith(f"discarded {card_text(event['action'].split()[1])}.")
        # one by one: a beat apart (the normal speed waits 550 ms; allow for a busy machine)
        gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(logs)]
        assert all(g >= 350 for g in gaps), gaps
        # the AI's draw came to its hand by itself, in motion; its discard flew to the pile
        opp = [e for e in seen if e["kind"] == "opp"]
        assert [e["size"] for e in opp] == [11, 10], opp
        assert opp[0]["moving"], "the AI's draw did not move"
        pile = [
            e for e in seen if e["kind"] == "pile" and e["card"] == fresh[-1]["action"].split()[1]
        ]
        assert pile and pile[0]["moving"], seen
        assert opp[0]["t"] < pile[0]["t"]  # the draw before the discard
        page.screenshot(path=str(artifact("staged-desktop.png")))
        return
    raise AssertionError("no turn with the AI drawing and discarding after it")


def card_text(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + "♠♥♦♣"["shdc".index(card[1])]


def test_the_cut_is_shown_then_the_deal_card_by_card(page: Page, server: Server) -> None:
    for _ in range(5):  # a first hand the AI ended at once (new_game) is left for a new game
        page.goto(server.base + "/")
        page.wait_for_selector("#lobby:not([hidden])")
        page.fill("#name", "Ann")
        page.click("#play-ai")
        page.wait_for_selector("#cut:not([hidden])")
        view = server_view(server, page)
        if not view["results"]:
            break
    else:
        raise AssertionError("five games in a row began with a finished hand")
    # the page works the cut out itself (fairness.js); the engine's cut is the truth
    pairs = cut_cards(game_id(page))
    cut = {"cards": [[str(a), str(b)] for a, b in pairs], "dealer": cut_for_deal(game_id(page))}
    assert cut["dealer"] == view["hand"]["dealer"]
    seat = view["seat"]
    mine, theirs = cut["cards"][-1][seat], cut["cards"][-1][1 - seat]
    text = page.inner_text("#cut-text")
    assert text.startswith("The cut: ") and card_text(mine) in text and card_text(theirs) in text
    dealer = "you deal" if cut["dealer"] == seat else "AI (normal) deals"
    assert text.endswith(f"The higher card deals: {dealer}.")
    # the two cut cards are shown face up, the dealer's marked, and nothing is dealt yet
    assert page.locator("#cut .card").count() == 2
    assert page.locator("#cut .card.winner").count() == 1
    assert page.locator("#hand .card").count() == 0
    page.screenshot(path=str(artifact("cut.png")))
    # then the deal: the person's cards come off the stock one after the other
    page.wait_for_selector("#cut", state="hidden", timeout=10000)
    page.wait_for_function("document.querySelectorAll('#hand .card').length >= 10")
    delays = page.evaluate(
        "[...document.querySelectorAll('#hand .card')]"
        ".map(e => e.getAnimations().map(a => a.effect.getTiming().delay))"
    )
    starts = sorted(d[0] for d in delays if d)
    assert len(starts) == 10 and len(set(starts)) == 10, delays  # one by one, not all at once
    log = page.inner_text("#log")
    assert log.startswith(text.split(".")[0])  # the cut is in the log too
    assert "Hand 1:" in log


def test_the_next_deal_waits_for_the_end_of_hand_dialog(page: Page, server: Server) -> None:
    new_game(page, server, speed="quick")
    first = settled(page, server)
    # the person plays by the API until the hand ends (the page only watches)
    for _ in range(400):
        view = server_view(server, page)
        if view["hand"]["hand_number"] > first["hand"]["hand_number"] or view["is_over"]:
            break
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and hand["legal_actions"]:
            act_by_api(server, page, greedy_action(hand), view["version"])
        else:
            time.sleep(0.05)
    page.wait_for_selector("#hand-end:not([hidden])", timeout=30000)
    # behind the dialog the table still shows the hand that ended, not the new deal
    new = server_view(server, page)
    behind = set(
        page.eval_on_selector_all("#hand .card[data-card]", "els => els.map(e => e.dataset.card)")
    )
    assert behind != set(new["hand"]["hand"])
    page.click("#btn-next")
    page.wait_for_function("document.querySelectorAll('#hand .card').length >= 10")
    page.wait_for_function(
        "[...document.querySelectorAll('#hand .card')].some(e => e.getAnimations().length > 0)",
        timeout=5000,
    )
    view = settled(page, server)
    shown = set(
        page.eval_on_selector_all("#hand .card[data-card]", "els => els.map(e => e.dataset.card)")
    )
    assert shown == set(view["hand"]["hand"])


def test_a_hand_that_ends_behind_an_open_dialog_is_drawn_before_its_own(
    page: Page, server: Server
) -> None:
    """Hands that end while an end-of-hand dialog is open (played here by the API, as the AI
    does when it ends a hand before the person moves) each get their dialog in order; the last
    hand, which ends the game, is drawn (its deal and moves) before its dialog, then the game's
    end."""
    start_ai_game(page, server, target="50")
    # the person plays by the API; the page watches and shows the first hand's end
    for _ in range(2000):
        view = server_view(server, page)
        if view["is_over"]:
            break
        hand = view["hand"]
        if view["results"] and not page.is_visible("#hand-end"):
            page.wait_for_selector("#hand-end:not([hidden])", timeout=15000)
        if hand["to_act"] == view["seat"] and hand["legal_actions"]:
            act_by_api(server, page, greedy_action(hand), view["version"])
        else:
            time.sleep(0.02)
    view = server_view(server, page)
    assert view["is_over"], "the game to 50 did not end"
    last = len(view["results"])
    # behind the first hand's dialog the table still shows that hand: nothing after it drawn
    page.wait_for_selector("#hand-end:not([hidden])", timeout=15000)
    assert page.inner_text("#he-title").startswith("Hand 1:")
    assert page.evaluate("document.body.dataset.hand") == "1"
    assert "Hand 2:" not in page.inner_text("#log")
    titles = []
    for _ in range(last):
        page.wait_for_selector("#hand-end:not([hidden])", timeout=15000)
        title = page.inner_text("#he-title")
        titles.append(title.split(":")[0])
        if title.startswith(f"Hand {last}:"):
            # the game's last hand is on the table behind its dialog, drawn to its end
            assert page.evaluate("document.body.dataset.hand") == str(last)
            assert page.evaluate("document.body.dataset.version") == str(view["version"])
            log = page.inner_text("#log")
            assert f"Hand {last}:" in log
        page.click("#btn-next")
    assert titles == [f"Hand {n}" for n in range(1, last + 1)]
    page.wait_for_selector("#game-end:not([hidden])", timeout=15000)


# --- everything in view --------------------------------------------------------------------

IN_VIEW = """() => {
  const out = [];
  const w = innerWidth, h = innerHeight;
  const check = (what, el) => {
    if (!el) { out.push(`${what}: missing`); return; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { out.push(`${what}: not shown`); return; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5) {
      const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      out.push(`${what}: ${box} outside ${w}x${h}`);
    }
  };
  for (const el of document.querySelectorAll('#hand .card')) check(`card ${el.dataset.card}`, el);
  for (const el of document.querySelectorAll('#opp-hand .card')) check('opponent card', el);
  check('stock', document.querySelector('#stock'));
  check('pile', document.querySelector('#pile'));
  check('turn line', document.querySelector('#turn'));
  for (const el of document.querySelectorAll('#actions button:not([hidden])')) {
    check(`button ${el.id}`, el);
  }
  const strip = document.querySelector('#last-move');
  const log = document.querySelector('#log p:last-child');
  const newest = getComputedStyle(strip).display !== 'none' ? strip : log;
  check('newest move', newest);
  const width = document.documentElement.scrollWidth;
  if (scrollY !== 0 || width > w) out.push(`scrolled: ${scrollY}, width ${width}`);
  return out;
}"""

SCREENS = {
    "desktop": ({"width": 1366, "height": 800}, False),
    "phone": ({"width": 390, "height": 844}, True),
    "landscape": ({"width": 844, "height": 390}, True),
}


@pytest.mark.parametrize("large", [False, True], ids=["cards", "large-cards"])
@pytest.mark.parametrize("screen", list(SCREENS), ids=list(SCREENS))
def test_everything_is_in_view(browser: Browser, server: Server, screen: str, large: bool) -> None:
    size, mobile = SCREENS[screen]
    context = browser.new_context(
        viewport=size, is_mobile=mobile, has_touch=mobile, bypass_csp=True
    )
    p = context.new_page()
    p.goto(server.base + "/")
    p.wait_for_selector("#lobby:not([hidden])")
    p.evaluate(
        "localStorage.setItem('gr.speed', 'instant');"
        f" localStorage.setItem('gr.large', '{int(large)}')"
    )
    p.reload()
    p.wait_for_selector("#lobby:not([hidden])")
    p.fill("#name", "Ann")
    p.click("#play-ai")
    # (a first hand the AI ended at once shows its end first: settled() goes on past it)
    p.wait_for_selector("#hand .card, #hand-end:not([hidden])")
    view = settled(p, server)
    # an eleven-card hand is the widest: draw first when it is the person's turn to draw
    hand = view["hand"]
    if hand["to_act"] == view["seat"] and "stock" in hand["legal_actions"]:
        act_by_api(server, p, "stock", view["version"])
        settled(p, server)
    assert p.evaluate("document.body.classList.contains('large')") == large
    problems = p.evaluate(IN_VIEW)
    p.screenshot(path=str(artifact(f"in-view-{screen}-{'large' if large else 'normal'}.png")))
    assert problems == []
    context.close()


# --- art: the card back ---------------------------------------------------------------------


def test_a_card_back_can_be_chosen_and_is_kept(page: Page, server: Server) -> None:
    new_game(page, server, speed="instant")
    settled(page, server)
    options = page.eval_on_selector_all("#card-back option", "els => els.map(e => e.value)")
    assert len(options) >= 4 and options[0] == "lattice"
    before = page.inner_html("#stock .stack")
    opponent_before = page.inner_html("#opp-hand .card.back")
    page.click("#settings summary")
    page.select_option("#card-back", "rosette")
    page.click("#settings summary")
    after = page.inner_html("#stock .stack")
    assert after != before
    assert page.inner_html("#opp-hand .card.back") != opponent_before
    page.reload()
    page.wait_for_selector("#hand .card")
    settled(page, server)
    assert page.input_value("#card-back") == "rosette"
    assert page.inner_html("#stock .stack") == after
    page.click("#settings summary")
    for design in options:  # every back draws (an SVG that fills its card)
        page.select_option("#card-back", design)
        box = page.locator("#stock .stack svg").bounding_box()
        assert box and box["width"] > 40 and box["height"] > 1.3 * box["width"]
    page.screenshot(path=str(artifact("card-back.png")))


# --- contrast -----------------------------------------------------------------------------

CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const hex = getComputedStyle(document.body).getPropertyValue('--felt-1').trim();
  const felt = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const out = [];
  for (const el of document.querySelectorAll('#felt *')) {
    if (el.closest('.card, button, svg, [hidden]')) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim()).join('');
    if (!text || el.getClientRects().length === 0) continue;
    // the background behind the text: the nearest ancestor that paints one, else the felt
    let bg = felt;
    for (let a = el; a && a.id !== 'felt'; a = a.parentElement) {
      const c = getComputedStyle(a).backgroundColor;
      const alpha = c.startsWith('rgba') ? Number(c.match(/[\\d.]+/g)[3]) : 1;
      if (c !== 'rgba(0, 0, 0, 0)' && alpha >= 0.85) { bg = rgb(c); break; }
    }
    const r = ratio(rgb(getComputedStyle(el).color), bg);
    const what = `${el.tagName}#${el.id}.${el.className}`;
    if (r < 4.5) out.push(`${what} "${text.slice(0, 30)}" ${r.toFixed(2)}`);
  }
  return out;
}"""


def test_every_text_on_every_felt_reaches_aa_contrast(page: Page, server: Server) -> None:
    new_game(page, server, speed="instant")
    view = settled(page, server)
    if view["hand"]["to_act"] == view["seat"] and "stock" in view["hand"]["legal_actions"]:
        act_by_api(server, page, "stock", view["version"])
        settled(page, server)
    page.keyboard.press("k")  # a refusal message in the status line, with the error colour
    assert page.inner_text("#status")
    for theme in ("green", "blue", "burgundy"):
        page.click("#settings summary")
        page.select_option("#theme", theme)
        page.click("#settings summary")
        low = page.evaluate(CONTRAST)
        assert low == [], f"{theme}: {low}"


# --- words ----------------------------------------------------------------------------------

EXPLAIN = """async ([seat, result]) => {
  const state = await import('/static/state.js');
  const dialogs = await import('/static/dialogs.js');
  state.S.seat = seat;
  return dialogs.explain(result, (s) => (s === seat ? 'You' : 'Ann'));
}"""


def hand_result(
    kind: str, knocker: int, deadwood: list[int], points: int, layoffs: list[Any] | None = None
) -> dict[str, Any]:
    """A hand's result as the view gives it, for the dialog's sentences."""
    return {
        "kind": kind,
        "knocker": knocker,
        "deadwood": deadwood,
        "points": points,
        "multiplier": 1,
        "layoffs": layoffs or [],
    }


def test_the_score_is_explained_with_the_right_grammar_for_both_seats(
    page: Page, server: Server
) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    undercut = hand_result("undercut", knocker=1, deadwood=[6, 8], points=27)
    # the person was undercut by Ann, or undercut her
    assert page.evaluate(EXPLAIN, [1, undercut]) == (
        "Undercut! You knocked with 8, but Ann has 6:"
        " Ann scores the difference plus the undercut bonus, 27."
    )
    assert page.evaluate(EXPLAIN, [0, undercut]) == (
        "Undercut! Ann knocked with 8, but you have 6:"
        " you score the difference plus the undercut bonus, 27."
    )
    gin = hand_result("gin", knocker=0, deadwood=[0, 14], points=39)
    assert page.evaluate(EXPLAIN, [1, gin]).startswith(
        "Ann went gin: your deadwood 14 plus the gin bonus makes 39."
    )
    assert page.evaluate(EXPLAIN, [0, gin]).startswith("You went gin: Ann's deadwood 14 plus")
    knock = hand_result(
        "knock", knocker=0, deadwood=[4, 12], points=8, layoffs=[{"card": "Th", "meld": 0}]
    )
    assert (
        page.evaluate(EXPLAIN, [0, knock])
        == "You knocked with 4 against 12 after laying off 10♥: 12 − 4 = 8."
    )
    assert not re.search(r"\bYou (has|scores)\b", page.evaluate(EXPLAIN, [0, undercut]))


def test_the_lobby_explains_each_level_and_preset(page: Page, server: Server) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    seen = set()
    for level in ("easy", "normal", "hard", "expert", "master"):
        page.select_option("#level", level)
        about = page.inner_text("#level-about")
        assert about.startswith(level.capitalize() + ": ") and len(about) > 40
        seen.add(about)
    for preset in ("tournament", "classic", "app", "parlor"):
        page.select_option("#preset", preset)
        about = page.inner_text("#preset-about")
        assert about.startswith(preset.capitalize() + ": ") and len(about) > 40
        seen.add(about)
    assert len(seen) == 9
    assert page.get_attribute("#level", "aria-describedby") == "level-about"


def test_a_refused_move_goes_back_with_the_reason(page: Page, server: Server) -> None:
    new_game(page, server, speed="instant")
    view = until_my_discard(page, server)
    card = next(a.split()[1] for a in view["hand"]["legal_actions"] if a.startswith("discard "))
    # the page believes an older version: the server refuses the move it sends as stale
    page.evaluate("async () => { (await import('/static/state.js')).S.view.version -= 1; }")
    page.click(f'#hand .card[data-card="{card}"]', position={"x": 6, "y": 24})
    page.wait_for_selector(f'#hand .card.selected[data-card="{card}"]')
    page.evaluate(WATCH)
    took = page.evaluate(DISCARD_AND_TIME, card)
    assert took is not None and took <= 250  # drawn at once, before the answer
    # the refusal brings the card back, says why, and the table syncs to the server's view
    page.wait_for_selector(f'#hand .card[data-card="{card}"]')
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert page.evaluate("document.querySelector('#status').classList.contains('error')")
    assert "moved on" in page.inner_text("#status") or "stale" in page.inner_text("#status")
    again = settled(page, server)
    assert again["version"] == view["version"]  # nothing was played
    shown = page.eval_on_selector_all(
        "#hand .card[data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(view["hand"]["hand"])
    assert not [e for e in page.evaluate("window.seen") if e["kind"] == "log"]  # nothing logged


def test_your_stock_draw_shows_face_down_at_once_then_its_card(page: Page, server: Server) -> None:
    new_game(page, server, speed="instant")
    for _ in range(40):  # the person's first turn to draw from the stock
        view = settled(page, server)
        hand = view["hand"]
        if hand["to_act"] == view["seat"] and "stock" in hand["legal_actions"]:
            break
        if hand["to_act"] == view["seat"]:
            act_by_api(server, page, "pass", view["version"])
        time.sleep(0.1)
    else:
        raise AssertionError("no turn to draw came")
    # right after the click, before any answer: a face-down card at the end of the hand
    shown = page.evaluate(
        """() => {
          document.querySelector('#stock').click();
          const cards = [...document.querySelectorAll('#hand .card')];
          return {count: cards.length, last: cards[cards.length - 1].dataset.card,
                  back: cards[cards.length - 1].classList.contains('back')};
        }"""
    )
    assert shown == {"count": 11, "last": "??", "back": True}
    after = settled(page, server)
    drawn = after["hand"]["history"][-1]["card"]
    cards = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert "??" not in cards and drawn in cards and len(cards) == 11
    assert page.locator(f'#hand .card.drawn[data-card="{drawn}"]').count() == 1
