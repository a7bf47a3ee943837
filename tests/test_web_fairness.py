"""The browser's fairness check (web/static/fairness.js) in real Chromium, against Python.

The module is served from 127.0.0.1 (a secure context: SHA-256 from ``crypto.subtle``) and
from a plain-http name (not a secure context, as on a LAN address: the pure-JS SHA-256).
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import ginrummy
import web_support
from ginrummy.ai import player
from ginrummy.cards import shuffled_deck
from ginrummy.engine.game import GameState, cut_cards, cut_for_deal, hand_seed
from ginrummy.engine.hand import deal
from ginrummy.fairness import commitment
from ginrummy.record import record_of
from web_support import STATIC, StaticServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

browser = web_support.browser  # fixtures, by name
static_server = web_support.static_server

GOLDEN = Path(__file__).parent / "golden" / "shuffles.txt"
INSECURE_ORIGIN = "http://ginrummy-lan.test"


def golden_seeds() -> dict[str, str]:
    out = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        seed, _, deck = line.partition(": ")
        out[seed] = deck
    return out


def random_seeds() -> list[str]:
    rng = random.Random(20240611)
    alphabets = [
        "0123456789abcdef",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/-_ ",
        "äöüßéèñçøåÆŒ€£¥§±×÷",
        "♠♥♦♣😀🂡🃑日本語카드\u0000\t\n\u200d",
    ]
    seeds = ["", " ", "0", "\u0000", "x" * 55, "y" * 56, "z" * 64, "w" * 119, "😀" * 40]
    while len(seeds) < 50:
        alphabet = "".join(rng.sample(alphabets, rng.randint(1, len(alphabets))))
        seeds.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 90))))
    seeds += [f"{rng.getrandbits(256):064x}" for _ in range(5)]  # like the server's seeds
    return seeds


REJECTING_SEED = "reject-17669365"
"""Its stream's third word (for bound 50) is rejected: found by a search of ~17M seeds."""


def first_rejection(seed: str) -> int | None:
    """The bound of the shuffle's first rejected word, if one of the first eight is."""
    block = hashlib.sha256(b"ginrummy-shuffle-v1" + seed.encode() + bytes(8)).digest()
    for k in range(8):
        word, bound = int.from_bytes(block[4 * k : 4 * k + 4], "big"), 52 - k
        if word >= 2**32 - 2**32 % bound:
            return bound
    return None


SEEDS = [*golden_seeds(), *random_seeds(), REJECTING_SEED]


def in_browser(page: Page, script: str, arg: Any = None) -> Any:
    """Run ``script``, an async JS function of (the fairness module, arg), in the page."""
    wrapped = f"""async (arg) => {{
        const f = await import('/fairness.js');
        return await ({script})(f, arg);
    }}"""
    return page.evaluate(wrapped, arg)


@pytest.fixture(scope="module")
def secure_page(browser: Browser, static_server: StaticServer) -> Iterator[Page]:
    """A page on http://127.0.0.1:PORT: a secure context, crypto.subtle is there."""
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(static_server.base + "/")
    assert page.evaluate("() => isSecureContext && Boolean(globalThis.crypto?.subtle)")
    yield page
    context.close()


@pytest.fixture(scope="module")
def insecure_page(browser: Browser) -> Iterator[Page]:
    """A page on a plain-http name, like a LAN address: no crypto.subtle. Playwright answers
    every request from the static directory; nothing goes to the network."""
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()

    def answer(route: Any) -> None:
        path = route.request.url.removeprefix(INSECURE_ORIGIN).split("?")[0]
        file = STATIC / path.lstrip("/")
        if path == "/":
            route.fulfill(status=200, content_type="text/html", body="<!doctype html><p>lan</p>")
        elif file.is_file() and STATIC in file.resolve().parents:
            route.fulfill(path=str(file))
        else:
            route.fulfill(status=404, body="not found")

    page.route(f"{INSECURE_ORIGIN}/**", answer)
    page.goto(INSECURE_ORIGIN + "/")
    assert page.evaluate("() => !isSecureContext && globalThis.crypto?.subtle === undefined")
    yield page
    context.close()


def python_decks(seeds: list[str]) -> list[list[str]]:
    return [[str(c) for c in shuffled_deck(s)] for s in seeds]


