"""Melds, deadwood-minimal arrangements, best discards and lay-offs. Pure functions.

How it is fast
--------------
Every arrangement is a choice of *sets* (per rank: none, one of the 3-card subsets, or all
four) plus *runs* inside each suit. Once the sets are chosen, the best use of what is left in
a suit is fixed: a maximal block of three or more consecutive ranks is one run, anything in a
shorter block is deadwood. So a table over the 8,192 patterns of one suit (``RUN_DEADWOOD``)
gives the deadwood of the rest with four lookups, and only ranks held three or four times need
enumerating. Most hands hold none, and cost four lookups.

The best discard of eleven cards uses a second table, ``_GAIN_KEY``: for each suit pattern, the
most deadwood that removing one of its cards can save. For a fixed choice of sets, the best
discard saves ``max`` of that over the four suits; so the best discard is found without
evaluating eleven ten-card hands.

The functions named ``*_mask`` take and return raw 52-bit masks (see :mod:`ginrummy.cards`)
and are the fast path used by the engine, the AI and the benchmarks; they check nothing. The
others take cards in any form of :data:`~ginrummy.cards.CardsLike` (text such as
``"As 2s 3s"``, a sequence of cards, card texts or card numbers, a
:class:`~ginrummy.cards.CardSet`, or a mask) and refuse anything else, a repeated card or
more than eleven cards with a :class:`~ginrummy.errors.CardParseError` (a ``ValueError``).

>>> a = arrange("As 2s 3s 7h 7d 7c Kd Qd Jd 5c")
>>> [format_cards(m) for m in a.melds], format_cards(a.deadwood), a.deadwood_points
(['As 2s 3s', '7h 7d 7c', 'Jd Qd Kd'], '5c', 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Final

from .cards import (
    DECK,
    MAX_HAND,
    POINTS,
    Card,
    CardInputError,
    CardsLike,
    card_list,
    cards_of,
    cards_tuple,
    format_cards,
    parse_cards,
    to_mask,
)

__all__ = [
    "RUN_DEADWOOD",
    "RUN_MELDED",
    "Arrangement",
    "LayOff",
    "LayOffResult",
    "all_min_arrangements",
    "arrange",
    "arrange_mask",
    "best_discard",
    "best_discard_mask",
    "deadwood_after_discards_mask",
    "deadwood_floor_mask",
    "deadwood_mask",
    "deadwood_points",
    "format_cards",
    "is_meld",
    "lay_off",
    "lay_off_mask",
    "melded_mask",
    "parse_cards",
    "settle_knock_mask",
]

_SUIT: Final = 0x1FFF
_RANK_BITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The four cards of rank 0 (ace); shifted left by a rank (or times its bit): that rank's."""
_NEG: Final = -(1 << 20)


def _suit_pattern_tables() -> tuple[list[int], list[int], list[int]]:
    """Per 13-bit suit pattern: runs-only deadwood, melded ranks, best-removal key."""
    deadwood = [0] * 8192
    melded = [0] * 8192
    for p in range(8192):
        dw = 0
        mel = 0
        r = 0
        while r < 13:
            if p >> r & 1:
                start = r
                while r < 13 and p >> r & 1:
                    r += 1
                if r - start >= 3:
                    mel |= ((1 << (r - start)) - 1) << start
                else:
                    dw += sum(POINTS[k] for k in range(start, r))
            else:
                r += 1
        deadwood[p] = dw
        melded[p] = mel
    gain_key = [_NEG] * 8192
    for p in range(1, 8192):
        best = _NEG
        for r in range(13):
            if p >> r & 1:
                key = (deadwood[p] - deadwood[p ^ (1 << r)]) * 16 + r
                if key > best:
                    best = key
        gain_key[p] = best
    return deadwood, melded, gain_key


RUN_DEADWOOD, RUN_MELDED, _GAIN_KEY = _suit_pattern_tables()
"""``RUN_DEADWOOD[p]``: deadwood points of suit pattern ``p`` (bit r = rank r) using runs only;
``RUN_MELDED[p]``: the ranks of ``p`` in a block of three or more consecutive ranks (a run)."""

