"""``ginrummy play``: the render layer (exact strings), the input keys, and whole games played
through the command line by scripted input."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner

import ginrummy.ai as ai_package
from ginrummy import DECK, GameState, Rules, cut_for_deal, hand_seed, new_hand
from ginrummy.ai import player
from ginrummy.cards import Card
from ginrummy.cli import main
from ginrummy.engine.hand import HandState
from ginrummy.terminal import (
    Command,
    ai_seed,
    describe_event,
    displayed_hand,
    explain_result,
    hint_text,
    parse_command,
    render_actions,
    render_events,
    render_game_over,
    render_hand,
    render_hand_result,
    render_pile,
    render_turn,
    short_key,
)
from ginrummy.views import PlayerView

# --- a known hand ----------------------------------------------------------------------------

HAND_0 = "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"
HAND_1 = "Ah 2h 3h 4s 5d 6s 8c 9d Td Jh"
UPCARD = "9h"


def known_hand() -> HandState:
    """Seat 0 deals; seat 1 is offered 9h. The stock is the rest of the deck, in card order."""
    used = {str(c) for c in f"{HAND_0} {HAND_1} {UPCARD}".split()}
    stock = [str(c) for c in DECK if str(c) not in used][:31]
    return new_hand(Rules.preset("tournament"), 0, (HAND_0, HAND_1), UPCARD, stock)


def eleven_cards() -> PlayerView:
    """Seat 1 passes, seat 0 takes 9h: seat 0 to discard from eleven cards."""
    return known_hand().apply("pass").apply("take").view(0)


def plain(text: str) -> str:
    return click.unstyle(text)


def test_render_hand_marks_melds_counts_deadwood_and_numbers_cards() -> None:
    view = eleven_cards()
    assert plain(render_hand(view, "rank")) == (
        "Your hand, by rank: deadwood 14\n"
        "  [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] 5c 9h\n"
        "   1  2  3    4  5  6    7  8  9   10 11"
    )
    assert plain(render_hand(view, "suit")) == (
        "Your hand, by suit: deadwood 14\n"
        "  [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] 9h 5c\n"
        "   1  2  3    4  5  6    7  8  9   10 11"
    )
    assert [str(c) for c in displayed_hand(view, "suit")][-2:] == ["9h", "5c"]


def test_render_hand_without_melds_and_by_suit_order() -> None:
    view = new_hand(
        Rules.preset("tournament"),
        1,
        ("Kc 2s 9h 4d Jc Ts 6h 8d Ac 3s", "As 2h 3h 4s 5d 6s 8c 9d Td Jh"),
        "Qh",
        "Kd Qd Jd",
    ).view(0)
    assert plain(render_hand(view, "rank")) == (
        "Your hand, by rank: deadwood 63\n"
        "  Ac 2s 3s 4d 6h 8d 9h Ts Jc Kc\n"
        "  1  2  3  4  5  6  7  8  9  10"
    )
    assert plain(render_hand(view, "suit")).splitlines()[1] == "  2s 3s Ts 6h 9h 4d 8d Ac Jc Kc"


def test_render_actions_and_turn() -> None:
    view = eleven_cards()
    assert plain(render_actions(view)) == (
        "Discard: a card name or its number (1-11); not 9h, just taken from the pile\n"
        "Knock: k 5c\n"
        "o sort by rank/suit, h hint, ? help, q quit"
    )
    opening = known_hand().view(1)
    turn = plain(render_turn(opening))
    assert "Hand 1 | You 0 points, 0 hands won | AI 0 points, 0 hands won | target 100 | " in turn
    assert "AI deals" in turn
    assert "Discard pile: top 9h\nStock: 31 cards\nAI: 10 cards, known: none\n" in turn
    assert "Upcard 9h: t take it, p pass" in turn
    after = known_hand().apply("pass").apply("take").apply("discard 5c")
    assert plain(render_turn(after.view(1))).count("AI: 10 cards, known: 9h") == 1
    assert "s draw from the stock, p take 5c from the pile" in plain(render_actions(after.view(1)))


def test_render_pile_shows_the_top_and_a_few_under_it() -> None:
    state = known_hand().apply("pass").apply("pass")
    for _ in range(3):  # six discards: both seats draw from the stock and throw their first card
        for seat in (1, 0):
            state = state.apply("stock")
            state = state.apply(f"discard {state.hand(seat)[0]}")
    view = state.view(1)
    pile = [str(c) for c in reversed(view.discard_pile)]
    assert plain(render_pile(view)) == (
        f"Discard pile: top {pile[0]}, under it {' '.join(pile[1:4])} (+3 more)"
    )


def test_events_hide_the_opponents_stock_card() -> None:
    state = known_hand().apply("pass").apply("pass").apply("stock")
    drawn = state.history[-1].card
    state = state.apply("discard 4s")
    assert render_events(state.view(0)) == [
        "AI passes the upcard",
        "You pass the upcard",
        "AI draws from the stock",
        "AI discards 4s",
    ]
    assert render_events(state.view(1), 2)[0] == f"You draw {drawn} from the stock"
    knocked = known_hand().apply("pass").apply("take").apply("knock 5c")
    assert render_events(knocked.view(1)) == [
        "You pass the upcard",
        "AI takes the upcard 9h",
        "AI knocks, discarding 5c",
    ]
    assert describe_event(knocked.history[2], 0) == "You knock, discarding 5c"
    assert describe_event(knocked.history[1], 1) == "AI takes the upcard 9h"


def test_render_hand_result_with_lay_offs() -> None:
    state = known_hand().apply("pass").apply("take").apply("knock 5c")
    assert state.result is not None
    assert plain(render_hand_result(state.result, 0, 1)) == (
        "=== Hand 1 is over ===\n"
        "You (knocker): [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] 9h  deadwood 9\n"
        "AI (defender): [Ah 2h 3h] 5d 6s 8c Jh  deadwood 29\n"
        "AI lays off 4s onto [As 2s 3s], 9d onto [Jd Qd Kd], Td onto [Jd Qd Kd]\n"
        "You knock with 9 deadwood against 29: you score 29 - 9 = 20."
    )
    # the same hand seen from the AI's seat: never a seat number
    assert plain(render_hand_result(state.result, 1, 1)).splitlines()[1:] == [
        "You (defender): [Ah 2h 3h] 5d 6s 8c Jh  deadwood 29",
        "AI (knocker): [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] 9h  deadwood 9",
        "You lay off 4s onto [As 2s 3s], 9d onto [Jd Qd Kd], Td onto [Jd Qd Kd]",
        "The AI knocks with 9 deadwood against 29: the AI scores 29 - 9 = 20.",
    ]


# --- input keys ----------------------------------------------------------------------------


def test_parse_command_short_keys_and_notation() -> None:
    opening = known_hand().view(1)
    assert parse_command("t", opening) == Command("action", "take")
    assert parse_command(" P ", opening) == Command("action", "pass")
    draw = known_hand().apply("pass").apply("take").apply("discard 5c").view(1)
    for key, action in [("s", "stock"), ("t", "stock"), ("p", "pile"), ("d", "pile")]:
        assert parse_command(key, draw) == Command("action", action)
    view = eleven_cards()
    assert parse_command("5c", view) == Command("action", "discard 5c")
    assert parse_command("10", view) == Command("action", "discard 5c")
    assert parse_command("10", view, "suit") == Command("action", "discard 9h")
    assert parse_command("7♥", view) == Command("action", "discard 7h")
    assert parse_command("10s", eleven_cards()) == Command("action", "discard Ts")
    assert parse_command("k 5c", view) == Command("action", "knock 5c")
    assert parse_command("k 10", view) == Command("action", "knock 5c")
    assert parse_command("g 5c", view) == Command("action", "gin 5c")
    assert parse_command("knock 5c", view) == Command("action", "knock 5c")
    assert parse_command("discard 7h", view) == Command("action", "discard 7h")
    assert parse_command("b", view) == Command("action", "big-gin")
    assert parse_command("12", view).kind == "error"
    assert "numbered 1-11" in parse_command("k 12", view).text
    for key, kind in [("o", "sort"), ("h", "hint"), ("?", "help"), ("q", "quit"), ("", "none")]:
        assert parse_command(key, view).kind == kind
    assert parse_command("bogus words", view) == Command("unknown", "bogus words")


def test_short_key() -> None:
    assert [short_key(a) for a in ("take", "pass", "stock", "pile", "big-gin")] == list("tpspb")
    assert [short_key(a) for a in ("discard 7h", "knock Td", "gin 5c")] == ["7h", "k Td", "g 5c"]


def test_hint_is_optional(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(ai_package, "hint", raising=False)
    assert hint_text(eleven_cards()) == "No hint available."

    def fake_hint(view: PlayerView) -> SimpleNamespace:
        assert isinstance(view, PlayerView)
        return SimpleNamespace(action="knock 5c", reason="9 deadwood is low")

    monkeypatch.setattr(ai_package, "hint", fake_hint, raising=False)
    assert hint_text(eleven_cards()) == "Hint: knock 5c (k 5c) - 9 deadwood is low"
    monkeypatch.setattr(ai_package, "hint", lambda view: None, raising=False)
    assert hint_text(eleven_cards()) == "No hint available."


# --- whole games through the command line ------------------------------------------------------


@dataclass
class Script:
    """The input lines of a game (the human played by a bot) and what the engine says."""

    lines: list[str] = field(default_factory=list)
    game: GameState | None = None
    hidden_in_first_hand: set[str] = field(default_factory=set)
    """AI cards of hand 1 never shown face up (its deal and stock draws, not discarded)."""


def key_for(action: str, view: PlayerView, turn: int) -> str:
    """The line a person might type for ``action``, in a rotating variety of spellings."""
    kind, _, card = action.partition(" ")
    if kind == "discard":
        if turn % 4 == 0:
            return str(displayed_hand(view, "rank").index(Card(card)) + 1)
        if turn % 4 == 1:
            return action
        if turn % 4 == 2 and card[0] == "T":
            return "10" + card[1]
        return card
    if kind in ("knock", "gin") and turn % 2:
        return action
    if kind == "stock" and turn % 3 == 0:
        return "t"
    if kind == "pile" and turn % 3 == 0:
        return "d"
    return short_key(action)


def script(seed: str, level: str, seat: int, preset: str = "tournament") -> Script:
    """Play the game the command line will deal, with ``baseline`` choosing the human's moves."""
    out = Script()
    game = GameState.new(Rules.preset(preset), cut_for_deal(seed))
    ai = player(level, seed=ai_seed(seed))
    bot = player("baseline", seed="the human")
    ai_seat = 1 - seat
    first: HandState | None = None
    while not game.is_over:
        if game.needs_deal:
            if game.hand_number:
                out.lines.append("")  # Enter for the next deal
            game = game.deal_seeded(hand_seed(seed, game.hand_number))
        hand = game.hand
        assert hand is not None
        first = first or hand
        if hand.to_act == ai_seat:
            game = game.apply(ai.choose(hand.view(ai_seat)), ai_seat)
        else:
            view = hand.view(seat)
            action = bot.choose(view)
            out.lines.append(key_for(action, view, len(out.lines)))
            game = game.apply(action, seat)
    assert first is not None
    final = game.finished_hands[0]
    held = set(first.hand(ai_seat)) | {
        e.card for e in final.history if e.seat == ai_seat and e.action == "stock"
    }
    public = {final.upcard} | {
        Card(e.action.split()[1]) for e in final.history if len(e.action.split()) == 2
    }
    out.hidden_in_first_hand = {str(c) for c in held - public if c is not None}
    out.game = game
    return out


