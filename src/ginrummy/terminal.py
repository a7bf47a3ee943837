"""Play a whole game against an AI in the terminal: ``ginrummy play``.

Two layers:

* **render**: pure functions from a seat's :class:`~ginrummy.views.PlayerView` (or a
  :class:`~ginrummy.engine.result.HandResult` / :class:`~ginrummy.engine.game.GameOutcome`)
  to text. They never see the game state, so they cannot show a hidden card. Colour comes
  from :func:`click.style`; :func:`click.echo` drops it when the output is not a terminal.
* **the loop**: :class:`TerminalGame` deals the hands (exactly like
  :func:`ginrummy.playout.random_game`: first dealer ``cut_for_deal(seed)``, hand ``i`` from
  ``hand_seed(seed, i)``), asks the AI for its moves with the AI seat's view only, reads the
  human's lines (:func:`parse_command` turns a short key into the engine's notation) and
  prints through :func:`click.echo`.

An illegal or unreadable line prints what is wrong and what can be typed now, and asks again;
the game is left as it was. Leaving the game (``q``, end of input, Ctrl-C) prints the score so
far; the exit status is 0, or 130 after Ctrl-C.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import click

from . import ai as ai_package
from .actions import (
    BIG_GIN,
    DISCARD,
    GIN,
    KINDS,
    KNOCK,
    PASS,
    PILE,
    STOCK,
    TAKE,
    parse_action,
)
from .ai import LEVELS, player
from .cards import SUIT_SYMBOLS, SUITS, Card, mask_of, parse_card
from .engine.game import GameOutcome, GameState, cut_for_deal, hand_seed
from .engine.hand import Event, HandState
from .engine.result import BIG_GIN as BIG_GIN_RESULT
from .engine.result import GIN as GIN_RESULT
from .engine.result import KNOCK as KNOCK_RESULT
from .engine.result import UNDERCUT, HandResult
from .errors import ActionSyntaxError, CardParseError, GinRummyError, IllegalActionError
from .melds import Arrangement, deadwood_after_discards_mask
from .rules import Rules, Shutout, WinnerRule
from .views import PlayerView

SortOrder = Literal["rank", "suit"]
"""How the human's hand is shown: ace to king (suits inside a rank) or suit by suit."""

YOU: Final = "You"
AI_NAME: Final = "AI"
RULE_LINE: Final = "-" * 64
UNDER_TOP: Final = 3
"""How many discard-pile cards under the top are shown."""

HELP_TEXT: Final = """\
Keys (type one, then Enter):
  t / p          at the opening upcard: take it / pass
  s  (or t)      draw from the stock
  p  (or d)      take the top of the discard pile
  7h, 10h, 7♥    discard that card; or type its number in your hand (1, 2, ...)
  d 7h  (d 3)    discard 7h (the card numbered 3)
  k 7h  (k 3)    knock, discarding 7h (the card numbered 3)
  k              knock with your only knock card (asks which when there are several)
  g 7h, or g     go gin, discarding 7h (g alone: any card that leaves gin)
  b              Big Gin: all eleven cards melded (where the rules play it)
  o              sort your hand by suit / by rank
  h              a hint
  ?              this help
  q  (or quit)   quit the game (Ctrl-C leaves at once); the score so far is shown
The full notation works too: take, pass, stock (or draw), pile, discard 7h, knock 7h,
gin 7h, big-gin. Cards are a rank A 2-9 T J Q K (or 10) and a suit s h d c (or ♠ ♥ ♦ ♣)."""

_OPENING_PHASES: Final = ("upcard-offer", "upcard-dealer")


# --- render: cards and hands -------------------------------------------------------------