_RD = RUN_DEADWOOD


def _set_options() -> list[list[tuple[int, ...]]]:
    """``[rank][presence]``: the set choices (as card masks, 0 = no set) for that rank."""
    table: list[list[tuple[int, ...]]] = []
    for r in range(13):
        row: list[tuple[int, ...]] = []
        for presence in range(16):
            suits = [s for s in range(4) if presence >> s & 1]
            bits = [1 << (s * 13 + r) for s in suits]
            opts = [0]
            if len(bits) == 3:
                opts.append(bits[0] | bits[1] | bits[2])
            elif len(bits) == 4:
                opts.append(bits[0] | bits[1] | bits[2] | bits[3])
                for skip in range(4):
                    opts.append(sum(b for i, b in enumerate(bits) if i != skip))
            row.append(tuple(opts))
        table.append(row)
    return table


_SET_OPTIONS: Final = _set_options()


def _set_choices(m: int, trip: int) -> Sequence[int]:
    """All choices of sets (each a card mask of the set cards) for ranks in ``trip``."""
    low = trip & -trip
    if low == trip:  # one rank (the usual case): its options as they are
        r = low.bit_length() - 1
        return _SET_OPTIONS[r][
            (m >> r & 1) | (m >> (r + 12) & 2) | (m >> (r + 24) & 4) | (m >> (r + 36) & 8)
        ]
    per_rank: list[tuple[int, ...]] = []
    while trip:
        low = trip & -trip
        r = low.bit_length() - 1
        trip ^= low
        presence = (m >> r & 1) | (m >> (r + 12) & 2) | (m >> (r + 24) & 4) | (m >> (r + 36) & 8)
        per_rank.append(_SET_OPTIONS[r][presence])
    return [sum(combo) for combo in product(*per_rank)]


def _runs_deadwood(rest: int, _rd: list[int] = RUN_DEADWOOD) -> int:
    """Deadwood of ``rest`` using runs only (sets already taken out)."""
    return _rd[rest & 8191] + _rd[(rest >> 13) & 8191] + _rd[(rest >> 26) & 8191] + _rd[rest >> 39]


def _trips(m: int) -> int:
    a = m & _SUIT
    b = (m >> 13) & _SUIT
    c = (m >> 26) & _SUIT
    d = m >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


def deadwood_mask(m: int, _rd: list[int] = RUN_DEADWOOD) -> int:
    """Minimal deadwood points of the cards in mask ``m`` (any number of cards).

    >>> deadwood_mask(to_mask("7s 7h 7d 7c 5h 6h"))
    0
    """
    # The hot path: literals and a default-argument table are measurably faster than globals.
    a = m & 8191
    b = (m >> 13) & 8191
    c = (m >> 26) & 8191
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if trip:
        return _deadwood_with_sets(m, trip)
    return _rd[a] + _rd[b] + _rd[c] + _rd[d]


def deadwood_floor_mask(m: int, _rd: list[int] = RUN_DEADWOOD, _rm: list[int] = RUN_MELDED) -> int:
    """A lower bound of :func:`deadwood_mask`: the points of the cards of ``m`` that are in no
    meld at all (no run of three through them, fewer than three of their rank). Exact when no
    rank is held three times; it never enumerates sets.
    """
    a = m & 8191
    b = (m >> 13) & 8191
    c = (m >> 26) & 8191
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        return _rd[a] + _rd[b] + _rd[c] + _rd[d]
    # outside runs and sets every block of a suit is shorter than three: all deadwood
    loose = m & ~(_rm[a] | _rm[b] << 13 | _rm[c] << 26 | _rm[d] << 39 | trip * _RANK_BITS)
    return (
        _rd[loose & 8191] + _rd[(loose >> 13) & 8191] + _rd[(loose >> 26) & 8191] + _rd[loose >> 39]
    )