def assert_no_seat_numbers_after_the_start(out: str) -> None:
    """After the greeting (which names the --seat option) the game says You and the AI."""
    after = out.split("Type ? for the keys.", 1)[1]
    assert not re.search(r"\bseat [01]\b", after, re.IGNORECASE), "a seat number is shown"


def play(*args: str, lines: list[str]) -> tuple[int, str]:
    text = "".join(line + "\n" for line in lines)
    result = CliRunner().invoke(main, ["play", *args], input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout


def test_whole_game_against_easy_reaches_the_end_of_game_bonus() -> None:
    s = script("t1", "easy", seat=0)
    assert s.game is not None and s.game.outcome is not None
    code, out = play("--level", "easy", "--seed", "t1", lines=s.lines)
    assert code == 0
    assert "=== Game over ===" in out
    game = s.game
    outcome = game.outcome
    assert plain(render_game_over(outcome, 0, game.rules, game.points, game.hands_won)) in out
    winner = s.game.outcome.winner
    assert ("You win the game!" if winner == 0 else "The AI wins the game.") in out
    for number, result in enumerate(s.game.results, start=1):
        assert f"=== Hand {number} is over ===" in out
        assert explain_result(result, 0) in out
    assert "Input ended" not in out and "Not allowed" not in out and "Not understood" not in out
    last = s.game.points
    assert f"Score: You {last[0]} points" in out
    assert_no_seat_numbers_after_the_start(out)


def test_whole_game_from_seat_1_against_baseline_classic() -> None:
    s = script("seat-one", "baseline", seat=1, preset="classic")
    assert s.game is not None and s.game.outcome is not None
    code, out = play(
        "--level", "baseline", "--preset", "classic", "--seed", "seat-one", "--seat", "1",
        lines=s.lines,
    )  # fmt: skip
    assert code == 0 and "=== Game over ===" in out
    game = s.game
    assert plain(render_game_over(game.outcome, 1, game.rules, game.points, game.hands_won)) in out
    for result in game.results:
        assert explain_result(result, 1) in out
    assert "You are seat 1" in out
    assert_no_seat_numbers_after_the_start(out)


def test_ai_hand_is_hidden_until_the_hand_ends() -> None:
    s = script("t1", "easy", seat=0)
    assert len(s.hidden_in_first_hand) >= 5
    _, out = play("--level", "easy", "--seed", "t1", lines=s.lines)
    before, marker, after = out.partition("=== Hand 1 is over ===")
    assert marker
    for name in s.hidden_in_first_hand:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){name}(?![A-Za-z0-9])")
        assert not pattern.search(before), f"the AI's hidden {name} was shown"
    summary = after.split("Score:")[0]
    shown = [name for name in s.hidden_in_first_hand if name in summary]
    assert len(shown) >= 5  # the summary does reveal the AI's hand


