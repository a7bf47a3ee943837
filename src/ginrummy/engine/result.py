"""How a hand ends: the result value and the scoring of docs/rules.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..cards import DECK, Card, cards_tuple
from ..melds import Arrangement, LayOff, arrange_mask, deadwood_mask, settle_knock_mask
from ..rules import Rules

KNOCK: Final = "knock"
UNDERCUT: Final = "undercut"
GIN: Final = "gin"
BIG_GIN: Final = "big-gin"
VOID: Final = "void"
RESULT_KINDS: Final = (KNOCK, UNDERCUT, GIN, BIG_GIN, VOID)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: who scores, how many points and why, with both hands shown.

    * ``kind``: ``knock``, ``undercut``, ``gin``, ``big-gin`` or ``void``.
    * ``winner``: the seat that scores (``None`` for a void hand).
    * ``points``: what the winner scores (Oklahoma's doubling included).
    * ``knocker``: the seat that knocked / went gin (``None`` for a void hand).
    * ``knock_card``: the card discarded with the knock or gin (``None`` for Big Gin, void).
    * ``hands``: both final hands (ten cards, eleven for Big Gin), in card order.
    * ``arrangements``: per seat; the knocker's with the tie-break of docs/rules.md, the
      defender's own melds and deadwood left after lay-offs (lay-off cards not included).
    * ``layoffs``: the defender's cards laid off onto the knocker's melds (knock only).
    * ``deadwood``: per seat, deadwood points after lay-offs.
    * ``multiplier``: 2 when Oklahoma's spade upcard doubled the score, else 1.
    """

    kind: str
    winner: int | None
    points: int
    knocker: int | None
    knock_card: Card | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    arrangements: tuple[Arrangement, Arrangement]
    layoffs: tuple[LayOff, ...]
    deadwood: tuple[int, int]
    multiplier: int = 1

    @property
    def defender(self) -> int | None:
        """The seat that did not knock (``None`` for a void hand)."""
        return None if self.knocker is None else 1 - self.knocker

    def explain(self) -> str:
        """One line a person reads, e.g. ``'seat 0 knocks: 22 against 5, scores 17'``."""
        if self.kind == VOID:
            return "void hand: the stock ran down to two cards; no points"
        k = self.knocker
        assert k is not None
        dk, dd = self.deadwood[k], self.deadwood[1 - k]
        double = " (doubled: spade upcard)" if self.multiplier > 1 else ""
        if self.kind == KNOCK:
            text = f"seat {k} knocks with {dk} against {dd}: scores {dd} - {dk}"
        elif self.kind == UNDERCUT:
            text = (
                f"seat {1 - k} undercuts: {dd} against the knocker's {dk}: scores "
                f"{dk} - {dd} + undercut bonus"
            )
        elif self.kind == GIN:
            text = f"seat {k} goes gin: scores {dd} + gin bonus"
        else:
            text = f"seat {k} has Big Gin: scores {dd} + Big Gin bonus"
        return f"{text} = {self.points}{double}"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {
            "kind": self.kind,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knock_card": None if self.knock_card is None else str(self.knock_card),
            "hands": [[str(c) for c in h] for h in self.hands],
            "arrangements": [a.to_dict() for a in self.arrangements],
            "layoffs": [lo.to_dict() for lo in self.layoffs],
            "deadwood": list(self.deadwood),
            "multiplier": self.multiplier,
            "explanation": self.explain(),
        }


def _pair(a: Any, b: Any, first: int) -> tuple[Any, Any]:
    """``(a, b)`` with ``a`` placed at seat ``first``."""
    return (a, b) if first == 0 else (b, a)


def void_result(hands: tuple[int, int]) -> HandResult:
    """The result of a void hand: both hands shown, nobody scores."""
    arrangements = (arrange_mask(hands[0]), arrange_mask(hands[1]))
    return HandResult(
        kind=VOID,
        winner=None,
        points=0,
        knocker=None,
        knock_card=None,
        hands=(cards_tuple(hands[0]), cards_tuple(hands[1])),
        arrangements=arrangements,
        layoffs=(),
        deadwood=(arrangements[0].deadwood_points, arrangements[1].deadwood_points),
    )


def settle(
    rules: Rules,
    kind: str,
    knocker: int,
    hands: tuple[int, int],
    knock_card: int | None,
    multiplier: int = 1,
) -> HandResult:
    """Score a hand ended by ``kind`` (``knock``, ``gin`` or ``big-gin``) by ``knocker``.

    ``hands`` are the final hands (the knocker's without the knock card). Returns the result
    with kind ``undercut`` when a knock is undercut.
    """
    k_mask, d_mask = hands[knocker], hands[1 - knocker]
    if kind == KNOCK:
        k_arr, reading = settle_knock_mask(k_mask, d_mask)
        dk, dd = k_arr.deadwood_points, reading.deadwood_points
        d_arr = reading.arrangement
        layoffs = reading.layoffs
        if dk < dd:
            result_kind, winner, points = KNOCK, knocker, dd - dk
        else:
            result_kind, winner, points = UNDERCUT, 1 - knocker, dk - dd + rules.undercut_bonus
    else:
        k_arr = arrange_mask(k_mask)
        d_arr = arrange_mask(d_mask)
        layoffs = ()
        dk, dd = 0, deadwood_mask(d_mask)
        if kind == GIN:
            bonus = rules.gin_bonus
        else:
            assert rules.big_gin_bonus is not None
            bonus = rules.big_gin_bonus
        result_kind, winner, points = kind, knocker, dd + bonus
    return HandResult(
        kind=result_kind,
        winner=winner,
        points=points * multiplier,
        knocker=knocker,
        knock_card=None if knock_card is None else DECK[knock_card],
        hands=(cards_tuple(hands[0]), cards_tuple(hands[1])),
        arrangements=_pair(k_arr, d_arr, knocker),
        layoffs=layoffs,
        deadwood=_pair(dk, dd, knocker),
        multiplier=multiplier,
    )
