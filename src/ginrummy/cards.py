"""Cards, sets of cards, their text form, and the seeded shuffle.

A :class:`Card` is a small integer ``0..51``: ``suit * 13 + rank`` with suits in the
order spades, hearts, diamonds, clubs (``s h d c``) and ranks ``A 2 .. T J Q K`` (ace low,
rank index 0). A set of cards is a 52-bit mask with bit ``card`` set for each card in it;
:class:`CardSet` wraps such a mask with a friendly API, and the meld code works on the
raw integers for speed.

Text form (RULES.md): rank then suit, ``As 7h Td Kc``. On input ``10h``, lower-case ranks
and the suit symbols ``♠ ♥ ♦ ♣`` (and their white forms) are accepted too.

>>> parse_cards("As 10h 7♦")
[Card('As'), Card('Th'), Card('7d')]
>>> str(CardSet.parse("Kc As"))
'As Kc'
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Iterator
from operator import lt as _lt
from typing import Final

from .errors import CardParseError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
FULL_DECK_MASK: Final = (1 << 52) - 1

_SUIT_ALIASES: Final = {
    "s": 0,
    "h": 1,
    "d": 2,
    "c": 3,
    "♠": 0,
    "♥": 1,
    "♦": 2,
    "♣": 3,
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}
_RANK_ALIASES: Final = {r: i for i, r in enumerate(RANKS)} | {"10": 9}


class Card(int):
    """One playing card; an ``int`` in ``0..51`` with a readable face.

    ``Card('As')`` and ``Card(0)`` are the same card. Cards compare as their integers
    (spades first, then hearts, diamonds, clubs; ace to king inside a suit).

    >>> Card('Td').rank, Card('Td').suit, Card('Td').points
    (9, 2, 10)
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if type(value) is not int and not isinstance(value, int):
            raise TypeError(f"a card is made from an int 0..51 or a card string, not {value!r}")
        if not 0 <= value < 52:
            raise CardParseError(str(value), "a card index is 0..51")
        if _DECK_READY:
            return DECK[value]
        return int.__new__(cls, value)

    @property
    def rank(self) -> int:
        """Rank index, 0 (ace) to 12 (king)."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """Suit index, 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
        return int(self) // 13

    @property
    def points(self) -> int:
        """Deadwood value: ace 1, two to ten face value, J Q K 10."""
        return POINTS[int(self) % 13]

    @property
    def mask(self) -> int:
        """This card as a one-bit card mask."""
        return 1 << int(self)

    @property
    def symbol(self) -> str:
        """Rank and suit symbol, e.g. ``'T♦'``."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Card({NAMES[int(self)]!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


POINTS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""Deadwood points by rank index."""

NAMES: Final = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
"""Two-character name of each card index."""

_DECK_READY = False
DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
"""All 52 cards in index order (spades A..K, hearts, diamonds, clubs)."""
_DECK_READY = True

_BY_NAME: Final = {name: DECK[i] for i, name in enumerate(NAMES)}


def parse_card(token: str) -> Card:
    """Parse one card: ``'As'``, ``'10h'``, ``'td'``, ``'Q♠'``.

    Raises :class:`~ginrummy.errors.CardParseError` naming the token when it is not a card.
    """
    card = _BY_NAME.get(token)
    if card is not None:
        return card
    text = token.strip()
    if len(text) < 2:
        raise CardParseError(token, "a card is a rank (A 2-10 J Q K, or T) then a suit (s h d c)")
    rank_text, suit_text = text[:-1].upper(), text[-1]
    suit = _SUIT_ALIASES.get(suit_text.lower(), _SUIT_ALIASES.get(suit_text))
    rank = _RANK_ALIASES.get(rank_text)
    if rank is None:
        raise CardParseError(token, f"unknown rank {rank_text!r}; ranks are A 2-9 T (or 10) J Q K")
    if suit is None:
        raise CardParseError(token, f"unknown suit {suit_text!r}; suits are s h d c (or ♠ ♥ ♦ ♣)")
    return DECK[suit * 13 + rank]


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse cards separated by spaces or commas; refuse a card given twice.

    >>> parse_cards("As 2s 3s")
    [Card('As'), Card('2s'), Card('3s')]
    """
    if isinstance(text, str):
        tokens: list[str | Card] = list(text.replace(",", " ").split())
    else:
        tokens = list(text)
    cards: list[Card] = []
    seen = 0
    for token in tokens:
        card = DECK[token] if isinstance(token, int) else parse_card(token)
        if seen & (1 << card):
            raise CardParseError(str(token), f"{card} is given twice")
        seen |= 1 << card
        cards.append(card)
    return cards


def mask_of(cards: Iterable[int]) -> int:
    """The card mask of some cards (duplicates collapse)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _suit_card_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    tables = []
    for suit in range(4):
        cards = DECK[suit * 13 : suit * 13 + 13]
        tables.append(tuple(tuple(cards[r] for r in range(13) if p >> r & 1) for p in range(8192)))
    return tuple(tables)


