"""Cards, sets of cards, their text form, and the seeded shuffle.

A :class:`Card` is a small integer ``0..51``: ``suit * 13 + rank`` with suits in the
order spades, hearts, diamonds, clubs (``s h d c``) and ranks ``A 2 .. T J Q K`` (ace low,
rank index 0). A set of cards is a 52-bit mask with bit ``card`` set for each card in it;
:class:`CardSet` wraps such a mask with a friendly API, and the meld code works on the
raw integers for speed.

Text form (RULES.md): rank then suit, ``As 7h Td Kc``. On input ``10h``, lower-case ranks
and the suit symbols ``♠ ♥ ♦ ♣`` (and their white forms) are accepted too.

Every public function that takes cards takes them in any of these forms (:data:`CardsLike`):
text (cards separated by spaces or commas), a sequence of :class:`Card` objects, card texts
or card numbers ``0..51``, a :class:`CardSet`, a single :class:`Card`, or a card mask (an
``int``). Anything else, a card given twice or a number out of range is refused with a
:class:`~ginrummy.errors.CardParseError` (a ``ValueError``) that says what was expected. The
``*_mask`` functions of :mod:`ginrummy.melds` and :func:`cards_of` are the raw fast path:
they take masks only and check nothing.

>>> parse_cards("As 10h 7♦")
[Card('As'), Card('Th'), Card('7d')]
>>> str(CardSet.parse("Kc As"))
'As Kc'
"""

from __future__ import annotations

import hashlib
import operator
import reprlib
import struct
from collections.abc import Iterable, Iterator
from operator import lt as _lt
from typing import Final, NoReturn, TypeAlias

from .errors import CardParseError, GinRummyError, SetupError

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

MAX_HAND: Final = 11
"""Most cards the card-level meld functions take (a Gin Rummy hand holds at most eleven)."""

CARD_FORM: Final = (
    "a card is a rank A 2-9 T J Q K (or 10) and a suit s h d c (or ♠ ♥ ♦ ♣), like 7h or Td"
)
"""What a card looks like, for error messages."""

CARDS_FORM: Final = (
    "cards are text like 'As 7h Td' (separated by spaces or commas), a list of cards "
    "(Card objects, texts like '7h' or card numbers 0-51), a CardSet, or a card mask (an int)"
)
"""The forms cards are taken in, for error messages."""

_ITEM_FORM: Final = "each card is a Card, a text like '7h' or a card number 0-51"

CardsLike: TypeAlias = "str | int | Iterable[int | str]"
"""Cards in any accepted form: text, a sequence of cards / card texts / card numbers, a
:class:`CardSet`, one :class:`Card`, or a card mask (a plain ``int``)."""


class CardInputError(CardParseError):
    """Cards given in a form that is not cards at all (a wrong type, a number or mask out of
    range), a card given twice, or the wrong number of cards.

    A :class:`~ginrummy.errors.CardParseError` (code ``card/parse``) whose message is about
    the whole input rather than one token; ``token`` is the offending item's text, or ``""``.
    """

    def __init__(self, message: str, token: str = "") -> None:
        GinRummyError.__init__(self, message)
        self.token = token


_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 40
_REPR.maxlevel = 3


def _shown(value: object) -> str:
    """A short readable form of a value for an error message, with its type when that helps
    (bounded: a huge or deeply nested value, or one whose ``repr`` fails, is cut short)."""
    text = _REPR.repr(value)
    if value is None or isinstance(value, bool | str):
        return text
    return f"{text} (type {type(value).__name__})"


class Card(int):
    """One playing card; an ``int`` in ``0..51`` with a readable face.

    ``Card('As')`` and ``Card(0)`` are the same card. Cards compare as their integers
    (spades first, then hearts, diamonds, clubs; ace to king inside a suit).

    >>> Card('Td').rank, Card('Td').suit, Card('Td').points
    (9, 2, 10)
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if type(value) is int and 0 <= value < 52:
            if _DECK_READY:
                return DECK[value]
            return int.__new__(cls, value)
        return _one_card(value)

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


def parse_card(token: str | int) -> Card:
    """Parse one card: ``'As'``, ``'10h'``, ``'td'``, ``'Q♠'`` (a :class:`Card` or a card
    number ``0..51`` is taken as it is).

    Raises :class:`~ginrummy.errors.CardParseError` quoting the token as given, and saying
    what a card looks like, when it is not a card.

    >>> parse_card("foo")
    Traceback (most recent call last):
    ...
    ginrummy.errors.CardParseError: bad card 'foo': unknown rank 'fo' and suit 'o'; a card is \