DECKS_AND_HASHES = """async (f, seeds) => {
    const decks = [];
    for (const s of seeds) decks.push(await f.shuffledDeck(s));
    return {decks, hashes: await Promise.all(seeds.map(f.sha256Hex))};
}"""


@pytest.mark.parametrize("origin", ["secure", "insecure"])
def test_shuffle_and_sha256_match_python(origin: str, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(f"{origin}_page")
    got = in_browser(page, DECKS_AND_HASHES, SEEDS)
    assert got["decks"] == python_decks(SEEDS)
    assert got["hashes"] == [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]
    assert first_rejection(REJECTING_SEED) == 50  # the rare rejection path is covered
    for seed, deck in golden_seeds().items():  # the pinned test vectors, once more
        assert " ".join(got["decks"][SEEDS.index(seed)]) == deck


def test_the_cut_matches_the_engine(secure_page: Page) -> None:
    # game ids like the server's, and seeds whose first cut ties (equal ranks cut again)
    seeds = [f"{i:032x}" for i in range(40)]
    ties = [s for s in (f"tie-{i}" for i in range(400)) if len(cut_cards(s)) > 1][:5]
    assert ties  # about one cut in 17 ties
    got = in_browser(
        secure_page, "async (f, seeds) => Promise.all(seeds.map(f.cutCards))", seeds + ties
    )
    want = [
        {"cards": [[str(a), str(b)] for a, b in cut_cards(s)], "dealer": cut_for_deal(s)}
        for s in seeds + ties
    ]
    assert got == want


def test_pure_js_sha256_matches_hashlib(secure_page: Page) -> None:
    texts = [*SEEDS, *("a" * n for n in range(0, 200)), "é" * 1000, "\U0001f600" * 333]
    got = in_browser(secure_page, "async (f, texts) => texts.map(f._sha256HexFallback)", texts)
    assert got == [hashlib.sha256(t.encode()).hexdigest() for t in texts]


def test_deal_from_deck_matches_the_engine(secure_page: Page) -> None:
    rules = ginrummy.Rules.preset("classic")
    cases = [(python_decks([s])[0], dealer) for s in SEEDS[:6] for dealer in (0, 1)]
    got = in_browser(
        secure_page,
        "async (f, cases) => cases.map(([d, dealer]) => f.dealFromDeck(d, dealer))",
        cases,
    )
    for (deck, dealer), dealt in zip(cases, got, strict=True):
        hand = deal(rules, dealer, deck)
        assert [set(h) for h in dealt["hands"]] == [{str(c) for c in hand.hand(s)} for s in (0, 1)]
        assert dealt["upcard"] == str(hand.upcard)
        assert dealt["stock"] == [str(c) for c in hand.stock]


# --- whole games ----------------------------------------------------------------------------


def played_game(preset: str, seed: str, knock_chance: float) -> GameState:
    """A whole game by AI players that go gin (or Big Gin) whenever they can and knock only
    with ``knock_chance``, so the games hold every kind of ending; ``knock_chance < 0``: random
    legal play (mostly void hands)."""
    rng = random.Random(seed)
    players = [player("easy", seed=f"{seed}/0"), player("baseline", seed=f"{seed}/1")]
    game = GameState.new(ginrummy.Rules.preset(preset), cut_for_deal(seed))
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_seeded(hand_seed(seed, game.hand_number))
            continue
        legal = game.legal_actions()
        if knock_chance < 0:
            action = rng.choice([a for a in legal if not a.startswith(("gin", "big"))] or legal)
            game = game.apply(action)
            continue
        best = [a for a in legal if a == "big-gin"] or [a for a in legal if a.startswith("gin ")]
        seat = game.to_act
        assert seat is not None and game.hand is not None
        action = best[0] if best else players[seat].choose(game.hand.view(seat))
        if action.startswith("knock ") and rng.random() >= knock_chance:
            action = "discard " + action.split()[1]
        game = game.apply(action)
    return game


def hand_cases() -> list[dict[str, Any]]:
    """Every hand of a few games: the record entry, the full result (both hands shown) and
    what each seat saw at the deal."""
    games = [
        played_game("tournament", "web-big-gin", 0.0),
        played_game("tournament", "web-1", 0.3),
        played_game("classic", "web-2", 0.3),
        played_game("app", "web-3", 0.5),
        played_game("parlor", "web-4", 0.3),
    ]
    cases = []
    for game in games:
        entries = record_of(game).to_dict()["hands"]
        for entry, result in zip(entries, game.results, strict=True):
            first = deal(game.rules, entry["dealer"], shuffled_deck(entry["seed"]))
            cases.append(
                {
                    "record": entry,
                    "full_result": result.to_dict(),
                    "seen": [[str(c) for c in first.hand(s)] for s in (0, 1)],
                }
            )
    return cases


VERIFY_ALL = """async (f, cases) => {
    const out = [];
    for (const c of cases) {
        const plain = await f.verifyHand(c.record);
        const full = {...c.record, result: c.full_result};
        const seats = [];
        for (const seat of [0, 1]) {
            seats.push(await f.verifyHand(full, {
                seat, seenCommitment: c.record.commitment, seenHand: c.seen[seat]}));
        }
        out.push({plain, seats});
    }
    return out;
}"""


def test_every_hand_of_whole_games_verifies(secure_page: Page) -> None:
    cases = hand_cases()
    kinds = {c["full_result"]["kind"] for c in cases}
    actions = {a.split()[0] for c in cases for a in c["record"]["actions"]}
    assert kinds == {"knock", "undercut", "gin", "big-gin"}
    assert actions >= {"take", "pass", "stock", "pile", "discard", "knock", "gin", "big-gin"}
    void_game = played_game("classic", "web-void", -1.0)
    entries = record_of(void_game).to_dict()["hands"][:4]
    void_cases = [
        {"record": e, "full_result": r.to_dict(), "seen": [[], []]}
        for e, r in zip(entries, void_game.results, strict=False)
    ]
    assert any(c["full_result"]["kind"] == "void" for c in void_cases)
    for c in void_cases:
        first = deal(void_game.rules, c["record"]["dealer"], shuffled_deck(c["record"]["seed"]))
        c["seen"] = [[str(x) for x in first.hand(s)] for s in (0, 1)]
    got = in_browser(secure_page, VERIFY_ALL, [*cases, *void_cases])
    for c, result in zip([*cases, *void_cases], got, strict=True):
        assert result["plain"]["ok"], result["plain"]["checks"]
        names = [ch["name"] for ch in result["plain"]["checks"]]
        assert names == ["commitment", "deck", "replay", "result"]
        final = c["full_result"]["hands"]
        assert [set(h) for h in result["plain"]["finalHands"]] == [set(h) for h in final]
        for seat_result in result["seats"]:
            assert seat_result["ok"], seat_result["checks"]
            names = [ch["name"] for ch in seat_result["checks"]]
            assert names == [
                "commitment",
                "seen-commitment",
                "deck",
                "seen-hand",
                "replay",
                "result",
            ]
            assert "both final hands match" in seat_result["checks"][-1]["detail"]


# --- tampered records -----------------------------------------------------------------------


def tampered_cases() -> list[tuple[str, dict[str, Any], dict[str, Any], set[str], str]]:
    """(what, hand record, options, the checks that must fail, a word of their details)."""
    games = [played_game("tournament", "web-tamper", 0.3), played_game("classic", "web-t2", 0.3)]
    cases: list[tuple[str, dict[str, Any], dict[str, Any], set[str], str]] = []
    for game in games:
        for entry, result, hand in zip(
            record_of(game).to_dict()["hands"], game.results, game.finished_hands, strict=True
        ):
            deck = entry["deck"].split()
            dealer = entry["dealer"]
            seat = 1 - dealer
            seen = [str(c) for c in deal(game.rules, dealer, deck).hand(seat)]
            full = {**entry, "result": result.to_dict()}
            opts = {"seat": seat, "seenCommitment": entry["commitment"], "seenHand": seen}

            def case(what: str, rec: dict[str, Any], fails: set[str], word: str, **o: Any) -> None:
                cases.append((what, rec, {**opts, **o}, fails, word))  # noqa: B023

            case("changed seed", {**full, "seed": entry["seed"] + "0"}, {"commitment", "deck"}, "")
            forged = entry["seed"][::-1]
            case(
                "changed seed, commitment recomputed",
                {**full, "seed": forged, "commitment": commitment(forged)},
                {"seen-commitment", "deck"},
                "shown before the deal",
            )
            swapped = deck[:]
            swapped[0], swapped[1] = swapped[1], swapped[0]  # one card of each seat
            case(
                "swapped two dealt cards",
                {**full, "deck": " ".join(swapped)},
                {"deck", "seen-hand"},
                "position 0",
                # only deck and seen-hand are sure to fail; replay / result may or may not
            )
            history = hand.history
            for n, event in enumerate(history[:-1]):
                nxt = history[n + 1]
                if event.action == "stock" and nxt.action.endswith(f" {event.card}"):
                    # the drawn card swapped with the bottom of the stock (never drawn)
                    stacked = deck[:]
                    at = stacked.index(str(event.card))
                    stacked[at], stacked[51] = stacked[51], stacked[at]
                    case(
                        "a stock draw that is not the deck's",
                        {**full, "deck": " ".join(stacked)},
                        {"deck", "replay"},
                        "is not in seat",
                    )
                    # the deck left alone, the discard names a card still in the stock
                    actions = list(entry["actions"])
                    kind = nxt.action.split()[0]
                    actions[n + 1] = f"{kind} {deck[51]}"
                    case(
                        "a discard of a card never drawn",
                        {**full, "actions": actions},
                        {"replay"},
                        f"{deck[51]} is not in seat {event.seat}",
                    )
                    break
            for n, event in enumerate(history[:-1]):
                if event.action in ("pile", "take"):
                    # the card just taken from the pile discarded again at once (not allowed)
                    actions = list(entry["actions"])
                    actions[n + 1] = f"discard {event.card}"
                    case(
                        "the card taken from the pile discarded at once",
                        {**full, "actions": actions},
                        {"replay"},
                        f"{event.card} was taken from the pile this turn",
                    )
                    break
            case(
                "wrong seen hand",
                full,
                {"seen-hand"},
                "you saw",
                seenHand=[*seen[1:], str(deal(game.rules, dealer, deck).hand(dealer)[0])],
            )
            case(
                "wrong seen commitment",
                full,
                {"seen-commitment"},
                "shown before the deal",
                seenCommitment=commitment("something else"),
            )
            altered = copy.deepcopy(full)
            hands = altered["result"]["hands"]
            hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
            case("altered result hand", altered, {"result"}, "seat 0")
            wrong_kind = copy.deepcopy(full)
            wrong = "gin" if result.kind != "gin" else "knock"
            wrong_kind["result"]["kind"] = wrong
            case("altered result kind", wrong_kind, {"result"}, f"result is {wrong}")
            short = {**full, "actions": entry["actions"][:-1]}
            case("actions cut short", short, {"result"}, "stop early")
            extra = {**full, "actions": [*entry["actions"], "stock"]}
            case("an action after the end", extra, {"replay"}, "already over")
    return cases


TAMPER = """async (f, cases) => {
    const out = [];
    for (const [rec, opts] of cases) out.push(await f.verifyHand(rec, opts));
    return out;
}"""


def test_tampered_records_fail_the_right_check(secure_page: Page) -> None:
    cases = tampered_cases()
    assert {c[0] for c in cases} >= {
        "a stock draw that is not the deck's",
        "the card taken from the pile discarded at once",
    }
    got = in_browser(secure_page, TAMPER, [[rec, opts] for _, rec, opts, _, _ in cases])
    for (what, _, _, fails, word), result in zip(cases, got, strict=True):
        failed = {c["name"] for c in result["checks"] if not c["ok"]}
        assert not result["ok"], what
        if what == "swapped two dealt cards":
            assert failed >= fails, (what, result["checks"])
        else:
            assert failed == fails, (what, result["checks"])
        details = " | ".join(c["detail"] for c in result["checks"] if not c["ok"])
        assert word in details, (what, details)


def test_bad_input_gives_failed_checks_not_exceptions(secure_page: Page) -> None:
    got = in_browser(
        secure_page,
        """async (f) => [
            await f.verifyHand(null),
            await f.verifyHand({dealer: 0, deck: "Zz As", seed: "x", commitment: "00"}),
            await f.verifyHand({dealer: 2, deck: (await f.shuffledDeck("x")).join(" "),
                                seed: "x", commitment: await f.sha256Hex("x"), actions: []},
                               {seenHand: "As 2s"}),
        ]""",
    )
    assert not any(r["ok"] for r in got)
    assert {c["name"] for c in got[0]["checks"]} == {"commitment", "deck", "replay"}
    assert "Zz" in got[1]["checks"][1]["detail"]
    assert [c["name"] for c in got[2]["checks"] if c["ok"]] == ["commitment"]
    assert "seat of the seen hand" in got[2]["checks"][2]["detail"]