def card_text(card: Card) -> str:
    """A card's two-character name, red for hearts and diamonds."""
    return click.style(str(card), fg="red") if card.suit in (1, 2) else str(card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards separated by spaces (see :func:`card_text`)."""
    return " ".join(card_text(c) for c in cards)


def _sort_key(order: SortOrder) -> Callable[[Card], tuple[int, int]]:
    if order == "rank":
        return lambda c: (c.rank, c.suit)
    return lambda c: (c.suit, c.rank)


def grouped(arr: Arrangement, order: SortOrder = "rank") -> tuple[list[list[Card]], list[Card]]:
    """The melds and the deadwood of ``arr``, each sorted by ``order``; melds ordered by their
    first card."""
    key = _sort_key(order)
    melds = sorted((sorted(m, key=key) for m in arr.melds), key=lambda m: key(m[0]))
    return melds, sorted(arr.deadwood, key=key)


def displayed_hand(view: PlayerView, order: SortOrder) -> list[Card]:
    """The seat's cards in the order :func:`render_hand` shows (and numbers) them."""
    melds, deadwood = grouped(view.arrangement(), order)
    return [c for m in melds for c in m] + deadwood


def render_arrangement(arr: Arrangement, order: SortOrder = "rank") -> str:
    """``[As 2s 3s] [7h 7d 7c] 5c 9h``: each meld in brackets, then the deadwood."""
    melds, deadwood = grouped(arr, order)
    parts = ["[" + cards_text(m) + "]" for m in melds]
    if deadwood:
        parts.append(cards_text(deadwood))
    return " ".join(parts) if parts else "(no cards)"


def render_hand(view: PlayerView, order: SortOrder = "rank") -> str:
    """The seat's hand: a heading with the deadwood count, the cards with melds in brackets,
    and under each card its number (for discarding by number)."""
    arr = view.arrangement()
    melds, deadwood = grouped(arr, order)
    groups = [(m, True) for m in melds] + [([c], False) for c in deadwood]
    line, numbers, width = "  ", "  ", 2  # width: printed columns of ``line`` (no styles)
    number = 1
    for g, (cards, bracketed) in enumerate(groups):
        if g:
            line, width = line + " ", width + 1
        if bracketed:
            line, width = line + "[", width + 1
        for i, card in enumerate(cards):
            if i:
                line, width = line + " ", width + 1
            numbers = numbers.ljust(width) + str(number)
            line, width = line + card_text(card), width + 2
            number += 1
        if bracketed:
            line, width = line + "]", width + 1
    heading = f"Your hand, by {order}: deadwood {arr.deadwood_points}"
    return "\n".join([heading, line.rstrip(), numbers.rstrip()])


# --- render: the table ---------------------------------------------------------------------


def _name(seat: int, viewer: int | None) -> str:
    return YOU if seat == viewer else AI_NAME


def _who(seat: int, viewer: int | None, start: bool = False) -> str:
    """``You`` / ``you`` or ``The AI`` / ``the AI``, for a sentence."""
    if seat == viewer:
        return YOU if start else "you"
    return f"{'The' if start else 'the'} {AI_NAME}"


def _whose(seat: int, viewer: int | None, start: bool = False) -> str:
    """``your`` or ``the AI's``."""
    if seat == viewer:
        return "Your" if start else "your"
    return f"{'The' if start else 'the'} {AI_NAME}'s"


def _verb(seat: int, viewer: int | None, verb: str) -> str:
    """``verb`` agreeing with :func:`_who`: ``knock`` for you, ``knocks`` for the AI."""
    if seat == viewer:
        return verb
    if verb == "have":
        return "has"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "o")) else "s")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_scores(view: PlayerView) -> str:
    """``Hand 2 | You 35 points, 1 hand won | AI 12 points, ... | target 100 | AI deals``."""
    me = view.seat if view.seat is not None else 0
    parts = [f"Hand {view.hand_number}"]
    for seat in (me, 1 - me):
        parts.append(
            f"{_name(seat, view.seat)} {_plural(view.points[seat], 'point')}, "
            f"{_plural(view.hands_won[seat], 'hand')} won"
        )
    parts.append(f"target {view.rules.target}")
    parts.append(f"{_name(view.dealer, view.seat)} {'deal' if view.dealer == me else 'deals'}")
    return " | ".join(parts)


def render_pile(view: PlayerView) -> str:
    """The top of the discard pile (highlighted) and a few cards under it."""
    pile = view.discard_pile
    if not pile:
        return "Discard pile: empty"
    top = click.style(str(pile[-1]), bold=True, reverse=True)
    text = f"Discard pile: top {top}"
    under = list(reversed(pile[:-1]))
    if under:
        text += f", under it {cards_text(under[:UNDER_TOP])}"
        if len(under) > UNDER_TOP:
            text += f" (+{len(under) - UNDER_TOP} more)"
    return text


def render_opponent(view: PlayerView) -> str:
    """The opponent's hand size and the cards it is known to hold (taken from the pile)."""
    opp = view.opponent if view.opponent is not None else 1
    known = cards_text(view.opponent_known) if view.opponent_known else "none"
    return f"{_name(opp, view.seat)}: {_plural(view.hand_sizes[opp], 'card')}, known: {known}"


def render_actions(view: PlayerView) -> str:
    """The legal actions of the seat to act, as short keys."""
    legal = view.legal_actions
    top = view.discard_pile[-1] if view.discard_pile else None
    if view.phase in _OPENING_PHASES and top is not None:
        lines = [f"Upcard {card_text(top)}: t take it, p pass"]
    elif view.phase == "first-draw":
        lines = ["Both passed the upcard: s draw from the stock"]
    elif view.phase == "draw" and top is not None:
        lines = [f"s draw from the stock, p take {card_text(top)} from the pile"]
    elif view.phase == "discard":
        lines = [_discard_line(view)]
        knocks = [a.split()[1] for a in legal if a.startswith(KNOCK + " ")]
        gins = [a.split()[1] for a in legal if a.startswith(GIN + " ")]
        if gins:
            lines.append("Gin! " + ", ".join(f"g {c}" for c in gins))
        if knocks:
            lines.append("Knock: " + ", ".join(f"k {c}" for c in knocks))
        if BIG_GIN in legal:
            lines.append("Big Gin! b")
        if view.is_last_turn:
            lines.append("Last turn: the stock is down to two cards; knock or go gin now, or the")
            lines.append("hand is void.")
    else:
        lines = []
    lines.append("o sort by rank/suit, h hint, ? help, q quit")
    return "\n".join(lines)


