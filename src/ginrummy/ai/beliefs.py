"""A learned model of the opponent's hidden cards, trained on self-play.

:class:`OpponentModel` weighs each unseen card by fixed likelihood ratios that were set by
hand. This model instead gives every unseen card the chance that the opponent holds it from
a logistic regression on features of the public history (:func:`card_features`): how the
card relates to the cards the opponent took, still holds, discarded (and how recently) and
passed by, how many of its meld partners are out of play, its points, and how far the hand
has gone. The weights are fitted by :mod:`ginrummy.learn.beliefs` on positions of self-play
whose true hands are known (the labels are exact, so the fit needs no playouts) and shipped
as ``params/beliefs.json``; the fitting is reproducible from its seed.

Like everything in this package, the features read a :class:`~ginrummy.views.PlayerView`
(through :class:`Knowledge`) and nothing else.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from ..cards import cards_of, parse_card
from .evaluate import OpponentModel, _scale_to
from .knowledge import Knowledge, same_rank, suit_neighbours

FEATURES: Final = (
    "bias",
    "base_logit",
    "points",
    "run_windows",
    "held_rank",
    "held_suit1",
    "held_suit2",
    "took_gone_rank",
    "took_gone_suit1",
    "discard_rank",
    "discard_suit1",
    "discard_suit2",
    "recent_discard_rank",
    "recent_discard_suit1",
    "declined_rank",
    "declined_suit1",
    "dead_rank",
    "dead_suit1",
    "dead_suit2",
    "points_late",
    "progress",
    "discarded_points_mean",
)
"""The features of an unseen card, in the order of the shipped weights."""

RECENT_TURNS: Final = 3
"""How many of the opponent's last discards count as recent."""

_SUIT1: Final = tuple(suit_neighbours(c, 1) for c in range(52))
_SUIT2: Final = tuple(suit_neighbours(c, 2) & ~suit_neighbours(c, 1) for c in range(52))
_RANK: Final = tuple(same_rank(c) for c in range(52))
_POINTS: Final = tuple(min(10, c % 13 + 1) for c in range(52))
_WINDOWS: Final = tuple(
    sum(1 for lo in range(r - 2, r + 1) if lo >= 0 and lo + 2 <= 12) for r in range(13)
)


class _OpponentHistory:
    """What the public history shows of the opponent's play this hand, with timing."""

    __slots__ = ("declined", "discard_points", "discarded", "draws", "recent", "took")

    def __init__(self, k: Knowledge) -> None:
        opp = 1 - k.seat
        pile: list[int] = [int(k.view.upcard)]
        took = discarded = declined = 0
        discards: list[int] = []
        draws = 0
        for e in k.view.history:
            word, _, rest = e.action.partition(" ")
            if word == "take" or word == "pile":
                card = pile.pop()
                if e.seat == opp:
                    took |= 1 << card
                    draws += 1
            elif word == "pass" or word == "stock":
                if e.seat == opp:
                    if pile:
                        declined |= 1 << pile[-1]
                    if word == "stock":
                        draws += 1
            elif rest:  # discard, knock, gin
                card = int(parse_card(rest))
                pile.append(card)
                if e.seat == opp:
                    discarded |= 1 << card
                    discards.append(card)
        recent = 0
        for card in discards[-RECENT_TURNS:]:
            recent |= 1 << card
        self.took = took
        self.discarded = discarded
        self.declined = declined & ~took
        self.recent = recent
        self.draws = draws
        self.discard_points = (
            sum(_POINTS[c] for c in discards) / (10.0 * len(discards)) if discards else 0.5
        )


def card_features(k: Knowledge) -> list[tuple[int, list[float]]]:
    """Each unseen card with its features (:data:`FEATURES`), from ``k``'s seat's view."""
    unseen = k.unseen
    n_unseen = unseen.bit_count()
    hidden = k.opp_hidden
    if n_unseen == 0:
        return []
    h = _OpponentHistory(k)
    held = k.opp_known
    gone = h.took & ~held
    dead = ((1 << 52) - 1) & ~unseen & ~held
    share = min(max(hidden, 0.5), n_unseen - 0.5) / n_unseen
    base = math.log(share / (1.0 - share))
    progress = min(1.0, h.draws / 15.0)
    out: list[tuple[int, list[float]]] = []
    for card in cards_of(unseen):
        c = int(card)
        rank_m, s1, s2 = _RANK[c], _SUIT1[c], _SUIT2[c]
        pts = _POINTS[c] / 10.0
        out.append(
            (
                c,
                [
                    1.0,
                    base,
                    pts,
                    _WINDOWS[c % 13] / 3.0,
                    float((rank_m & held).bit_count()),
                    float((s1 & held).bit_count()),
                    float((s2 & held).bit_count()),
                    float((rank_m & gone).bit_count()),
                    float((s1 & gone).bit_count()),
                    float((rank_m & h.discarded).bit_count()),
                    float((s1 & h.discarded).bit_count()),
                    float((s2 & h.discarded).bit_count()),
                    float((rank_m & h.recent).bit_count()),
                    float((s1 & h.recent).bit_count()),
                    float((rank_m & h.declined).bit_count()),
                    float((s1 & h.declined).bit_count()),
                    float((rank_m & dead).bit_count()),
                    float((s1 & dead).bit_count()),
                    float((s2 & dead).bit_count()),
                    pts * progress,
                    progress,
                    h.discard_points,
                ],
            )
        )
    return out


@lru_cache(maxsize=1)
def shipped_weights() -> tuple[float, ...]:
    """The weights shipped in ``params/beliefs.json``, in :data:`FEATURES` order."""
    text = resources.files("ginrummy.ai").joinpath("params/beliefs.json").read_text("utf-8")
    return weights_of(json.loads(text))


def weights_of(params: dict[str, Any]) -> tuple[float, ...]:
    """The weights of a parameter file's contents, checked against :data:`FEATURES`."""
    if tuple(params.get("features", ())) != FEATURES:
        raise ValueError("the belief parameters were fitted on other features")
    return tuple(float(w) for w in params["weights"])


def card_probabilities(k: Knowledge, weights: tuple[float, ...] | None = None) -> dict[int, float]:
    """Each unseen card's chance of being one of the opponent's hidden cards, by the logistic
    model with ``weights`` (the shipped ones by default), before scaling to the count."""
    w = shipped_weights() if weights is None else weights
    out = {}
    for c, x in card_features(k):
        z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
        out[c] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return out


class LearnedOpponentModel(OpponentModel):
    """:class:`OpponentModel` with the learned chances: the probabilities are the logistic
    model's, scaled so they add up to the number of hidden cards, and a sampled hand draws
    its hidden cards with weights the odds ``p / (1 - p)`` (the weights under which sampling
    that many cards matches independent chances ``p``, conditioned on the count)."""

    def __init__(self, k: Knowledge, weights: tuple[float, ...] | None = None) -> None:
        self.k = k
        raw = card_probabilities(k, weights)
        self.weight = {c: p / max(1e-9, 1.0 - p) for c, p in raw.items()}
        self.probability = _scale_to(raw, k.opp_hidden)
