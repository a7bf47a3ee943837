"""``ginrummy play``: the render layer (exact strings), the input keys, and whole games played
through the command line by scripted input."""

from __future__ import annotations

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
    hint_text,
    parse_command,
    render_actions,
    render_events,
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
        "You (seat 0, knocker): [As 2s 3s] [7h 7d 7c] [Jd Qd Kd] 9h  deadwood 9\n"
        "AI (seat 1, defender): [Ah 2h 3h] 5d 6s 8c Jh  deadwood 29\n"
        "AI lays off 4s onto [As 2s 3s], 9d onto [Jd Qd Kd], Td onto [Jd Qd Kd]\n"
        "seat 0 knocks with 9 against 29: scores 29 - 9 = 20"
    )


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
    assert parse_command("bogus words", view) == Command("action", "bogus words")


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
    for line in s.game.outcome.explain():
        assert line in out
    winner = s.game.outcome.winner
    assert ("You win the game!" if winner == 0 else "The AI wins the game.") in out
    for number, result in enumerate(s.game.results, start=1):
        assert f"=== Hand {number} is over ===" in out
        assert result.explain() in out
    assert "Input ended" not in out and "Not allowed" not in out and "Not understood" not in out
    last = s.game.points
    assert f"Score: You {last[0]} points" in out


def test_whole_game_from_seat_1_against_baseline_classic() -> None:
    s = script("seat-one", "baseline", seat=1, preset="classic")
    assert s.game is not None and s.game.outcome is not None
    code, out = play(
        "--level", "baseline", "--preset", "classic", "--seed", "seat-one", "--seat", "1",
        lines=s.lines,
    )  # fmt: skip
    assert code == 0 and "=== Game over ===" in out
    assert "\n".join(s.game.outcome.explain()) in out
    assert "You are seat 1" in out


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
    assert "Not understood: discard: bad card 'zz': unknown rank 'Z'" in out
    assert "Not understood: unknown action 'fly away'" in out
    assert "There is no card number 42: your cards are numbered 1-11." in out
    assert "Not allowed: you have drawn; now discard, knock or go gin, not 'stock'." in out
    assert re.search(r"Not allowed: (As is not in your hand|after discarding As you have)", out)
    _, clean = play("--level", "easy", "--seed", "t1", lines=s.lines)
    assert out.split("=== Game over ===")[1] == clean.split("=== Game over ===")[1]


def test_end_of_input_ends_cleanly() -> None:
    code, out = play("--level", "baseline", "--seed", "eof", lines=[])
    assert code == 0 and "Input ended: you left the game." in out
    s = script("t1", "easy", seat=0)
    first_hand = s.lines[: s.lines.index("")]
    code, out = play("--level", "easy", "--seed", "t1", lines=first_hand)
    assert code == 0 and "=== Hand 1 is over ===" in out
    assert out.rstrip().endswith("Input ended: you left the game.")


def test_quit_asks_for_confirmation_and_sort_toggles() -> None:
    code, out = play(
        "--level", "baseline", "--seed", "q", lines=["o", "q", "n", "?", "h", "q", "y"]
    )
    assert code == 0
    assert "Your hand, by suit" in out
    assert "Playing on." in out and "You left the game." in out
    assert "k 7h           knock, discarding 7h" in out
    assert "Input ended" not in out


def test_bad_options() -> None:
    result = CliRunner().invoke(main, ["play", "--preset", "nope"], input="")
    assert result.exit_code == 1 and "unknown preset 'nope'" in result.stderr
    result = CliRunner().invoke(main, ["play", "--level", "godlike"], input="")
    assert result.exit_code == 2 and "godlike" in result.stderr
    result = CliRunner().invoke(main, ["play", "--seat", "2"], input="")
    assert result.exit_code == 2


def test_random_seed_is_printed() -> None:
    code, out = play("--level", "random", lines=[])
    assert code == 0
    assert re.search(r"seed [0-9a-f]{8}\.", out)