def _discard_line(view: PlayerView) -> str:
    text = f"Discard: a card name or its number (1-{len(view.hand)})"
    if view.taken_from_pile is not None:
        text += f"; not {card_text(view.taken_from_pile)}, just taken from the pile"
    return text


def render_turn(view: PlayerView, order: SortOrder = "rank") -> str:
    """Everything the seat to act needs: scores, pile, stock, opponent, hand, actions."""
    return "\n".join(
        [
            RULE_LINE,
            render_scores(view),
            render_pile(view),
            f"Stock: {_plural(view.stock_size, 'card')}",
            render_opponent(view),
            render_hand(view, order),
            render_actions(view),
        ]
    )


# --- render: events, results, the game ------------------------------------------------------


def describe_event(event: Event, viewer: int | None) -> str:
    """One action of the history in words: ``AI draws from the stock``, ``AI discards Kd``.

    A stock card is named only when the event carries it, and a view gives it only to its
    drawer.
    """
    you = event.seat == viewer
    who = _name(event.seat, viewer)
    s, es = ("", "") if you else ("s", "es")
    card = event.card
    if event.action == TAKE:
        return f"{who} take{s} the upcard {card}"
    if event.action == PASS:
        return f"{who} pass{es} the upcard"
    if event.action == STOCK:
        return f"{who} draw{s} {card} from the stock" if card else f"{who} draw{s} from the stock"
    if event.action == PILE:
        return f"{who} take{s} {card} from the pile"
    if event.action == BIG_GIN:
        return f"{who} {'have' if you else 'has'} Big Gin!"
    action = parse_action(event.action)
    if action.kind == KNOCK:
        return f"{who} knock{s}, discarding {action.card}"
    if action.kind == GIN:
        return f"{who} go{es} gin, discarding {action.card}!"
    return f"{who} discard{s} {action.card}"


def render_events(view: PlayerView, start: int = 0) -> list[str]:
    """The view's history from event ``start`` on, one line each."""
    return [describe_event(e, view.seat) for e in view.history[start:]]


def render_score_line(
    points: Sequence[int], hands_won: Sequence[int], target: int, seat: int, label: str = "Score"
) -> str:
    """``Score: You 20 points (1 hand won), AI 0 points (0 hands won); target 100``."""
    parts = [
        f"{_name(s, seat)} {_plural(points[s], 'point')} ({_plural(hands_won[s], 'hand')} won)"
        for s in (seat, 1 - seat)
    ]
    return f"{label}: {', '.join(parts)}; target {target}"


def explain_result(result: HandResult, seat: int) -> str:
    """How the hand scored, in words for ``seat`` (You / the AI) with every amount:
    ``You knock with 9 deadwood against 29: you score 29 - 9 = 20.``"""
    if result.knocker is None:
        return "Void hand: the stock ran down to its last two cards; nobody scores."
    k = result.knocker
    d = 1 - k
    dk, dd = result.deadwood[k], result.deadwood[d]
    m = max(result.multiplier, 1)
    base = result.points // m
    if result.kind == KNOCK_RESULT:
        what = f"{_who(k, seat, True)} {_verb(k, seat, 'knock')} with {dk} deadwood against {dd}"
        scorer, sum_text = k, f"{dd} - {dk}"
    elif result.kind == UNDERCUT:
        what = (
            f"{_who(d, seat, True)} {_verb(d, seat, 'undercut')} {_who(k, seat)} with {dd} "
            f"deadwood against {_whose(k, seat)} {dk}"
        )
        scorer, sum_text = d, f"{dk} - {dd} + {base - (dk - dd)} undercut bonus"
    else:
        bonus_name = "Big Gin bonus" if result.kind == BIG_GIN_RESULT else "gin bonus"
        if result.kind == GIN_RESULT:
            what = f"{_who(k, seat, True)} {_verb(k, seat, 'go')} gin"
        else:
            what = f"{_who(k, seat, True)} {_verb(k, seat, 'have')} Big Gin"
        scorer = k
        sum_text = f"{_whose(d, seat)} {dd} deadwood + {base - dd} {bonus_name}"
    doubled = ""
    if m > 1:
        sum_text = f"({sum_text}) × {m}"
        doubled = " (doubled: the upcard was a spade)"
    score = f"{_who(scorer, seat)} {_verb(scorer, seat, 'score')} {sum_text} = {result.points}"
    return f"{what}: {score}{doubled}."