def test_illegal_input_gives_the_message_and_the_game_goes_on() -> None:
    s = script("t1", "easy", seat=0)
    assert s.game is not None
    first_discard = next(i for i, line in enumerate(s.lines) if line not in ("s", "t", "p", "d"))
    bad = ["discard Zz", "fly away", "42", "k As", "s"]
    lines = s.lines[:first_discard] + bad + s.lines[first_discard:]
    code, out = play("--level", "easy", "--seed", "t1", lines=lines)
    assert code == 0
    assert "Bad card 'Zz': unknown rank 'Z' and suit 'z'; a card is a rank A 2-9 T J Q K" in out
    assert "Not understood: 'fly away'.\nYou can type now:\nDiscard: a card name" in out
    assert "There is no card number 42: your cards are numbered 1-11." in out
    assert "Not allowed: you have drawn; now discard, knock or go gin, not 'stock'." in out
    assert re.search(r"Not allowed: (As is not in your hand|after discarding As you have)", out)
    _, clean = play("--level", "easy", "--seed", "t1", lines=s.lines)
    assert out.split("=== Game over ===")[1] == clean.split("=== Game over ===")[1]


def test_end_of_input_ends_cleanly_with_the_score_so_far() -> None:
    code, out = play("--level", "baseline", "--seed", "eof", lines=[])
    assert code == 0
    assert out.endswith(
        "Input ended: you left the game.\n"
        "Score so far: You 0 points (0 hands won), AI 0 points (0 hands won); target 100\n"
        "Hand 1 was in play; it is not scored.\n"
    )
    s = script("t1", "easy", seat=0)
    assert s.game is not None
    first_hand = s.lines[: s.lines.index("")]
    code, out = play("--level", "easy", "--seed", "t1", lines=first_hand)
    assert code == 0 and "=== Hand 1 is over ===" in out
    points, won = s.game.results[0].points, s.game.results[0].winner
    you, ai = (points, 0) if won == 0 else (0, points)
    assert out.endswith(
        "Input ended: you left the game.\n"
        f"Score so far: You {you} points ({int(won == 0)} hand{'s' * (won != 0)} won), "
        f"AI {ai} points ({int(won == 1)} hand{'s' * (won != 1)} won); target 100\n"
    )