def _deadwood_with_sets(m: int, trip: int, _rd: list[int] = RUN_DEADWOOD) -> int:
    best = 1 << 30
    for used in _set_choices(m, trip):
        rest = m & ~used
        v = _rd[rest & 8191] + _rd[(rest >> 13) & 8191] + _rd[(rest >> 26) & 8191] + _rd[rest >> 39]
        if v < best:
            best = v
    return best


def _first_best_sets(m: int, trip: int, _rd: list[int] = RUN_DEADWOOD) -> int:
    """The first choice of sets (in :func:`_set_choices` order) leaving the least deadwood."""
    best, best_used = 1 << 30, 0
    for used in _set_choices(m, trip):
        rest = m & ~used
        v = _rd[rest & 8191] + _rd[(rest >> 13) & 8191] + _rd[(rest >> 26) & 8191] + _rd[rest >> 39]
        if v < best:
            best, best_used = v, used
    return best_used


def _best_removal(rest: int, _gk: list[int] = _GAIN_KEY) -> int:
    """``key * 4 + suit`` where key is ``gain * 16 + rank`` of the best card to remove
    (largest gain, then higher rank, then the first suit)."""
    k0 = _gk[rest & 8191]
    k1 = _gk[(rest >> 13) & 8191]
    k2 = _gk[(rest >> 26) & 8191]
    k3 = _gk[rest >> 39]
    best, suit = k0, 0
    if k1 > best:
        best, suit = k1, 1
    if k2 > best:
        best, suit = k2, 2
    if k3 > best:
        best, suit = k3, 3
    return best * 4 + suit


def best_discard_mask(m: int, _rd: list[int] = RUN_DEADWOOD) -> tuple[int, int]:
    """``(deadwood, card)``: the least deadwood of the cards of ``m`` after one discard,
    and a discard that reaches it (of the equal ones: the highest rank, then spades first).

    ``m`` must hold at least one card; it is normally an eleven-card hand.
    """
    a = m & 8191
    b = (m >> 13) & 8191
    c = (m >> 26) & 8191
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:
        key = _best_removal(m)
        suit = key & 3
        key >>= 2
        return _rd[a] + _rd[b] + _rd[c] + _rd[d] - (key >> 4), suit * 13 + (key & 15)
    best = 1 << 30
    best_card = -1
    for used in _set_choices(m, trip):
        rest = m & ~used
        if not rest:
            continue
        key = _best_removal(rest)
        suit = key & 3
        key >>= 2
        v = (
            _rd[rest & 8191]
            + _rd[(rest >> 13) & 8191]
            + _rd[(rest >> 26) & 8191]
            + _rd[rest >> 39]
            - (key >> 4)
        )
        if v < best:
            best = v
            best_card = suit * 13 + (key & 15)
    if best_card < 0:
        raise ValueError("best_discard needs at least one card")
    return best, best_card


def deadwood_after_discards_mask(m: int) -> dict[int, int]:
    """For each card of ``m``: the minimal deadwood of the other cards (card -> points).

    Like :func:`best_discard_mask`: for each choice of sets on the whole hand, removing a card
    outside the sets changes only its suit's run table entry; every choice of sets of the hand
    without that card is such a choice, so the minimum over choices is exact.
    """
    rd = _RD
    a = m & 8191
    b = (m >> 13) & 8191
    c = (m >> 26) & 8191
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    out: dict[int, int] = {}
    if not trip:  # runs only: removing a card changes its suit's entry alone
        # (the loop below would give the same with ``used`` 0; this copy skips its minimum
        # bookkeeping, about 10 % of the time of a hand with no possible set)
        total = rd[a] + rd[b] + rd[c] + rd[d]
        for first, p in ((0, a), (13, b), (26, c), (39, d)):
            others = total - rd[p]
            q = p
            while q:
                low = q & -q
                q ^= low
                out[first + low.bit_length() - 1] = others + rd[p ^ low]
        return out
    for used in _set_choices(m, trip):
        rest = m & ~used
        a = rest & 8191
        b = (rest >> 13) & 8191
        c = (rest >> 26) & 8191
        d = rest >> 39
        total = rd[a] + rd[b] + rd[c] + rd[d]
        for first, p in ((0, a), (13, b), (26, c), (39, d)):
            others = total - rd[p]
            q = p
            while q:
                low = q & -q
                q ^= low
                card = first + low.bit_length() - 1
                value = others + rd[p ^ low]
                if value < out.get(card, 1 << 30):
                    out[card] = value
    return out