def render_hand_result(result: HandResult, seat: int, hand_number: int) -> str:
    """The end of a hand for ``seat``: both hands arranged by melds with their deadwood, the
    lay-offs and how it scored (the running score is :func:`render_score_line`)."""
    lines = [f"=== Hand {hand_number} is over ==="]
    for s in (seat, 1 - seat):
        role = ""
        if result.knocker is not None:
            role = " (knocker)" if s == result.knocker else " (defender)"
        arranged = render_arrangement(result.arrangements[s])
        lines.append(f"{_name(s, seat)}{role}: {arranged}  deadwood {result.deadwood[s]}")
    if result.layoffs and result.knocker is not None:
        knocker_melds = result.arrangements[result.knocker].melds
        laid = ", ".join(
            f"{card_text(lo.card)} onto [{cards_text(knocker_melds[lo.meld])}]"
            for lo in result.layoffs
        )
        defender = 1 - result.knocker
        verb = "lay off" if defender == seat else "lays off"
        lines.append(f"{_name(defender, seat)} {verb} {laid}")
    lines.append(explain_result(result, seat))
    return "\n".join(lines)


def hand_points_text(outcome: GameOutcome, points: Sequence[int], seat: int) -> str:
    """A seat's hand points at the end of a game: ``122 × 2 = 244`` when a shutout doubled
    them, else ``122`` (``points`` are the game's before the bonus layer)."""
    if outcome.hand_points[seat] != points[seat]:
        factor = outcome.hand_points[seat] // max(points[seat], 1)
        return f"{points[seat]} × {factor} = {outcome.hand_points[seat]}"
    return str(points[seat])


def line_bonus_text(outcome: GameOutcome, rules: Rules, hands_won: Sequence[int], seat: int) -> str:
    """A seat's line bonus: ``4 × 25 = 100``, or ``3 × 25 × 2 = 150`` when doubled."""
    base = f"{hands_won[seat]} × {rules.line_bonus}"
    if outcome.line_bonuses[seat] != hands_won[seat] * rules.line_bonus:
        base += f" × {outcome.line_bonuses[seat] // max(hands_won[seat] * rules.line_bonus, 1)}"
    return f"{base} = {outcome.line_bonuses[seat]}"


def game_bonus_text(outcome: GameOutcome, rules: Rules, seat: int) -> str:
    """A seat's game bonus: ``100``, or ``100 × 2 = 200`` when doubled, or ``0``."""
    value = outcome.game_bonuses[seat]
    if value and value != rules.game_bonus:
        return f"{rules.game_bonus} × {value // max(rules.game_bonus, 1)} = {value}"
    return str(value)


def bonus_table(
    outcome: GameOutcome,
    rules: Rules,
    points: Sequence[int],
    hands_won: Sequence[int],
    columns: Sequence[tuple[int, str]],
) -> list[str]:
    """The end-of-game table: a column for each ``(seat, name)`` of ``columns``, rows for the
    hands won, the hand points (and a shutout's doubling), the line and game bonuses with
    their amounts, and the grand totals. ``points`` and ``hands_won`` are the game's before
    the bonuses. (``play`` names the seats You and the AI; ``replay``, seat 0 and seat 1.)"""
    seats = [s for s, _ in columns]
    rows: list[tuple[str, list[str]]] = [
        ("", [name for _, name in columns]),
        ("Hands won", [str(hands_won[s]) for s in seats]),
        ("Hand points", [hand_points_text(outcome, points, s) for s in seats]),
    ]
    if rules.line_bonus:
        rows.append(
            (
                f"Line bonus ({rules.line_bonus} a hand won)",
                [line_bonus_text(outcome, rules, hands_won, s) for s in seats],
            )
        )
    if rules.game_bonus:
        rows.append(("Game bonus", [game_bonus_text(outcome, rules, s) for s in seats]))
    rows.append(("Grand total", [str(outcome.grand_totals[s]) for s in seats]))
    label_width = max(len(label) for label, _ in rows)
    cell_width = max(len(cells[0]) for _, cells in rows)
    return [
        f"{label:<{label_width}}   {cells[0]:<{cell_width}}   {cells[1]}".rstrip()
        for label, cells in rows
    ]


