"""Shared evaluation for the stronger levels: draw odds, discard value, opponent model.

All functions work on card masks (see :mod:`ginrummy.cards`) and the :class:`Knowledge` of a
view; none sees hidden cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from ..cards import POINTS, cards_of
from ..melds import (
    best_discard_mask,
    deadwood_after_discards_mask,
    deadwood_mask,
    knock_deadwoods_mask,
)
from .knowledge import Knowledge, meld_outs, same_rank, suit_neighbours


def draw_weights(
    k: Knowledge, opp_probability: dict[int, float] | None = None
) -> list[tuple[int, float]]:
    """Each unseen card with the chance that it is the next stock card.

    Without a model every unseen card is equally likely; with ``opp_probability`` (card ->
    chance it is in the opponent's hand) a card likely held by the opponent is unlikely to be
    drawn.
    """
    cards = cards_of(k.unseen)
    if not cards:
        return []
    if opp_probability is None:
        w = 1.0 / len(cards)
        return [(int(c), w) for c in cards]
    raw = [(int(c), max(0.0, 1.0 - opp_probability.get(int(c), 0.0))) for c in cards]
    total = sum(w for _, w in raw) or 1.0
    return [(c, w / total) for c, w in raw]


def bonused(value: float, limit: int, knock_bonus: float, gin_bonus: float) -> float:
    """A hand's least deadwood ``value`` as the draw estimates count it: at or under
    ``limit`` (able to knock) ``knock_bonus`` points less, and at none (gin) ``gin_bonus``
    less again."""
    if value > limit:
        return value
    return value - knock_bonus - (gin_bonus if value == 0 else 0.0)


def expected_after_draw(
    kept: int,
    draws: Sequence[tuple[int, float]],
    limit: int = -1,
    knock_bonus: float = 0.0,
    gin_bonus: float = 0.0,
) -> float:
    """Expected least deadwood after drawing one of ``draws`` and discarding the best card;
    a result at or under ``limit`` (able to knock) counts ``knock_bonus`` points less, and
    one of no deadwood (gin, if it is within the limit) ``gin_bonus`` less again.

    Only a drawn card that can join a meld with ``kept`` needs the hand searched again: any
    other card belongs to no meld, so the best is to discard either it (leaving ``kept``'s
    deadwood) or the best card of ``kept`` (leaving that plus the drawn card's points)."""
    total = 0.0
    deadwood = deadwood_mask(kept)
    less_one, _ = best_discard_mask(kept)
    outs = meld_outs(kept)
    for card, weight in draws:
        if outs >> card & 1:
            value, _ = best_discard_mask(kept | 1 << card)
        else:
            value = less_one + _POINTS[card]
            if deadwood < value:
                value = deadwood
        # (the common case, over the limit, tested here: this loop is the searches' hot path)
        total += weight * (
            bonused(value, limit, knock_bonus, gin_bonus) if value <= limit else value
        )
    return total


def least_deadwood_discards(after: Mapping[int, int], n: int) -> list[int]:
    """The ``n`` discards of ``after`` (card -> deadwood it leaves) leaving least deadwood,
    least first (ties: the higher rank first, then the lower card)."""
    return sorted(after, key=lambda c: (after[c], -(c % 13), c))[:n]


def expected_after_two_draws(
    kept: int,
    draws: Sequence[tuple[int, float]],
    limit: int = -1,
    knock_bonus: float = 0.0,
    replies: int = 2,
    gin_bonus: float = 0.0,
) -> float:
    """Expected least deadwood after this seat's next two stock draws: a search two draws
    deep over the seat's own turns (the opponent's turns in between are not played).

    After the first draw (weights ``draws``) a hand that can knock (least deadwood at or
    under ``limit``) stops there, counted ``knock_bonus`` points less (and gin, no deadwood,
    ``gin_bonus`` less again, as in :func:`expected_after_draw`); any other hand
    discards, of the ``replies`` cards leaving least deadwood (ties: the higher rank first),
    the one with the least :func:`expected_after_draw` for the second draw, whose weights are
    the first's without the card drawn, scaled to add up to one (with nothing left to draw,
    the deadwood the discard leaves). Two draws see what one does not: a card that melds only
    once two more arrive, or which of two equal cards a second draw can complete."""
    total = 0.0
    for first, weight in draws:
        if weight <= 0.0:
            continue
        hand = kept | 1 << first
        after = deadwood_after_discards_mask(hand)
        best = least_deadwood_discards(after, replies)
        least = after[best[0]]
        if least <= limit:
            total += weight * bonused(least, limit, knock_bonus, gin_bonus)
            continue
        second = [(c, w) for c, w in draws if c != first and w > 0.0]
        if not second:  # nothing left to draw: the hand stays as the discard leaves it
            total += weight * after[best[0]]
            continue
        scale = 1.0 / sum(w for _, w in second)
        second = [(c, w * scale) for c, w in second]
        total += weight * min(
            expected_after_draw(hand & ~(1 << card), second, limit, knock_bonus, gin_bonus)
            for card in best
        )
    return total


_POINTS = tuple(POINTS[c % 13] for c in range(52))
"""Deadwood points per card."""


class OpponentModel:
    """A Bayesian-style estimate of the opponent's hidden cards.

    Every unseen card starts with the same prior weight. Each public event multiplies the
    weights of related cards by a likelihood ratio: a card the opponent took from the pile
    makes its meld partners likelier (they took it to meld it); a card it discarded or passed
    by makes its partners less likely (it would have kept or taken a card that melds). The
    weights are then scaled so the probabilities add up to the number of hidden cards.
    """

    TAKE_RANK = 3.0
    TAKE_SUIT_1 = 3.0
    TAKE_SUIT_2 = 1.8
    DISCARD_RANK = 0.45
    DISCARD_SUIT_1 = 0.55
    DISCARD_SUIT_2 = 0.8
    DECLINE_RANK = 0.6
    DECLINE_SUIT_1 = 0.7

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        unseen = [int(c) for c in cards_of(k.unseen)]
        weight = dict.fromkeys(unseen, 1.0)

        def scale(mask: int, factor: float) -> None:
            for c in cards_of(mask & k.unseen):
                weight[int(c)] *= factor

        for c in cards_of(k.opp_took):
            scale(same_rank(c), self.TAKE_RANK)
            scale(suit_neighbours(c, 1), self.TAKE_SUIT_1)
            scale(suit_neighbours(c, 2) & ~suit_neighbours(c, 1), self.TAKE_SUIT_2)
        for c in cards_of(k.opp_discarded):
            scale(same_rank(c), self.DISCARD_RANK)
            scale(suit_neighbours(c, 1), self.DISCARD_SUIT_1)
            scale(suit_neighbours(c, 2) & ~suit_neighbours(c, 1), self.DISCARD_SUIT_2)
        for c in cards_of(k.opp_declined & ~k.opp_took):
            scale(same_rank(c), self.DECLINE_RANK)
            scale(suit_neighbours(c, 1), self.DECLINE_SUIT_1)
        self.weight = weight
        self.probability = _scale_to(weight, k.opp_hidden)

    def sample_hand(self, rng: random.Random) -> int:
        """A plausible opponent hand: its known cards plus hidden ones drawn by weight."""
        n = self.k.opp_hidden
        if n <= 0:
            return self.k.opp_known
        # Efraimidis-Spirakis weighted sampling without replacement
        keyed = sorted(
            ((rng.random() ** (1.0 / w) if w > 0 else 0.0), c) for c, w in self.weight.items()
        )
        hand = self.k.opp_known
        for _, c in keyed[-n:]:
            hand |= 1 << c
        return hand

    def deals(
        self,
        rng: random.Random,
        count: int,
        sharpness: float,
        oversample: int = 4,
        above: int = -1,
    ) -> list[tuple[int, list[int]]]:
        """``count`` plausible full deals: (opponent hand, stock order top first).

        Candidate hands come from :meth:`sample_hand`; since an opponent keeps its good cards,
        a candidate is then kept with weight ``exp(-sharpness * deadwood)`` (resampling), and
        the stock is a random order of the rest of the unseen cards. ``above``: only hands
        with more deadwood than that (an opponent known to knock whenever it can, which has
        just discarded instead), unless no candidate has.
        """
        pool = [self.sample_hand(rng) for _ in range(count * oversample)]
        if above >= 0:
            pool = [h for h in pool if deadwood_mask(h) > above] or pool
        if sharpness > 0:
            weights = [math.exp(-sharpness * deadwood_mask(h)) for h in pool]
            chosen = rng.choices(pool, weights, k=count)
        else:
            chosen = pool[:count]
        out = []
        for opp in chosen:
            stock = [int(c) for c in cards_of(self.k.unseen & ~opp)]
            rng.shuffle(stock)
            out.append((opp, stock))
        return out

    def usefulness(self, card: int) -> float:
        """Chance that the opponent can meld ``card`` now (set or run with cards it holds)."""
        p = self.probability
        known = self.k.opp_known

        def has(c: int) -> float:
            if known >> c & 1:
                return 1.0
            return p.get(c, 0.0)

        # at least two of the other three cards of the rank
        a, b, c = (has(other) for other in cards_of(same_rank(card)))
        p_set = a * b + a * c + b * c - 2 * a * b * c
        suit, rank = divmod(card, 13)

        def at(r: int) -> float:
            return has(suit * 13 + r) if 0 <= r < 13 else 0.0

        p_run = 1.0 - (1 - at(rank - 2) * at(rank - 1)) * (1 - at(rank - 1) * at(rank + 1)) * (
            1 - at(rank + 1) * at(rank + 2)
        )
        return 1.0 - (1.0 - p_set) * (1.0 - p_run)


def _scale_to(weight: dict[int, float], n: int) -> dict[int, float]:
    """Probabilities proportional to ``weight``, capped at 1, adding up to ``n``."""
    if not weight or n <= 0:
        return dict.fromkeys(weight, 0.0)
    prob = dict.fromkeys(weight, 0.0)
    free = dict(weight)
    remaining = float(n)
    for _ in range(10):
        total = sum(free.values())
        if total <= 0:
            break
        capped = {c: w * remaining / total for c, w in free.items()}
        over = [c for c, v in capped.items() if v >= 1.0]
        if not over:
            prob.update(capped)
            break
        for c in over:
            prob[c] = 1.0
            del free[c]
        remaining = n - sum(1 for v in prob.values() if v >= 1.0)
    return prob


def knock_value(
    k: Knowledge, kept: int, model: OpponentModel, rng: random.Random, samples: int
) -> tuple[float, float]:
    """``(expected points, undercut chance)`` of knocking now keeping ``kept``, by simulation
    over ``samples`` plausible opponent hands (lay-offs and the knocker's tie-break included)."""
    rules = k.rules
    total = 0.0
    undercuts = 0
    for _ in range(samples):
        opp = model.sample_hand(rng)
        dk, dd = knock_deadwoods_mask(kept, opp)
        if dk == 0:
            total += dd + rules.gin_bonus
        elif dk < dd:
            total += dd - dk
        else:
            undercuts += 1
            total -= dk - dd + rules.undercut_bonus
    return total / samples, undercuts / samples
