"""Slow, obviously correct reference implementations for property tests.

Nothing clever: list every meld the cards contain, try every way of choosing disjoint melds.
"""

from __future__ import annotations

from itertools import combinations

from ginrummy.cards import POINTS


def all_melds(cards: list[int]) -> list[frozenset[int]]:
    """Every set (3 or 4 of a rank) and every run (3+ consecutive of a suit) in ``cards``."""
    have = set(cards)
    melds: list[frozenset[int]] = []
    for rank in range(13):
        same = [c for c in cards if c % 13 == rank]
        for size in (3, 4):
            for combo in combinations(same, size):
                melds.append(frozenset(combo))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                run = {suit * 13 + r for r in range(start, end)}
                if run <= have:
                    melds.append(frozenset(run))
    return melds


def points(cards) -> int:
    return sum(POINTS[c % 13] for c in cards)


def min_deadwood(cards: list[int]) -> int:
    """Least deadwood over every choice of disjoint melds."""
    melds = all_melds(cards)
    best = points(cards)

    def search(start: int, used: frozenset[int]) -> None:
        nonlocal best
        rest = points(c for c in cards if c not in used)
        best = min(best, rest)
        for i in range(start, len(melds)):
            if not (melds[i] & used):
                search(i + 1, used | melds[i])

    search(0, frozenset())
    return best


def best_discard_value(cards: list[int]) -> int:
    return min(min_deadwood([c for c in cards if c != d]) for d in cards)


def can_lay_off(meld: frozenset[int], laid: frozenset[int]) -> bool:
    """Whether ``laid`` can all be added to ``meld`` (a knocker's meld) keeping it a meld."""
    whole = meld | laid
    ranks = {c % 13 for c in whole}
    suits = {c // 13 for c in whole}
    if len(ranks) == 1:
        return len(whole) <= 4
    if len(suits) != 1:
        return False
    rs = sorted(c % 13 for c in whole)
    return rs == list(range(rs[0], rs[0] + len(rs)))


def layoff_deadwood(defender: list[int], knocker_melds: list[frozenset[int]]) -> int:
    """Least defender deadwood over every assignment of defender cards to knocker melds."""
    best = min_deadwood(defender)
    candidates = [
        c
        for c in defender
        if any(can_lay_off(m, frozenset([c])) or _near(m, c) for m in knocker_melds)
    ]
    for size in range(1, len(candidates) + 1):
        for laid in combinations(candidates, size):
            if _assignable(list(laid), knocker_melds):
                rest = [c for c in defender if c not in laid]
                best = min(best, min_deadwood(rest))
    return best


def _near(meld: frozenset[int], card: int) -> bool:
    # a card that could join a run through a chain: same suit as the run
    return len({c // 13 for c in meld}) == 1 and card // 13 == next(iter(meld)) // 13


def _assignable(laid: list[int], melds: list[frozenset[int]]) -> bool:
    """Try every assignment of the laid cards to melds."""

    def go(i: int, groups: list[frozenset[int]]) -> bool:
        if i == len(laid):
            return all(can_lay_off(m, g) for m, g in zip(melds, groups, strict=True))
        for k in range(len(melds)):
            new = list(groups)
            new[k] = new[k] | {laid[i]}
            if go(i + 1, new):
                return True
        return False

    return go(0, [frozenset() for _ in melds])