def shutout_reason(rules: Rules, loser: str, crosser_s: str) -> str:
    """What a shutout doubled and why, as a sentence: ``loser`` names the seat shut out
    (``the AI``, ``seat 1``), ``crosser_s`` the other's possessive (``your``, ``seat 0's``)."""
    why = {
        Shutout.DOUBLE_HAND_POINTS: (
            f"{loser} won no hand, so {crosser_s} hand points are doubled"
        ),
        Shutout.DOUBLE_BONUSES: (
            f"{loser} scored no points, so {crosser_s} line and game bonuses are doubled"
        ),
        Shutout.DOUBLE_GAME_BONUS: f"{loser} won no hand, so the game bonus is doubled",
    }.get(rules.shutout, "the bonuses are doubled")
    return f"Shutout: {why}."


def render_game_over(
    outcome: GameOutcome,
    seat: int,
    rules: Rules,
    points: Sequence[int],
    hands_won: Sequence[int],
) -> str:
    """The end-of-game bonus layer, like the web table's: a table of You and the AI with the
    hands won, the hand points (and a shutout's doubling), the line and game bonuses with
    their amounts and the grand totals (:func:`bonus_table`); then why, and the winner.
    ``points`` and ``hands_won`` are the game's before the bonuses."""
    crosser = outcome.crosser
    columns = [(s, _name(s, seat)) for s in (seat, 1 - seat)]
    lines = ["=== Game over ===", *bonus_table(outcome, rules, points, hands_won, columns)]
    reached = f"{_who(crosser, seat, True)} reached the target of {rules.target} first"
    if rules.game_bonus:
        bonus = outcome.game_bonuses[crosser]
        lines.append(f"{reached}: the game bonus, {bonus}.")
    else:
        lines.append(f"{reached}.")
    if outcome.shutout:
        lines.append(shutout_reason(rules, _who(1 - crosser, seat), _whose(crosser, seat)))
    if rules.winner is WinnerRule.FIRST_TO_TARGET:
        lines.append("The first to reach the target wins.")
    else:
        lines.append("The higher grand total wins.")
    if outcome.winner is None:
        lines.append(click.style("The game is drawn.", bold=True))
    elif outcome.winner == seat:
        lines.append(click.style("You win the game!", bold=True))
    else:
        lines.append(click.style("The AI wins the game.", bold=True))
    return "\n".join(lines)