def melded_mask(m: int, _rm: list[int] = RUN_MELDED) -> int:
    """The cards melded in the deadwood-minimal arrangement :func:`arrange_mask` picks."""
    a = m & 8191
    b = (m >> 13) & 8191
    c = (m >> 26) & 8191
    d = m >> 39
    trip = (a & b & (c | d)) | (c & d & (a | b))
    if not trip:  # no sets possible: the runs of each suit
        return _rm[a] | _rm[b] << 13 | _rm[c] << 26 | _rm[d] << 39
    best_used = _first_best_sets(m, trip)
    rest = m & ~best_used
    runs = _rm[rest & 8191] | _rm[(rest >> 13) & 8191] << 13 | _rm[(rest >> 26) & 8191] << 26
    return best_used | runs | _rm[rest >> 39] << 39


# --- arrangements ---------------------------------------------------------------------------


_RANK_ORDER: Final = tuple((c % 13) * 4 + c // 13 for c in range(52))
"""A sort key per card: by rank, then suit."""


def _meld_key(meld: int, _order: tuple[int, ...] = _RANK_ORDER) -> int:
    """Melds sort by their lowest card, by rank then suit."""
    return _order[(meld & -meld).bit_length() - 1]


def _run_masks(rest: int) -> list[int]:
    """The maximal runs (as card masks) in ``rest``, one per block of 3+ in a suit."""
    runs: list[int] = []
    for s in range(4):
        mel = RUN_MELDED[(rest >> (13 * s)) & _SUIT]
        while mel:
            low = mel & -mel
            block = mel + low  # clears the lowest block of ones...
            block = (block & -block) - low  # ...this is exactly that block
            runs.append(block << (13 * s))
            mel &= ~block
    return runs


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds and deadwood.

    ``melds`` is a tuple of melds, each a tuple of cards (sets by suit, runs by rank), ordered
    by lowest rank; ``deadwood`` the unmelded cards in rank order; ``deadwood_points`` their sum.
    """

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    meld_masks: tuple[int, ...] = field(repr=False, compare=False)

    @classmethod
    def from_melds(cls, hand: int, meld_masks: Iterable[int]) -> Arrangement:
        """Build the arrangement of ``hand`` that uses exactly these melds."""
        masks = tuple(sorted(meld_masks, key=_meld_key))
        used = 0
        for mm in masks:
            used |= mm
        by_rank = _RANK_ORDER.__getitem__
        dead = sorted(cards_of(hand & ~used), key=by_rank)
        melds = []
        for mm in masks:
            low = (mm & -mm).bit_length() - 1
            first = low - low % 13  # the first card of the lowest card's suit
            if mm < 1 << (first + 13) or not mm & ~(_RANK_BITS << (low % 13)):
                melds.append(cards_tuple(mm))  # one suit or one rank: already in rank order
            else:
                melds.append(tuple(sorted(cards_of(mm), key=by_rank)))
        return cls(tuple(melds), tuple(dead), sum([POINTS[c % 13] for c in dead]), masks)

    def __str__(self) -> str:
        parts = ["[" + format_cards(m) + "]" for m in self.melds]
        if self.deadwood:
            parts.append(format_cards(self.deadwood))
        text = " ".join(parts) if parts else "(no cards)"
        return f"{text}  deadwood {self.deadwood_points}"

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able form."""
        return {
            "melds": [[str(c) for c in m] for m in self.melds],
            "deadwood": [str(c) for c in self.deadwood],
            "deadwood_points": self.deadwood_points,
        }


def _arrangements(m: int, only_min: bool) -> list[Arrangement]:
    trip = _trips(m)
    choices = _set_choices(m, trip) if trip else [0]
    scored: list[tuple[int, int]] = []
    for used in choices:
        rest = m & ~used
        v = _runs_deadwood(rest)
        scored.append((v, used))
    best = min(v for v, _ in scored)
    out: list[Arrangement] = []
    for v, used in scored:
        if only_min and v != best:
            continue
        sets: list[int] = []
        u = used
        for r in range(13):
            rank_bits = u & _RANK_BITS << r
            if rank_bits:
                sets.append(rank_bits)
        out.append(Arrangement.from_melds(m, sets + _run_masks(m & ~used)))
    return out


def arrange_mask(m: int) -> Arrangement:
    """The deadwood-minimal arrangement of the cards of mask ``m``.

    Among equally good arrangements the first in a fixed order is chosen: the order of set
    choices is "no set" first, then the full set, then 3-card subsets (lowest rank varies
    fastest). :func:`all_min_arrangements` gives them all.
    """
    trip = _trips(m)
    if not trip:  # no sets: the runs of each suit
        return Arrangement.from_melds(m, _run_masks(m))
    best_used = _first_best_sets(m, trip)  # the first minimal choice, as _arrangements orders them
    return Arrangement.from_melds(m, _set_masks(best_used) + _run_masks(m & ~best_used))


def _set_masks(used: int) -> list[int]:
    """The sets (card masks, lowest rank first) of a choice of sets ``used``."""
    sets: list[int] = []
    ranks = (used | used >> 13 | used >> 26 | used >> 39) & _SUIT
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        sets.append(used & _RANK_BITS * low)
    return sets


def _hand_mask(cards: CardsLike, what: str, least: int = 0) -> int:
    """The mask of a hand given to ``what`` in any accepted form: distinct cards, from
    ``least`` to :data:`~ginrummy.cards.MAX_HAND` of them."""
    m = to_mask(cards, what)
    n = m.bit_count()
    if n > MAX_HAND:
        raise CardInputError(
            f"{what} takes at most {MAX_HAND} cards (a hand holds at most eleven); {n} given"
        )
    if n < least:
        needed = "one card" if least == 1 else f"{least} cards"
        raise CardInputError(f"{what} needs at least {needed}; {n or 'none'} given")
    return m


def arrange(cards: CardsLike) -> Arrangement:
    """The deadwood-minimal arrangement of 0 to 11 distinct cards, in any accepted form
    (text, a sequence of cards, a mask: :data:`~ginrummy.cards.CardsLike`).

    >>> arrange("7s 7h 7d 7c 5h 6h").melds
    ((Card('5h'), Card('6h'), Card('7h')), (Card('7s'), Card('7d'), Card('7c')))
    """
    return arrange_mask(_hand_mask(cards, "arrange"))


def all_min_arrangements(cards: CardsLike) -> list[Arrangement]:
    """Every deadwood-minimal arrangement (runs kept maximal: a six-card run is one meld) of
    0 to 11 distinct cards in any accepted form (a mask too)."""
    return _arrangements(_hand_mask(cards, "all_min_arrangements"), only_min=True)


def deadwood_points(cards: CardsLike) -> int:
    """Minimal deadwood points of 0 to 11 distinct cards in any accepted form."""
    return deadwood_mask(_hand_mask(cards, "deadwood_points"))


def best_discard(cards: CardsLike) -> tuple[Card, Arrangement]:
    """For eleven cards (any number from 1 to 11, in any accepted form): the best discard
    and the arrangement of the cards kept.

    >>> card, kept = best_discard("As 2s 3s 7h 7d 7c Kd Qd Jd 5c 9h")
    >>> card, kept.deadwood_points
    (Card('9h'), 5)
    """
    m = _hand_mask(cards, "best_discard", least=1)
    _, card = best_discard_mask(m)
    return DECK[card], arrange_mask(m & ~(1 << card))


def is_meld(cards: CardsLike) -> bool:
    """True for a set (3-4 cards of a rank) or a run (3+ consecutive cards of a suit); the
    cards are distinct, in any accepted form.

    >>> is_meld("9h Th Jh"), is_meld("9h Th Qh")
    (True, False)
    """
    cs, m = card_list(cards, "is_meld")
    if len(cs) < 3:
        return False
    if len({c % 13 for c in cs}) == 1:
        return len(cs) <= 4
    if len({c // 13 for c in cs}) != 1:
        return False
    pattern = m >> (13 * (cs[0] // 13))
    low = pattern & -pattern
    return (pattern + low) & pattern == 0  # one block of consecutive ranks


# --- lay-offs -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayOff:
    """One defender card laid off onto the knocker's meld number ``meld`` (an index into the
    knocker's ``Arrangement.melds``)."""

    card: Card
    meld: int

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able form."""
        return {"card": str(self.card), "meld": self.meld}


@dataclass(frozen=True, slots=True)
class LayOffResult:
    """The defender's best reading after a knock: own melds, lay-offs, remaining deadwood."""

    arrangement: Arrangement
    """The defender's own melds and the deadwood left (lay-off cards excluded)."""
    layoffs: tuple[LayOff, ...]
    deadwood_points: int


def _layoff_options(meld: int, defender: int) -> list[list[int]]:
    """Per meld, the possible lay-off masks as chains: a list of masks, each one card."""
    low_bit = meld & -meld
    low = low_bit.bit_length() - 1
    suit, rank = divmod(low, 13)
    pattern = (meld >> (13 * suit)) & _SUIT
    if pattern == 1 << rank and meld.bit_count() > 1:
        # a set: the bit of this rank in each suit it spans
        if meld.bit_count() != 3:
            return []
        rank_all = _RANK_BITS << rank
        missing = rank_all & ~meld
        return [[missing]] if defender & missing else []
    hi = pattern.bit_length() - 1
    down: list[int] = []
    r = rank - 1
    while r >= 0 and defender >> (13 * suit + r) & 1:
        down.append(1 << (13 * suit + r))
        r -= 1
    up: list[int] = []
    r = hi + 1
    while r < 13 and defender >> (13 * suit + r) & 1:
        up.append(1 << (13 * suit + r))
        r += 1
    return [down, up]


_Slot = tuple[int, list[tuple[int, int]]]


def _layoff_slots(defender: int, knocker_melds: Sequence[int]) -> list[_Slot]:
    """``(meld index, options)`` for each meld end where the defender can lay off: the options
    are ``(cards mask, count)`` for each prefix of the chain, nothing laid first."""
    slots: list[_Slot] = []
    for index, meld in enumerate(knocker_melds):
        for chain in _layoff_options(meld, defender):
            if chain:
                options = [(0, 0)]
                laid = 0
                for bit in chain:
                    laid |= bit
                    options.append((laid, len(options)))
                slots.append((index, options))
    return slots


def lay_off_mask(defender: int, knocker_melds: Sequence[int]) -> LayOffResult:
    """The defender's best own melds plus lay-offs onto ``knocker_melds`` (card masks).

    Laid-off cards: the fourth card of a three-card set, cards at either end of a run,
    chaining (8d then 9d onto 5d 6d 7d). Of the readings with the least remaining deadwood the
    one laying off fewest cards is chosen (the defender's own melds stay whole), then the first
    found.
    """
    slots = _layoff_slots(defender, knocker_melds)
    if not slots:  # nothing to lay off
        arrangement = arrange_mask(defender)
        return LayOffResult(arrangement, (), arrangement.deadwood_points)
    # every combination of one option per slot, in order; the values decide, and only the
    # chosen combination's lay-offs are built
    best_dw, best_count = 1 << 30, 0
    best_combo: tuple[tuple[int, int], ...] = ()
    for combo in product(*(options for _, options in slots)):
        laid = count = 0
        for cards, n in combo:
            if laid & cards:  # a card can go onto one meld end only
                break
            laid |= cards
            count += n
        else:
            dw = deadwood_mask(defender & ~laid)
            if dw < best_dw or (dw == best_dw and count < best_count):
                best_dw, best_count, best_combo = dw, count, combo
    laid = 0
    pairs: list[tuple[int, int]] = []
    for (index, _), (cards, _) in zip(slots, best_combo, strict=True):
        laid |= cards
        pairs.extend((card, index) for card in cards_of(cards))
    layoffs = tuple(LayOff(DECK[card], index) for card, index in sorted(pairs))
    return LayOffResult(arrange_mask(defender & ~laid), layoffs, best_dw)


def lay_off(defender: CardsLike, knocker: Arrangement | CardsLike) -> LayOffResult:
    """Card-level form of :func:`lay_off_mask`: the defender's cards (0 to 11, any accepted
    form) against the knocker's arrangement, or against the knocker's cards (arranged by
    :func:`arrange`; ``LayOff.meld`` then numbers the melds of ``arrange(knocker)``).

    >>> [str(lo.card) for lo in lay_off("7d 2c", "7s 7h 7c").layoffs]
    ['7d']
    """
    d = _hand_mask(defender, "lay_off's defender")
    if isinstance(knocker, Arrangement):
        melds = knocker.meld_masks
        k = 0
        for meld in melds:
            k |= meld
        for card in knocker.deadwood:
            k |= 1 << card
    else:
        k = _hand_mask(knocker, "lay_off's knocker (an Arrangement or cards)")
        melds = arrange_mask(k).meld_masks
    both = d & k
    if both:
        shown = format_cards(cards_of(both))
        verb = "is" if both.bit_count() == 1 else "are"
        raise CardInputError(
            f"lay_off: {shown} {verb} in both the defender's and the knocker's cards"
        )
    return lay_off_mask(d, melds)


def settle_knock_mask(knocker: int, defender: int) -> tuple[Arrangement, LayOffResult]:
    """The knocker's arrangement and the defender's lay-off reading after a knock.

    RULES.md: among the knocker's deadwood-minimal arrangements, the one that leaves the
    defender the most deadwood after lay-offs (the first such in :func:`arrange_mask` order
    when several tie). The choice is made on values; only the chosen reading is built.
    """
    _, meld_sets = _min_meld_sets(knocker)
    chosen = meld_sets[0]
    if len(meld_sets) > 1:
        best = -1
        for melds in meld_sets:
            left = _layoff_deadwood(defender, melds)
            if left > best:
                best, chosen = left, melds
    arrangement = Arrangement.from_melds(knocker, chosen)
    return arrangement, lay_off_mask(defender, arrangement.meld_masks)


# --- value-only fast paths (AI simulations) -------------------------------------------------


def _min_meld_sets(m: int) -> tuple[int, list[list[int]]]:
    """``(deadwood, meld-mask lists)`` of every deadwood-minimal arrangement of ``m``."""
    trip = _trips(m)
    choices = _set_choices(m, trip) if trip else [0]
    best = 1 << 30
    chosen: list[int] = []
    for used in choices:
        rest = m & ~used
        v = _runs_deadwood(rest)
        if v < best:
            best = v
            chosen = [used]
        elif v == best:
            chosen.append(used)
    return best, [_set_masks(used) + _run_masks(m & ~used) for used in chosen]


def _layoff_deadwood(defender: int, melds: Sequence[int]) -> int:
    """Least defender deadwood after laying off onto ``melds`` (value only)."""
    slots = _layoff_slots(defender, melds)
    if not slots:
        return deadwood_mask(defender)
    best = 1 << 30
    for combo in product(*(options for _, options in slots)):
        laid = 0
        for cards, _ in combo:
            if laid & cards:
                break
            laid |= cards
        else:
            dw = deadwood_mask(defender & ~laid)
            if dw < best:
                best = dw
    return best


def knock_deadwoods_mask(knocker: int, defender: int) -> tuple[int, int]:
    """``(knocker deadwood, defender deadwood after lay-offs)`` for a knock, with the
    knocker's tie-break of :func:`settle_knock_mask`; values only, for simulations."""
    dk, meld_sets = _min_meld_sets(knocker)
    return dk, max(_layoff_deadwood(defender, melds) for melds in meld_sets)