def test_quit_asks_for_confirmation_and_sort_toggles() -> None:
    code, out = play(
        "--level", "baseline", "--seed", "q", lines=["o", "q", "n", "?", "h", "q", "y"]
    )
    assert code == 0
    assert "Your hand, by suit" in out
    assert "Playing on." in out and "You left the game." in out
    assert "k 7h  (k 3)    knock, discarding 7h" in out
    assert "Input ended" not in out
    assert out.endswith("; target 100\nHand 1 was in play; it is not scored.\n")


def test_bad_options() -> None:
    result = CliRunner().invoke(main, ["play", "--preset", "nope"], input="")
    assert result.exit_code == 1 and "unknown preset 'nope'" in result.stderr
    result = CliRunner().invoke(main, ["play", "--level", "godlike"], input="")
    assert result.exit_code == 2 and "godlike" in result.stderr
    result = CliRunner().invoke(main, ["play", "--seat", "2"], input="")
    assert result.exit_code == 2


def test_a_random_seed_is_printed_only_at_the_end() -> None:
    # the seed makes every deal (the AI's hand, the stock's order): printed at the start it
    # would give them away, so a random seed waits until the human has left
    code, out = play("--level", "random", lines=["q", "y"])
    assert code == 0
    start, _, end = out.partition("You left the game.")
    assert "a random seed (shown at the end)." in start
    assert not re.search(r"[0-9a-f]{16}", start)
    found = re.search(r"The seed was ([0-9a-f]{16}) \(play these deals again with --seed \1\)", end)
    assert found is not None
    # the seed printed is the game's: played again with it, the same first hand is dealt
    _, again = play("--level", "random", "--seed", found.group(1), lines=["q", "y"])
    assert f"seed {found.group(1)}." in again
    hand = re.compile(r"Your hand.*\n.*")
    first = hand.findall(start)
    assert first and first == hand.findall(again.partition("You left")[0])
    assert "The seed was" not in again  # a chosen seed is not repeated