# --- reading the human's input ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """What a line of input asks for.

    ``kind`` is ``action`` (``text`` is an action for the engine), ``sort``, ``hint``,
    ``help``, ``quit``, ``none`` (an empty line), ``error`` (``text`` says what is wrong) or
    ``unknown`` (``text`` is the line, which is no key at all).
    """

    kind: Literal["action", "sort", "hint", "help", "quit", "none", "error", "unknown"]
    text: str = ""


_META: Final[dict[str, Literal["sort", "hint", "help", "quit"]]] = {
    "o": "sort",
    "sort": "sort",
    "h": "hint",
    "hint": "hint",
    "?": "help",
    "help": "help",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
_DRAW_KEYS: Final = {"s": STOCK, "t": STOCK, "draw": STOCK, "p": PILE, "b": BIG_GIN}
_OPENING_KEYS: Final = {"t": TAKE, "p": PASS, "s": STOCK, "draw": STOCK, "b": BIG_GIN}
_CARD_KINDS: Final = {"k": KNOCK, "g": GIN, "d": DISCARD, KNOCK: KNOCK, GIN: GIN, DISCARD: DISCARD}
_KEY_OF: Final = {KNOCK: "k", GIN: "g", DISCARD: "d"}
_SUIT_CHARS: Final = frozenset(SUITS + SUITS.upper() + SUIT_SYMBOLS + "♤♡♢♧")
_RANK_CHARS: Final = frozenset("A23456789TJQK1atjqk")


def parse_command(line: str, view: PlayerView, order: SortOrder = "rank") -> Command:
    """Turn a line into a :class:`Command`. Card numbers count in :func:`displayed_hand`
    order. The short keys of :data:`HELP_TEXT` are read here; a line in the engine's
    notation goes to the engine, which judges it; anything else is ``unknown``."""
    words = line.strip().split()
    if not words:
        return Command("none")
    first = words[0].lower()
    rest = words[1:]
    if not rest and first in _META:
        return Command(_META[first])
    if first in _CARD_KINDS:
        kind = _CARD_KINDS[first]
        if rest and view.phase != "discard":
            # d 3, k 7h, discard 7h before the draw: the same answer as d alone would get
            # if it were not the pile's key (the engine's "draw first" does not say the keys)
            return _lone_command(kind, view)
        if len(rest) == 1:
            return _card_command(kind, rest[0], view, order)
        if rest:
            key = _KEY_OF[kind]
            return Command(
                "error", f"{words[0]!r} takes one card, like '{key} 7h' or '{key} 3' (by number)"
            )
        if first == "d" and view.phase != "discard":
            return Command("action", PILE)  # d alone: take the top of the discard pile
        return _lone_command(kind, view)
    keys = _OPENING_KEYS if view.phase in _OPENING_PHASES else _DRAW_KEYS
    if not rest and first in keys:
        return Command("action", keys[first])
    if first in KINDS or first in ("big", "biggin", "big_gin"):
        return Command("action", line.strip())  # the engine's notation: the engine judges it
    if not rest and (first.isdecimal() or _looks_like_a_card(words[0])):
        if view.phase != "discard":  # a card (or its number) to discard: draw first
            return _lone_command(DISCARD, view)
        return _card_command(DISCARD, words[0], view, order)
    return Command("unknown", line.strip())


def _looks_like_a_card(word: str) -> bool:
    """A word of two or three characters ending in a suit or starting with a rank."""
    return 2 <= len(word) <= 3 and (word[-1] in _SUIT_CHARS or word[0] in _RANK_CHARS)


def _card_command(kind: str, word: str, view: PlayerView, order: SortOrder) -> Command:
    """``kind`` with the card named by ``word``: a card name or a number in the shown hand."""
    if word.isdecimal():
        cards = displayed_hand(view, order)
        number = int(word)
        if not 1 <= number <= len(cards):
            return Command(
                "error", f"there is no card number {number}: your cards are numbered 1-{len(cards)}"
            )
        return Command("action", f"{kind} {cards[number - 1]}")
    try:
        card = parse_card(word)
    except CardParseError as exc:
        return Command("error", exc.message)
    return Command("action", f"{kind} {card}")


def _lone_command(kind: str, view: PlayerView) -> Command:
    """``k``, ``g`` or ``discard`` without a card: the only card that fits, or what to type."""
    if view.phase != "discard":
        first = "t (take the upcard) or p (pass)"
        if view.phase == "first-draw":
            first = "s (draw from the stock)"
        elif view.phase == "draw":
            first = "s (stock) or p (pile)"
        word = {KNOCK: "knock", GIN: "go gin", DISCARD: "discard"}[kind]
        return Command("error", f"you {word} after you draw: first type {first}")
    if kind == DISCARD:
        return Command(
            "error",
            f"discard which card? Type it (like 7h) or its number (1-{len(view.hand)})",
        )
    cards = [a.split()[1] for a in view.legal_actions if a.startswith(kind + " ")]
    key = _KEY_OF[kind]
    if kind == GIN and cards:
        return Command("action", f"{GIN} {cards[0]}")  # every choice is gin: any will do
    if len(cards) == 1:
        return Command("action", f"{kind} {cards[0]}")
    if cards:
        after = deadwood_after_discards_mask(mask_of(view.hand))
        cards.sort(key=lambda c: after[Card(c)])
        options = ", ".join(f"{key} {c} (deadwood {after[Card(c)]})" for c in cards)
        gins = [a.split()[1] for a in view.legal_actions if a.startswith(GIN + " ")]
        gin = f"; or go gin: g {gins[0]}" if gins else ""
        return Command("error", f"knock discarding which card? Type one of: {options}{gin}")
    return Command("error", _why_not(kind, view))


def _why_not(kind: str, view: PlayerView) -> str:
    """Why there is no knock (or gin) now, and what there is instead."""
    gins = [a.split()[1] for a in view.legal_actions if a.startswith(GIN + " ")]
    if kind == KNOCK and gins:
        return f"with no deadwood left that is gin, not a knock: type g {gins[0]} (or g)"
    after = deadwood_after_discards_mask(mask_of(view.hand))
    if view.taken_from_pile is not None:
        after.pop(int(view.taken_from_pile), None)
    if not after:
        return "you have no card you may discard"
    least = min(after.values())
    best = next(c for c in sorted(after, reverse=True) if after[c] == least)
    left = f"your best discard, {Card(best)}, leaves {least} deadwood"
    if kind == GIN:
        knock = "; you can knock: type k" if least <= view.knock_limit else ""
        return f"you cannot go gin: {left}{knock}"
    return f"you cannot knock: {left}; the knock limit is {view.knock_limit}"


def short_key(action: str) -> str:
    """The short key for an action of the notation: ``knock 7h`` -> ``k 7h``."""
    parsed = parse_action(action)
    if parsed.card is not None:
        prefix = {DISCARD: "", KNOCK: "k ", GIN: "g "}[parsed.kind]
        return f"{prefix}{parsed.card}"
    return {TAKE: "t", PASS: "p", STOCK: "s", PILE: "p", BIG_GIN: "b"}[parsed.kind]


def hint_text(view: PlayerView) -> str:
    """A hint from ``ginrummy.ai.hint`` if the AI package offers one, else a plain notice."""
    hint = getattr(ai_package, "hint", None)
    if not callable(hint):
        return "No hint available."
    try:
        answer = hint(view)
        action = str(answer.action)
        reason = str(getattr(answer, "reason", "") or "")
        key = short_key(action)
    except Exception:  # a hint is a nicety: it must never break the game
        return "No hint available."
    return f"Hint: {action} ({key})" + (f" - {reason}" if reason else "")


# --- the loop ------------------------------------------------------------------------------


class QuitGame(Exception):
    """The human left the game (quit, end of input or Ctrl-C); ``status`` is the exit
    status: 0, or 130 after Ctrl-C."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