a rank A 2-9 T J Q K (or 10) and a suit s h d c (or ♠ ♥ ♦ ♣), like 7h or Td
    """
    try:
        card = _BY_NAME.get(token)  # type: ignore[arg-type]
    except TypeError:  # unhashable: not a card (refused below)
        card = None
    if card is not None:
        return card
    if not isinstance(token, str):
        return _one_card(token)
    text = token.strip().replace("\ufe0f", "")  # 7♥️: the emoji form of the symbol
    if not text:
        raise CardParseError(token, f"no card given; {CARD_FORM}")
    words = len(text.replace(",", " ").split())
    if words > 1:
        raise CardParseError(token, f"that is {words} words; give one card here ({CARD_FORM})")
    if len(text) < 2:
        raise CardParseError(token, f"too short; {CARD_FORM}")
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUIT_ALIASES.get(suit_text.lower(), _SUIT_ALIASES.get(suit_text))
    rank = _RANK_ALIASES.get(rank_text.upper())
    if rank is not None and suit is not None:
        return DECK[suit * 13 + rank]
    if rank is None and suit is None:
        problem = f"unknown rank {rank_text!r} and suit {suit_text!r}"
    elif rank is None:
        problem = f"unknown rank {rank_text!r}"
    else:
        problem = f"unknown suit {suit_text!r}"
    raise CardParseError(token, f"{problem}; {CARD_FORM}")


def _one_card(value: object) -> Card:
    """One card from a :class:`Card`, a card text or a card number; else a clear error."""
    if isinstance(value, str):
        return parse_card(value)
    if isinstance(value, bool) or value is None:
        raise CardInputError(f"{_shown(value)} is not a card; {_ITEM_FORM}")
    if isinstance(value, int):
        number = int(value)
    elif hasattr(type(value), "__index__"):  # e.g. a numpy integer
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise CardInputError(f"{_shown(value)} is not a card; {_ITEM_FORM}") from None
    else:
        hint = "; decode it to text first" if isinstance(value, bytes | bytearray) else ""
        raise CardInputError(f"{_shown(value)} is not a card{hint}; {_ITEM_FORM}")
    if 0 <= number < 52:
        return DECK[number]
    raise CardInputError(
        f"card number {number} is out of range: card numbers are 0-51 (0 is As, 51 is Kc)",
        str(number),
    )


def _card_items(cards: object, what: str) -> Iterator[tuple[object, Card]]:
    """``(item as given, card)`` for each card of any accepted form, checked one by one."""
    if isinstance(cards, str):
        for token in cards.replace(",", " ").split():
            yield token, parse_card(token)
        return
    if isinstance(cards, CardSet):
        for card in cards_of(cards.mask):
            yield card, card
        return
    if isinstance(cards, Card):
        yield cards, cards
        return
    if isinstance(cards, int) and not isinstance(cards, bool):
        for card in cards_of(_checked_mask(cards, what)):
            yield card, card
        return
    if cards is None or isinstance(cards, bool | bytes | bytearray | memoryview):
        _refuse(cards, what)
    try:
        items = iter(cards)  # type: ignore[call-overload]
    except TypeError:
        _refuse(cards, what)
    for number, item in enumerate(items, start=1):
        if type(item) is Card:
            yield item, item
            continue
        try:
            yield item, _one_card(item)
        except CardInputError as exc:
            message = f"{_prefix(what)}item {number}: {exc.message}"
            raise CardInputError(message, exc.token) from None


def _refuse(cards: object, what: str) -> NoReturn:
    hint = ""
    if isinstance(cards, bytes | bytearray | memoryview):
        hint = " (decode bytes to text first)"
    got = f"{_prefix(what)}expected cards, got {_shown(cards)}{hint}"
    raise CardInputError(f"{got}; {CARDS_FORM}")


def _prefix(what: str) -> str:
    """``what: `` to start a message about the argument ``what`` (nothing for plain cards)."""
    return "" if what == "cards" else f"{what}: "


def _checked_mask(mask: int, what: str) -> int:
    if 0 <= mask <= FULL_DECK_MASK:
        return int(mask)
    shown = hex(mask) if len(hex(mask)) <= 20 else hex(mask)[:17] + "..."
    raise CardInputError(
        f"{_prefix(what)}card mask {shown} is out of range: a card mask is 0 to 2**52 - 1 "
        "(bit n set for card number n)",
        shown,
    )


def iter_cards(cards: CardsLike, what: str = "cards") -> Iterator[Card]:
    """The cards of any accepted form (:data:`CardsLike`), each checked; a repeated card is
    not looked for (see :func:`card_list`). ``what`` names the argument in messages."""
    for _, card in _card_items(cards, what):
        yield card


def card_list(cards: CardsLike, what: str = "cards") -> tuple[list[Card], int]:
    """``(cards, mask)`` of any accepted form (:data:`CardsLike`), in the order given;
    a card given twice is refused with a :class:`CardInputError` naming it."""
    if type(cards) is int and 0 <= cards <= FULL_DECK_MASK:
        return cards_of(cards), cards
    out: list[Card] = []
    seen = 0
    if isinstance(cards, str):  # the usual case, without the general loop's bookkeeping
        for token in cards.replace(",", " ").split():
            card = _BY_NAME.get(token)
            if card is None:
                card = parse_card(token)
            if seen >> card & 1:
                break  # the general loop below names the repeat
            seen |= 1 << card
            out.append(card)
        else:
            return out, seen
        out, seen = [], 0
    given: dict[Card, object] = {}
    for item, card in _card_items(cards, what):
        if seen >> card & 1:
            first, again = _token_text(given[card]), _token_text(item)
            forms = f" ({first}, then {again})" if first != again else ""
            message = f"{_prefix(what)}{card} is given twice{forms}; each card can be given once"
            raise CardInputError(message, _token_text(item))
        seen |= 1 << card
        given[card] = item
        out.append(card)
    return out, seen


def _token_text(item: object) -> str:
    return repr(item) if isinstance(item, str) else str(item)


def to_mask(cards: CardsLike, what: str = "cards") -> int:
    """The card mask of any accepted form (:data:`CardsLike`); a card given twice is refused."""
    if type(cards) is int and 0 <= cards <= FULL_DECK_MASK:
        return cards
    return card_list(cards, what)[1]


def parse_cards(text: CardsLike) -> list[Card]:
    """Parse cards separated by spaces or commas (or take them in any other accepted form,
    :data:`CardsLike`); refuse a card given twice.

    >>> parse_cards("As 2s 3s")
    [Card('As'), Card('2s'), Card('3s')]
    """
    return card_list(text)[0]


_BIT: Final = {i: 1 << i for i in range(52)}
"""Card number -> its one-bit mask (a lookup is faster than a shift, and refuses non-cards)."""


def mask_of(cards: CardsLike, _bit: dict[int, int] = _BIT) -> int:
    """The card mask of some cards (duplicates collapse). Any accepted form is taken
    (:data:`CardsLike`); a list or tuple of cards or card numbers is the fast path."""
    if type(cards) is list or type(cards) is tuple:
        mask = 0
        try:
            for card in cards:
                mask |= _bit[card]
        except (KeyError, TypeError):  # not all card numbers: checked one by one below
            pass
        else:
            return mask
    elif type(cards) is int and 0 <= cards <= FULL_DECK_MASK:
        return cards
    mask = 0
    for card in iter_cards(cards):
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


def format_cards(cards: CardsLike, sep: str = " ") -> str:
    """Cards in their two-character form, joined by ``sep`` (cards in any accepted form,
    :data:`CardsLike`; a repeated card is shown as often as it is given)."""
    if type(cards) is tuple or type(cards) is list:
        try:
            if all(type(c) is Card for c in cards):  # the usual case: no check needed
                return sep.join([NAMES[c] for c in cards])
        except TypeError:  # sep is not text: refused below
            pass
    if not isinstance(sep, str):
        raise CardInputError(f"format_cards: the separator is text, not {_shown(sep)}")
    return sep.join([NAMES[c] for c in iter_cards(cards)])


def sort_by_rank(cards: CardsLike) -> list[Card]:
    """Cards sorted ace to king, suits s h d c inside a rank (any accepted form)."""
    return sorted(iter_cards(cards), key=lambda c: (c % 13, c // 13))


def sort_by_suit(cards: CardsLike) -> list[Card]:
    """Cards sorted by suit (s h d c), ace to king inside a suit (any accepted form)."""
    return sorted(iter_cards(cards))


class CardSet:
    """An immutable set of cards backed by a 52-bit mask.

    Made from cards in any accepted form (:data:`CardsLike`: text, a sequence of cards, a
    mask); ``|``, ``&`` and ``-`` take the same forms on either side.

    >>> hand = CardSet("As 2s 3s")
    >>> Card('2s') in hand, len(hand), hand.mask, str(hand | "4s")
    (True, 3, 7, 'As 2s 3s 4s')
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: CardsLike = 0) -> None:
        object.__setattr__(self, "_mask", to_mask(cards, "CardSet"))

    @classmethod
    def parse(cls, text: CardsLike) -> CardSet:
        """Parse cards in text form (or any accepted form) into a set."""
        return cls(text)

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
        return (
            isinstance(card, int)
            and not isinstance(card, bool)
            and 0 <= card < 52
            and bool(self._mask >> card & 1)
        )

    def __bool__(self) -> bool:
        return self._mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __or__(self, other: CardsLike) -> CardSet:
        return CardSet(self._mask | _other_mask(other))

    __ror__ = __or__

    def __and__(self, other: CardsLike) -> CardSet:
        return CardSet(self._mask & _other_mask(other))

    __rand__ = __and__

    def __sub__(self, other: CardsLike) -> CardSet:
        return CardSet(self._mask & ~_other_mask(other))

    def __rsub__(self, other: CardsLike) -> CardSet:
        return CardSet(_other_mask(other) & ~self._mask)

    def __str__(self) -> str:
        return format_cards(cards_of(self._mask))

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def _other_mask(other: object) -> int:
    if isinstance(other, CardSet):
        return other._mask
    return to_mask(other, "the other cards")  # type: ignore[arg-type]


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
    Any other seed (``None``, a number) is refused with a
    :class:`~ginrummy.errors.SetupError`.
    """
    if isinstance(seed, str):
        try:
            seed_bytes = seed.encode()
        except UnicodeEncodeError:
            raise SetupError(f"a shuffle seed is text without lone surrogates: {seed!r}") from None
    elif isinstance(seed, bytes | bytearray | memoryview):
        seed_bytes = bytes(seed)
    else:
        raise SetupError(f"a shuffle seed is text or bytes, not {_shown(seed)}")
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