_SUIT_CARDS: Final = _suit_card_tables()
"""``_SUIT_CARDS[suit][pattern]``: the cards of a 13-bit suit pattern, as a tuple."""


def cards_of(
    mask: int,
    _s: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[0],
    _h: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[1],
    _d: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[2],
    _c: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[3],
) -> list[Card]:
    """The cards of a mask, in index order."""
    return [*_s[mask & 8191], *_h[mask >> 13 & 8191], *_d[mask >> 26 & 8191], *_c[mask >> 39]]


def cards_tuple(
    mask: int,
    _s: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[0],
    _h: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[1],
    _d: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[2],
    _c: tuple[tuple[Card, ...], ...] = _SUIT_CARDS[3],
) -> tuple[Card, ...]:
    """:func:`cards_of` as a tuple."""
    return _s[mask & 8191] + _h[mask >> 13 & 8191] + _d[mask >> 26 & 8191] + _c[mask >> 39]


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """Cards in their two-character form, joined by ``sep``."""
    return sep.join(NAMES[c] for c in cards)


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted ace to king, suits s h d c inside a rank."""
    return sorted(cards, key=lambda c: (c.rank, c.suit))


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by suit (s h d c), ace to king inside a suit."""
    return sorted(cards)


class CardSet:
    """An immutable set of cards backed by a 52-bit mask.

    >>> hand = CardSet.parse("As 2s 3s")
    >>> Card('2s') in hand, len(hand), hand.mask
    (True, 3, 7)
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: Iterable[int] | int = 0) -> None:
        mask = cards if isinstance(cards, int) else mask_of(cards)
        if not 0 <= mask <= FULL_DECK_MASK:
            raise ValueError(f"card mask out of range: {mask:#x}")
        object.__setattr__(self, "_mask", mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards in text form into a set."""
        return cls(mask_of(parse_cards(text)))

    @property
    def mask(self) -> int:
        """The 52-bit mask."""
        return self._mask

    @property
    def points(self) -> int:
        """Sum of the cards' deadwood points."""
        return sum(POINTS[c % 13] for c in cards_of(self._mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self._mask))

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
        return isinstance(card, int) and 0 <= card < 52 and bool(self._mask >> card & 1)

    def __bool__(self) -> bool:
        return self._mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask | other._mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & other._mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & ~other._mask)

    def __str__(self) -> str:
        return format_cards(cards_of(self._mask))

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


# --- the seeded shuffle -------------------------------------------------------------------

SHUFFLE_DOMAIN: Final = b"ginrummy-shuffle-v1"


_STEPS: Final = range(51, 0, -1)
_STEP_LIMITS: Final = tuple(4294967296 - 4294967296 % (i + 1) for i in _STEPS)
"""Per step of the shuffle (``i`` from 51 down): a word is accepted when below this."""


def shuffled_deck(seed: bytes | str) -> tuple[Card, ...]:
    """The deck order produced by ``seed``: a Fisher-Yates shuffle driven by SHA-256.

    The algorithm is fixed and public so anyone can check a deal from its revealed seed
    (the server's fairness proof, the browser's check):

    * the byte stream is ``SHA-256(b"ginrummy-shuffle-v1" + seed + counter)`` for
      ``counter = 0, 1, 2, ...`` as 8-byte big-endian integers, concatenated;
    * start from the deck in index order (``As 2s .. Ks Ah .. Kc``); for ``i`` from 51 down
      to 1, read 4-byte big-endian words ``w`` from the stream until ``w < 2**32 - 2**32 %
      (i + 1)`` (rejection keeps it unbiased), then swap positions ``i`` and ``w % (i + 1)``.

    A ``str`` seed is encoded as UTF-8. The first card of the result is the top of the deck.
    """
    seed_bytes = seed.encode() if isinstance(seed, str) else bytes(seed)
    prefix = SHUFFLE_DOMAIN + seed_bytes
    # 7 blocks give 56 words; 51 are needed unless a (very rare) rejection happens.
    words: list[int] = []
    blocks = 0

    def more() -> None:
        nonlocal blocks
        data = b"".join(
            hashlib.sha256(prefix + (blocks + k).to_bytes(8, "big")).digest() for k in range(7)
        )
        blocks += 7
        words.extend(struct.unpack(">56I", data))

    more()
    order = list(range(52))
    if all(map(_lt, words, _STEP_LIMITS)):
        # No word is rejected (all but about one deck in seven million): step k takes word
        # k. The same swaps as the loop below, without its bookkeeping.
        for i, word in zip(_STEPS, words, strict=False):  # 51 steps, 56 words
            j = word % (i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple([DECK[c] for c in order])
    pos = 0
    for i in _STEPS:
        bound = i + 1
        limit = 4294967296 - 4294967296 % bound
        while True:
            if pos == len(words):
                more()
            word = words[pos]
            pos += 1
            if word < limit:
                break
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return tuple([DECK[c] for c in order])