INPUT_ENDED: Final = "\nInput ended: you left the game."
INTERRUPTED: Final = "\nInterrupted (Ctrl-C): you left the game."
INTERRUPT_STATUS: Final = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells use."""


def ai_seed(seed: str) -> str:
    """The AI's random seed for a game seeded ``seed``."""
    return f"{seed}/ai"


def new_seed() -> str:
    """A fresh random game seed: 64 random bits, too many to find from the cards one sees.
    The deals and the AI's choices follow from it, so a random seed is printed only when the
    human leaves or the game ends (to replay the game with ``--seed``), never before."""
    return secrets.token_hex(8)


def ask(prompt: str) -> str:
    """One line of input after ``prompt``. Raises :class:`QuitGame` at end of input (status 0)
    and on Ctrl-C (status 130)."""
    try:
        text: str = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except click.Abort as abort:
        # click turns both EOFError and KeyboardInterrupt into Abort, raised inside its
        # ``except`` clause: the original is the Abort's context
        if isinstance(abort.__context__, KeyboardInterrupt):
            raise QuitGame(INTERRUPTED, INTERRUPT_STATUS) from None
        raise QuitGame(INPUT_ENDED) from None
    return text


class TerminalGame:
    """One game between the human at ``seat`` and the AI of ``level``."""

    def __init__(
        self, rules: Rules, level: str, seed: str, seat: int, seed_shown: bool = True
    ) -> None:
        self.rules = rules
        self.level = level
        self.seed = seed
        self.seed_shown = seed_shown
        """Whether the seed may be printed at the start (the human chose it); a random one
        gives away every deal, the AI's hand and the stock, so it waits for the end."""
        self.seat = seat
        self.ai_seat = 1 - seat
        self.ai = player(level, seed=ai_seed(seed))
        self.game = GameState.new(rules, cut_for_deal(seed))
        self.order: SortOrder = "rank"
        self.shown = 0
        """Events of the current hand already printed."""

    @property
    def hand(self) -> HandState:
        """The hand in play."""
        hand = self.game.hand
        assert hand is not None
        return hand

    def view(self) -> PlayerView:
        """The human's view of the hand in play."""
        return self.hand.view(self.seat)

    def run(self) -> int:
        """Play hands until the game is over or the human leaves; the exit status (0, or 130
        after Ctrl-C)."""
        first = "you deal" if self.game.first_dealer == self.seat else "the AI deals"
        seed = f"seed {self.seed}" if self.seed_shown else "a random seed (shown at the end)"
        click.echo(
            f"Gin Rummy against the AI ({self.level}), rules {self.rules.name}, "
            f"target {self.rules.target}, {seed}."
        )
        click.echo(f"You are seat {self.seat}; by the cut {first} first.")
        click.echo("Type ? for the keys.")
        try:
            self._play_game()
        except QuitGame as left:
            return self._leave(str(left), left.status)
        except KeyboardInterrupt:  # Ctrl-C while the AI thinks or the table is printed
            return self._leave(INTERRUPTED, INTERRUPT_STATUS)
        self._reveal_seed()
        return 0

    def _leave(self, message: str, status: int) -> int:
        """Say the human left, with the score so far (and a random seed, now it is over)."""
        click.echo(message)
        click.echo(self.score_so_far())
        self._reveal_seed()
        return status

    def _reveal_seed(self) -> None:
        """Print a random seed once the game is over or left: ``--seed`` plays it again."""
        if not self.seed_shown:
            seed = self.seed
            click.echo(f"The seed was {seed} (play these deals again with --seed {seed}).")

    def score_so_far(self) -> str:
        """The game's score now, and whether a hand in play goes unscored."""
        text = render_score_line(
            self.game.points, self.game.hands_won, self.rules.target, self.seat, "Score so far"
        )
        hand = self.game.hand
        if hand is not None and not hand.is_over:
            text += f"\nHand {self.game.hand_number} was in play; it is not scored."
        return text

    def _play_game(self) -> None:
        while not self.game.is_over:
            self.game = self.game.deal_seeded(hand_seed(self.seed, self.game.hand_number))
            self.shown = 0
            self._play_hand()
            result = self.hand.result
            assert result is not None
            click.echo("\n" + render_hand_result(result, self.seat, self.game.hand_number))
            click.echo(
                render_score_line(
                    self.game.points, self.game.hands_won, self.rules.target, self.seat
                )
            )
            if not self.game.is_over:
                self._wait_for_next_deal()
        assert self.game.outcome is not None
        over = render_game_over(
            self.game.outcome, self.seat, self.rules, self.game.points, self.game.hands_won
        )
        click.echo("\n" + over)

    def _play_hand(self) -> None:
        dealer = "you deal" if self.hand.dealer == self.seat else "the AI deals"
        click.echo(f"\n*** Hand {self.game.hand_number}: {dealer} ***")
        while not self.hand.is_over:
            if self.hand.to_act == self.ai_seat:
                action = self.ai.choose(self.hand.view(self.ai_seat))
                self.game = self.game.apply(action, self.ai_seat)
            else:
                self._human_turn()
        self._echo_new_events()

    def _echo_new_events(self) -> None:
        view = self.view()
        for line in render_events(view, self.shown):
            click.echo(line)
        self.shown = len(view.history)

    def _human_turn(self) -> None:
        """Show the table and read lines until one action has been applied."""
        self._echo_new_events()
        view = self.view()
        click.echo(render_turn(view, self.order))
        while True:
            line = ask(">")
            command = parse_command(line, view, self.order)
            if command.kind == "action":
                try:
                    self.game = self.game.apply(command.text, self.seat)
                except ActionSyntaxError as exc:
                    click.echo(_warn(f"Not understood: {exc.message}."))
                    click.echo(_now(view))
                except IllegalActionError as exc:
                    click.echo(_warn(f"Not allowed: {exc.message}."))
                else:
                    return
            elif command.kind == "sort":
                self.order = "suit" if self.order == "rank" else "rank"
                click.echo(render_hand(view, self.order))
            else:
                self._meta(command, view)

    def _meta(self, command: Command, view: PlayerView) -> None:
        """Commands that do not change the game: help, hint, quit, errors, empty lines."""
        if command.kind == "help":
            click.echo(HELP_TEXT)
        elif command.kind == "hint":
            click.echo(hint_text(view))
        elif command.kind == "quit":
            self._confirm_quit()
        elif command.kind == "error":
            click.echo(_warn(command.text[:1].upper() + command.text[1:] + "."))
        elif command.kind == "unknown":
            shown = command.text if len(command.text) <= 40 else command.text[:40] + "..."
            click.echo(_warn(f"Not understood: {shown!r}."))
            click.echo(_now(view))
        else:
            click.echo(render_actions(view))

    def _confirm_quit(self) -> None:
        answer = ask("Really quit the game? [y/N]")
        if answer.strip().lower() in ("y", "yes"):
            raise QuitGame("You left the game.")
        click.echo("Playing on.")

    def _wait_for_next_deal(self) -> None:
        """Enter deals the next hand, q (quit, exit) asks to leave; anything else is answered
        and asked again (it used to deal, which a mistyped key should not do)."""
        while True:
            answer = ask("Press Enter for the next deal (q to quit)").strip().lower()
            if not answer:
                return
            if answer in ("q", "quit", "exit"):
                self._confirm_quit()  # returns when the human plays on
                return
            click.echo(_warn("Press Enter to deal the next hand, or type q to quit."))


