"""What the opponent's public play this hand shows: eight measures for master's knock.

A knocker throws its highest deadwood (it has no danger to weigh) and rarely takes or throws a
low card; a player that holds low cards to knock or to undercut does. Counted from the
public history of the hand alone (and, for :data:`OPPONENT_PLAY` ``feeds``, the seat's own
hand), these measures tell the styles apart only weakly within one hand (docs/ai.md, "Telling
a knocker within one hand"), but two of them, how many low cards the opponent has thrown and
its discards' mean points, say how little deadwood it is likely to hold more sharply than the
opponent model's deals do, and as knock features they made master's learned knock stronger
against the masters (docs/ai.md, "The opponent's play as knock features").

Together, in a logistic regression (:func:`knocker_chance`, fitted by
:mod:`ginrummy.learn.knocker`), they give master's hedge its chance that an opponent whose
style a game has not shown yet knocks at once (docs/ai.md, "The hand's public play as the
hedge: master since 2026-12-07").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..actions import DISCARD, PILE, TAKE, parse_action
from ..cards import POINTS, mask_of
from ..views import PlayerView
from .knowledge import joins_meld

OPPONENT_PLAY = (
    "turns",
    "takes",
    "low_takes",
    "low_discards",
    "rises",
    "took_then_threw",
    "discard_points",
    "feeds",
)
"""What :func:`opponent_play` measures of the opponent's play this hand: its discards so far,
its draws from the pile, those of 4 points or less, its discards of 5 points or less, its
discards of more points than its previous discard, the cards it took from the pile and threw
later, the mean points of its discards (0 before the first), and its discards that would
join a meld of the seat's own hand as it is now (:func:`~.knowledge.joins_meld`)."""
SCALE = (10.0, 3.0, 2.0, 3.0, 3.0, 1.0, 10.0, 3.0)
""":func:`knock_signals` divides each of :data:`OPPONENT_PLAY` by these (to about one)."""
LOW_TAKE = 4
"""A card taken from the pile is low at this many points or fewer."""
LOW_DISCARD = 5
"""A discard is low at this many points or fewer."""


def opponent_play(view: PlayerView) -> tuple[float, ...]:
    """:data:`OPPONENT_PLAY` of ``view``'s opponent, from the public history of this hand."""
    seat = view.seat
    mine = mask_of(view.hand)
    turns = takes = low_takes = low_discards = rises = threw_taken = feeds = points = 0
    taken: set[int] = set()
    last = -1
    for event in view.history:
        if event.seat == seat:
            continue
        action = parse_action(event.action)
        if event.card is not None and action.kind in (TAKE, PILE):
            card = int(event.card)
            takes += 1
            taken.add(card)
            low_takes += POINTS[card % 13] <= LOW_TAKE
        elif action.kind == DISCARD and action.card is not None:
            card = int(action.card)
            p = POINTS[card % 13]
            turns += 1
            points += p
            rises += 0 <= last < p
            last = p
            low_discards += p <= LOW_DISCARD
            threw_taken += card in taken
            feeds += joins_meld(card, mine)
    return (
        float(turns),
        float(takes),
        float(low_takes),
        float(low_discards),
        float(rises),
        float(threw_taken),
        points / max(1, turns),
        float(feeds),
    )


def knock_signals(view: PlayerView) -> tuple[float, ...]:
    """:func:`opponent_play` scaled by :data:`SCALE`: the last eight of master's knock
    features (:data:`~.master.KNOCK_FEATURES`)."""
    return tuple(v / s for v, s in zip(opponent_play(view), SCALE, strict=True))


KNOCKER_SIGNALS = (*OPPONENT_PLAY, "stock")
"""What :func:`knocker_signals` measures: :data:`OPPONENT_PLAY` and the stock cards left."""
KNOCKER_FEATURES = (
    "bias",
    *KNOCKER_SIGNALS,
    *(f"{name}_per_turn" for name in KNOCKER_SIGNALS),
    "turns_squared",
)
"""The inputs of the knocker regression (:func:`knocker_features`): a bias, the signals, each
per discard of the opponent's (``turns_per_turn`` is 1 once it has discarded), and the square
of its discards (at most 12) over ten."""
MAX_TURNS = 12.0
""":func:`knocker_features` counts the opponent's discards up to this many in its square."""


def knocker_signals(view: PlayerView) -> tuple[float, ...]:
    """:data:`KNOCKER_SIGNALS` of ``view``'s opponent (unscaled)."""
    return (*opponent_play(view), float(view.stock_size))


def knocker_features(signals: Sequence[float]) -> tuple[float, ...]:
    """:data:`KNOCKER_FEATURES` from :data:`KNOCKER_SIGNALS` ``signals``."""
    turns = max(1.0, signals[0])
    return (
        1.0,
        *signals,
        *(v / turns for v in signals),
        min(MAX_TURNS, signals[0]) ** 2 / 10,
    )


def knocker_chance(weights: Sequence[float], signals: Sequence[float]) -> float:
    """The logistic regression's chance, with ``weights`` on :data:`KNOCKER_FEATURES`, that
    the opponent that played as ``signals`` (:func:`knocker_signals`) knocks at once."""
    z = sum(w * v for w, v in zip(weights, knocker_features(signals), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
