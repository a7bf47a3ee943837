"""What the opponent's public play this hand shows: eight measures for master's knock.

A knocker throws its highest deadwood (it has no danger to weigh) and rarely takes or throws a
low card; a player that holds low cards to knock or to undercut does. Counted from the
public history of the hand alone (and, for :data:`OPPONENT_PLAY` ``feeds``, the seat's own
hand), these measures tell the styles apart only weakly within one hand (docs/ai.md, "Telling
a knocker within one hand"), but two of them, how many low cards the opponent has thrown and
its discards' mean points, say how little deadwood it is likely to hold more sharply than the
opponent model's deals do, and as knock features they made master's learned knock stronger
against the masters (docs/ai.md, "The opponent's play as knock features").
"""

from __future__ import annotations

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