# --- short forms, help, messages ---------------------------------------------------------------


def position(seat_0: str, stock_top: str, *actions: str) -> PlayerView:
    """Seat 1 deals ``seat_0`` and a fixed hand to seat 1, upcard 9h, ``stock_top`` on top of
    the stock; ``actions`` are played; seat 0's view."""
    seat_1 = "Ah 2h 3h 4c 5d 6s 8c 9d Td Jh"
    used = set(f"{seat_0} {seat_1} 9h {stock_top}".split())
    stock = [stock_top, *[str(c) for c in DECK if str(c) not in used][:30]]
    state = new_hand(Rules.preset("tournament"), 1, (seat_0, seat_1), "9h", stock)
    for action in actions:
        state = state.apply(action)
    return state.view(0)


HAND = "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"


def test_short_forms_people_type() -> None:
    opening = position(HAND, "2c")
    assert opening.phase == "upcard-offer"
    assert [parse_command(k, opening).text for k in ("t", "p", "s", "d")] == [
        "take", "pass", "stock", "pile",
    ]  # fmt: skip
    assert parse_command("k", opening) == Command(
        "error", "you knock after you draw: first type t (take the upcard) or p (pass)"
    )
    first_draw = position(HAND, "2c", "pass", "pass")
    assert parse_command("g", first_draw) == Command(
        "error", "you go gin after you draw: first type s (draw from the stock)"
    )
    draw = position(HAND, "2c", "pass", "pass", "stock", "discard 2c", "stock", "discard 4s")
    assert draw.phase == "draw"
    assert [parse_command(k, draw).text for k in ("s", "t", "draw", "p", "d", "pile")] == [
        "stock", "stock", "stock", "pile", "pile", "pile",
    ]  # fmt: skip
    assert parse_command("k", draw).text == (
        "you knock after you draw: first type s (stock) or p (pile)"
    )
    # eleven cards, three ways to knock: 5c leaves 2c = 2, 2c leaves 5c = 5, 3s leaves 10
    three = position(HAND, "2c", "pass", "pass", "stock")
    assert parse_command("k", three) == Command(
        "error",
        "knock discarding which card? Type one of: k 5c (deadwood 2), k 2c (deadwood 5), "
        "k 3s (deadwood 10)",
    )
    assert parse_command("knock", three) == parse_command("k", three)
    assert parse_command("k 2c", three) == Command("action", "knock 2c")
    assert parse_command("d 5c", three) == Command("action", "discard 5c")
    assert parse_command("d 11", three) == Command("action", "discard 5c")
    assert parse_command("g", three) == Command(
        "error",
        "you cannot go gin: your best discard, 5c, leaves 2 deadwood; you can knock: type k",
    )
    assert parse_command("d", three) == Command(
        "error", "discard which card? Type it (like 7h) or its number (1-11)"
    )
    assert parse_command("discard", three) == parse_command("d", three)
    assert parse_command("k 5c 2c", three) == Command(
        "error", "'k' takes one card, like 'k 7h' or 'k 3' (by number)"
    )
    # one knock card: k knocks with it (9h, just taken, cannot be discarded)
    assert parse_command("k", eleven_cards()) == Command("action", "knock 5c")
    # gin: g finds the card; k says it is gin
    gin = position(HAND, "4s", "pass", "pass", "stock")
    assert parse_command("g", gin) == Command("action", "gin 5c")
    assert parse_command("gin", gin) == Command("action", "gin 5c")
    assert parse_command("k", gin).text.endswith("; or go gin: g 5c")
    # nothing to knock with: why. Qc makes the run Jc Qc Kc; of the rest, discarding Ts
    # leaves 2s 9s 4d 6h 8d Ac 3s = 2 + 9 + 4 + 6 + 8 + 1 + 3 = 33
    junk = position("Kc 2s 9s 4d Jc Ts 6h 8d Ac 3s", "Qc", "pass", "pass", "stock")
    assert parse_command("k", junk) == Command(
        "error",
        "you cannot knock: your best discard, Ts, leaves 33 deadwood; the knock limit is 10",
    )
    # a card: as typed, quoted as typed
    assert parse_command("k Zz", three) == Command(
        "error",
        "bad card 'Zz': unknown rank 'Z' and suit 'z'; a card is a rank A 2-9 T J Q K (or 10) "
        "and a suit s h d c (or ♠ ♥ ♦ ♣), like 7h or Td",
    )
    assert parse_command("foo", three).kind == "unknown"
    assert parse_command("²", three).kind == "unknown"  # a digit that is no number
    assert parse_command("٣", three) == Command("action", "discard 3s")  # Arabic-Indic three