def _check_seed(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--seed`` is text the deals can be made from (UTF-8: no undecodable bytes)."""
    if value is not None:
        try:
            value.encode()
        except UnicodeEncodeError:
            raise click.BadParameter(
                f"the seed {value!r} is not valid text (it holds bytes that are not UTF-8)"
            ) from None
    return value


def _warn(text: str) -> str:
    return click.style(text, fg="yellow")


def _now(view: PlayerView) -> str:
    """What can be typed now (after a line that was not understood)."""
    return "You can type now:\n" + render_actions(view)


@click.command()
@click.option(
    "--level",
    type=click.Choice(tuple(LEVELS)),
    default="normal",
    show_default=True,
    help="The AI's strength.",
)
@click.option(
    "--preset",
    default="tournament",
    show_default=True,
    metavar="NAME",
    help="Rules preset: tournament, classic, app or parlor.",
)
@click.option(
    "--seed",
    default=None,
    callback=_check_seed,
    help="Seed for the deals and the AI (default: random, printed when the game ends).",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    help="Your seat (seat 0 cuts the first card).",
)
def play(level: str, preset: str, seed: str | None, seat: int) -> None:
    """Play a whole game against the AI in the terminal.

    Keys: s stock, p pile, t/p take or pass the upcard, a card (7h) or its number to
    discard, k 7h knock (k alone: your only knock card), g gin, b Big Gin, o sort, h hint,
    ? help, q quit. Leaving shows the score so far; Ctrl-C exits with status 130.
    """
    try:
        rules = Rules.preset(preset)
    except GinRummyError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    if seed is None:
        game = TerminalGame(rules, level, new_seed(), seat, seed_shown=False)
    else:
        game = TerminalGame(rules, level, seed, seat)
    status = game.run()
    if status:
        sys.exit(status)
