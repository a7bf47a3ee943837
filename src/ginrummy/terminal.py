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

An illegal or unreadable line prints the engine's message and asks again; the game is left
as it was. End of input (or Ctrl-C) leaves the game cleanly with exit status 0.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import click

from . import ai as ai_package
from .actions import BIG_GIN, DISCARD, GIN, KNOCK, PASS, PILE, STOCK, TAKE, parse_action
from .ai import LEVELS, player
from .cards import Card, parse_card
from .engine.game import GameOutcome, GameState, cut_for_deal, hand_seed
from .engine.hand import Event, HandState
from .engine.result import HandResult
from .errors import ActionSyntaxError, CardParseError, GinRummyError, IllegalActionError
from .melds import Arrangement
from .rules import Rules
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
  k 7h           knock, discarding 7h (k 3: the card numbered 3)
  g 7h           go gin, discarding 7h
  b              Big Gin: all eleven cards melded (where the rules play it)
  o              sort your hand by suit / by rank
  h              a hint
  ?              this help
  q              quit the game
The full notation works too: take, pass, stock, pile, discard 7h, knock 7h, gin 7h, big-gin."""

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
    points: Sequence[int], hands_won: Sequence[int], target: int, seat: int
) -> str:
    """``Score: You 20 points (1 hand won), AI 0 points (0 hands won); target 100``."""
    parts = [
        f"{_name(s, seat)} {_plural(points[s], 'point')} ({_plural(hands_won[s], 'hand')} won)"
        for s in (seat, 1 - seat)
    ]
    return f"Score: {', '.join(parts)}; target {target}"


def render_hand_result(result: HandResult, seat: int, hand_number: int) -> str:
    """The end of a hand for ``seat``: both hands arranged by melds with their deadwood, the
    lay-offs and the scoring line (the running score is :func:`render_score_line`)."""
    lines = [f"=== Hand {hand_number} is over ==="]
    for s in (seat, 1 - seat):
        role = ""
        if result.knocker is not None:
            role = ", knocker" if s == result.knocker else ", defender"
        arranged = render_arrangement(result.arrangements[s])
        lines.append(
            f"{_name(s, seat)} (seat {s}{role}): {arranged}  deadwood {result.deadwood[s]}"
        )
    if result.layoffs and result.knocker is not None:
        knocker_melds = result.arrangements[result.knocker].melds
        laid = ", ".join(
            f"{card_text(lo.card)} onto [{cards_text(knocker_melds[lo.meld])}]"
            for lo in result.layoffs
        )
        defender = 1 - result.knocker
        verb = "lay off" if defender == seat else "lays off"
        lines.append(f"{_name(defender, seat)} {verb} {laid}")
    lines.append(result.explain())
    return "\n".join(lines)


def render_game_over(outcome: GameOutcome, seat: int) -> str:
    """The bonus breakdown (by seat) and the winner."""
    lines = ["=== Game over ===", *outcome.explain(), f"(you are seat {seat})"]
    if outcome.winner is None:
        lines.append("The game is drawn.")
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
    ``help``, ``quit``, ``none`` (an empty line) or ``error`` (``text`` says what is wrong).
    """

    kind: Literal["action", "sort", "hint", "help", "quit", "none", "error"]
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
_DRAW_KEYS: Final = {"s": STOCK, "t": STOCK, "p": PILE, "d": PILE, "b": BIG_GIN}
_OPENING_KEYS: Final = {"t": TAKE, "p": PASS, "s": STOCK, "d": PILE, "b": BIG_GIN}
_CARD_KINDS: Final = {"k": KNOCK, "g": GIN, "d": DISCARD, KNOCK: KNOCK, GIN: GIN, DISCARD: DISCARD}