def test_a_discard_before_the_draw_says_draw_first_however_it_is_typed() -> None:
    """discard, d 3, d 7h, discard 7h, a card or its number (even one past the hand): before
    the draw, one answer, with the keys to draw; k and g with a card likewise."""
    draw = position(HAND, "2c", "pass", "pass", "stock", "discard 2c", "stock", "discard 4s")
    first = "you discard after you draw: first type s (stock) or p (pile)"
    for line in ["discard", "d 3", "d 7h", "discard 7h", "D 12", "7h", "3", "12", "10h", "d Zz"]:
        assert parse_command(line, draw) == Command("error", first), line
    assert parse_command("k 3", draw) == Command(
        "error", "you knock after you draw: first type s (stock) or p (pile)"
    )
    assert parse_command("g 7h", draw) == Command(
        "error", "you go gin after you draw: first type s (stock) or p (pile)"
    )
    assert parse_command("d", draw) == Command("action", "pile")  # d alone: the pile's key
    opening = position(HAND, "2c")
    for line in ["d 3", "3", "7h"]:
        assert parse_command(line, opening) == Command(
            "error", "you discard after you draw: first type t (take the upcard) or p (pass)"
        )
    first_draw = position(HAND, "2c", "pass", "pass")
    assert parse_command("12", first_draw) == Command(
        "error", "you discard after you draw: first type s (draw from the stock)"
    )
    # after the draw the numbers count as before
    eleven = position(HAND, "2c", "pass", "pass", "stock")
    assert parse_command("d 3", eleven) == Command("action", "discard 3s")
    assert parse_command("12", eleven) == Command(
        "error", "there is no card number 12: your cards are numbered 1-11"
    )


def test_the_next_deal_waits_for_enter_or_q() -> None:
    """At "Press Enter for the next deal", anything but Enter or q is answered and asked
    again; Enter deals, q asks to quit."""
    s = script("t1", "easy", seat=0)
    first_hand = s.lines[: s.lines.index("")]
    _, out = play("--level", "easy", "--seed", "t1", lines=[*first_hand, "x", "n", "q", "y"])
    prompt = "Press Enter for the next deal (q to quit) "  # the input is echoed after it
    again = "Press Enter to deal the next hand, or type q to quit.\n"
    assert out.endswith(
        f"{prompt}x\n{again}{prompt}n\n{again}{prompt}q\nReally quit the game? [y/N] y\n"
        "You left the game.\n"
        "Score so far: You 0 points (0 hands won), AI 12 points (1 hand won); target 100\n"
    )
    assert "*** Hand 2" not in out
    _, out = play("--level", "easy", "--seed", "t1", lines=[*first_hand, "next", ""])
    assert f"{prompt}next\n{again}{prompt}\n\n*** Hand 2: the AI deals ***\n" in out


def test_every_key_of_the_help_is_understood_and_every_key_understood_is_in_the_help() -> None:
    from ginrummy import terminal

    opening = position(HAND, "2c")
    draw = position(HAND, "2c", "pass", "pass", "stock", "discard 2c", "stock", "discard 4s")
    eleven = position(HAND, "2c", "pass", "pass", "stock")
    typed = {
        opening: ["t", "p", "s", "d", "take", "pass"],
        draw: ["s", "t", "p", "d", "stock", "draw", "pile"],
        eleven: [
            "7h", "10h", "7♥", "1", "d 7h", "d 3", "k 7h", "k 3", "k", "g 7h", "g", "b",
            "discard 7h", "knock 7h", "gin 7h", "big-gin", "big gin",
        ],
    }  # fmt: skip
    for view, keys in typed.items():
        for key in keys:
            command = parse_command(key, view)
            assert command.kind in ("action", "error"), (key, command)
            if command.kind == "error":
                assert not command.text.startswith("bad card"), (key, command)
    for key in ["o", "h", "?", "q", "quit", "help", "hint", "sort", "exit"]:
        assert parse_command(key, eleven).kind in ("sort", "hint", "help", "quit")
    understood = (
        set(terminal._META) | set(terminal._DRAW_KEYS) | set(terminal._OPENING_KEYS)
    ) | set(terminal._CARD_KINDS)
    for key in understood - {"sort", "hint", "help", "exit"}:  # words the help uses as words
        assert re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", terminal.HELP_TEXT), key


def test_unknown_input_lists_what_is_accepted_now() -> None:
    code, out = play("--level", "baseline", "--seed", "eof", lines=["fly", "y"])
    assert code == 0
    upcard = re.search(r"Upcard (\w\w): t take it, p pass", out)
    assert upcard
    assert (
        "> fly\n"
        "Not understood: 'fly'.\n"
        "You can type now:\n"
        f"Upcard {upcard[1]}: t take it, p pass\n"
        "o sort by rank/suit, h hint, ? help, q quit\n"
    ) in out
    assert "Not understood: 'y'." in out


class CtrlCAfter(io.BytesIO):
    """Input that presses Ctrl-C once its lines are read (as the terminal's reader would)."""

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        if not data and size != 0:
            raise KeyboardInterrupt
        return data

    def read1(self, size: int | None = -1) -> bytes:
        return self.read(size)


def test_ctrl_c_shows_the_score_so_far_and_exits_130() -> None:
    result = CliRunner().invoke(
        main, ["play", "--level", "baseline", "--seed", "eof"], input=CtrlCAfter(b"o\n")
    )
    assert result.exit_code == 130
    assert result.stdout.endswith(
        "Interrupted (Ctrl-C): you left the game.\n"
        "Score so far: You 0 points (0 hands won), AI 0 points (0 hands won); target 100\n"
        "Hand 1 was in play; it is not scored.\n"
    )
    assert "Input ended" not in result.stdout and "Traceback" not in result.output
    # at the question "Really quit?" too
    result = CliRunner().invoke(
        main, ["play", "--level", "baseline", "--seed", "eof"], input=CtrlCAfter(b"q\n")
    )
    assert result.exit_code == 130 and "Interrupted (Ctrl-C)" in result.stdout


def test_ctrl_c_while_the_ai_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    from ginrummy import terminal

    class Interrupted:
        def choose(self, view: PlayerView) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr(terminal, "player", lambda level, seed: Interrupted())
    # seat 1: the AI (seat 0) is asked first whenever it is the non-dealer
    for seed in ("a", "b", "c", "d"):
        result = CliRunner().invoke(main, ["play", "--seed", seed, "--seat", "1"], input="p\n" * 3)
        if "Interrupted" in result.stdout:
            break
    assert result.exit_code == 130
    assert "Interrupted (Ctrl-C): you left the game.\nScore so far: You 0 points" in result.stdout


def test_the_seed_must_be_text() -> None:
    result = CliRunner().invoke(main, ["play", "--seed", "\udcff"], input="")
    assert result.exit_code == 2
    assert "Invalid value for '--seed': the seed '\\udcff' is not valid text" in result.stderr


# --- the end of a hand and of the game, in words --------------------------------------------