def parse_command(line: str, view: PlayerView, order: SortOrder = "rank") -> Command:
    """Turn a line into a :class:`Command`. Card numbers count in :func:`displayed_hand`
    order. Anything that is not a short key goes to the engine as notation, which judges it."""
    words = line.strip().split()
    if not words:
        return Command("none")
    first = words[0].lower()
    if len(words) == 1:
        if first in _META:
            return Command(_META[first])
        keys = _OPENING_KEYS if view.phase in _OPENING_PHASES else _DRAW_KEYS
        if first in keys:
            return Command("action", keys[first])
        if first.isdigit():
            return _card_command(DISCARD, first, view, order)
        try:
            return Command("action", f"{DISCARD} {parse_card(words[0])}")
        except CardParseError:
            return Command("action", line.strip())
    if len(words) == 2 and first in _CARD_KINDS:
        return _card_command(_CARD_KINDS[first], words[1], view, order)
    return Command("action", line.strip())


def _card_command(kind: str, word: str, view: PlayerView, order: SortOrder) -> Command:
    """``kind`` with the card named by ``word``: a card name or a number in the shown hand."""
    if not word.isdigit():
        return Command("action", f"{kind} {word}")
    cards = displayed_hand(view, order)
    number = int(word)
    if not 1 <= number <= len(cards):
        return Command(
            "error", f"there is no card number {number}: your cards are numbered 1-{len(cards)}"
        )
    return Command("action", f"{kind} {cards[number - 1]}")


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
    """The human left the game (quit or end of input)."""


def ai_seed(seed: str) -> str:
    """The AI's random seed for a game seeded ``seed``."""
    return f"{seed}/ai"


def new_seed() -> str:
    """A fresh random game seed (printed, so the game can be replayed)."""
    return secrets.token_hex(4)


def ask(prompt: str) -> str | None:
    """One line of input after ``prompt``; ``None`` at end of input (or Ctrl-C)."""
    try:
        text: str = click.prompt(prompt, default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        return None
    return text


class TerminalGame:
    """One game between the human at ``seat`` and the AI of ``level``."""

    def __init__(self, rules: Rules, level: str, seed: str, seat: int) -> None:
        self.rules = rules
        self.level = level
        self.seed = seed
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

    def run(self) -> None:
        """Play hands until the game is over or the human leaves."""
        first = "you deal" if self.game.first_dealer == self.seat else "the AI deals"
        click.echo(
            f"Gin Rummy against the AI ({self.level}), rules {self.rules.name}, "
            f"target {self.rules.target}, seed {self.seed}."
        )
        click.echo(f"You are seat {self.seat}; by the cut {first} first.")
        click.echo("Type ? for the keys.")
        try:
            self._play_game()
        except QuitGame as left:
            click.echo(str(left))

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
        click.echo("\n" + render_game_over(self.game.outcome, self.seat))

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
            if line is None:
                raise QuitGame("\nInput ended: you left the game.")
            command = parse_command(line, view, self.order)
            if command.kind == "action":
                try:
                    self.game = self.game.apply(command.text, self.seat)
                except ActionSyntaxError as exc:
                    click.echo(_warn(f"Not understood: {exc.message}. Type ? for the keys."))
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
        else:
            click.echo(render_actions(view))

    def _confirm_quit(self) -> None:
        answer = ask("Really quit the game? [y/N]")
        if answer is None:
            raise QuitGame("\nInput ended: you left the game.")
        if answer.strip().lower() in ("y", "yes"):
            raise QuitGame("You left the game.")
        click.echo("Playing on.")

    def _wait_for_next_deal(self) -> None:
        answer = ask("Press Enter for the next deal (q to quit)")
        if answer is None:
            raise QuitGame("\nInput ended: you left the game.")
        if answer.strip().lower() in ("q", "quit"):
            self._confirm_quit()


def _warn(text: str) -> str:
    return click.style(text, fg="yellow")


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
@click.option("--seed", default=None, help="Seed for the deals and the AI (default: random).")
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
    discard, k 7h knock, g 7h gin, b Big Gin, o sort, h hint, ? help, q quit.
    """
    try:
        rules = Rules.preset(preset)
    except GinRummyError as exc:
        click.echo(f"error: {exc.message}", err=True)
        sys.exit(1)
    TerminalGame(rules, level, seed if seed is not None else new_seed(), seat).run()