def test_explain_result_names_you_and_the_ai_and_every_amount() -> None:
    from ginrummy.cards import to_mask
    from ginrummy.engine.result import settle, void_result

    rules = Rules.preset("tournament")
    gin_hand = to_mask("As 2s 3s 4s 7h 7d 7c Kd Qd Jd")
    other = to_mask("Ah 2h 3h 4c 5d 6s 8c 9d Td Jh")  # Ah 2h 3h melded: 4 5 6 8 9 10 10 = 52
    gin = settle(rules, "gin", 0, (gin_hand, other), 0)
    assert explain_result(gin, 0) == (
        "You go gin: you score the AI's 52 deadwood + 25 gin bonus = 77."
    )
    assert explain_result(gin, 1) == (
        "The AI goes gin: the AI scores your 52 deadwood + 25 gin bonus = 77."
    )
    big = settle(rules, "big-gin", 1, (other, gin_hand | to_mask("Td")), None)
    assert explain_result(big, 0) == (
        "The AI has Big Gin: the AI scores your 52 deadwood + 31 Big Gin bonus = 83."
    )
    # 9c knocks with 9 against 2c's 2: undercut 9 - 2 + 25 = 32, doubled by a spade upcard
    undercut = settle(
        rules,
        "knock",
        0,
        (to_mask("As 2s 3s 7h 7d 7c Kd Qd Jd 9c"), to_mask("Ah 2h 3h 4h 5h 6h 7s 8s 9s 2c")),
        5,
        2,
    )
    assert explain_result(undercut, 0) == (
        "The AI undercuts you with 2 deadwood against your 9: the AI scores "
        "(9 - 2 + 25 undercut bonus) × 2 = 64 (doubled: the upcard was a spade)."
    )
    assert explain_result(undercut, 1) == (
        "You undercut the AI with 2 deadwood against the AI's 9: you score "
        "(9 - 2 + 25 undercut bonus) × 2 = 64 (doubled: the upcard was a spade)."
    )
    assert explain_result(void_result((gin_hand, other)), 0) == (
        "Void hand: the stock ran down to its last two cards; nobody scores."
    )


def test_game_over_shows_the_bonus_layer_like_the_web_table() -> None:
    from ginrummy import score_game

    rules = Rules.preset("tournament")
    # a shutout: the AI won no hand, so your 122 hand points are doubled to 244;
    # 4 hands x 25 = 100 line bonus; 100 game bonus: 444
    outcome = score_game(rules, (122, 0), (4, 0))
    assert plain(render_game_over(outcome, 0, rules, (122, 0), (4, 0))) == (
        "=== Game over ===\n"
        "                             You             AI\n"
        "Hands won                    4               0\n"
        "Hand points                  122 × 2 = 244   0\n"
        "Line bonus (25 a hand won)   4 × 25 = 100    0 × 25 = 0\n"
        "Game bonus                   100             0\n"
        "Grand total                  444             0\n"
        "You reached the target of 100 first: the game bonus, 100.\n"
        "Shutout: the AI won no hand, so your hand points are doubled.\n"
        "The higher grand total wins.\n"
        "You win the game!"
    )
    # the same game seen from the AI's seat (you are seat 1)
    assert plain(render_game_over(outcome, 1, rules, (122, 0), (4, 0))).splitlines()[1:4] == [
        "                             You          AI",
        "Hands won                    0            4",
        "Hand points                  0            122 × 2 = 244",
    ]
    # you reached the target, but the AI's grand total is higher: 35 + 2 x 25 + 100 = 185
    # against 95 + 8 x 25 = 295
    outcome = score_game(rules, (104, 95), (2, 8))
    text = plain(render_game_over(outcome, 0, rules, (104, 95), (2, 8)))
    assert "Grand total                  254           295\n" in text
    assert text.endswith("The higher grand total wins.\nThe AI wins the game.")
    # app: the loser scored nothing, the winner's line and game bonuses are doubled
    app = Rules.preset("app")
    outcome = score_game(app, (0, 105), (0, 3))
    text = plain(render_game_over(outcome, 0, app, (0, 105), (0, 3)))
    assert "Line bonus (25 a hand won)   0 × 25 = 0   3 × 25 × 2 = 150\n" in text
    assert "Game bonus                   0            100 × 2 = 200\n" in text
    assert "Shutout: you scored no points, so the AI's line and game bonuses are doubled." in text
    # classic: no bonuses at all
    classic = Rules.preset("classic")
    outcome = score_game(classic, (88, 116), (7, 7))
    assert plain(render_game_over(outcome, 0, classic, (88, 116), (7, 7))) == (
        "=== Game over ===\n"
        "              You   AI\n"
        "Hands won     7     7\n"
        "Hand points   88    116\n"
        "Grand total   88    116\n"
        "The AI reached the target of 100 first.\n"
        "The first to reach the target wins.\n"
        "The AI wins the game."
    )
