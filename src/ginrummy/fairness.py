"""Provably fair dealing: commit to a hand's shuffle seed before the deal, reveal it after.

Before a hand is dealt the dealer (the server) draws a secret seed and publishes its
commitment, the SHA-256 of the seed's UTF-8 bytes in hex. The deck is
:func:`~ginrummy.cards.shuffled_deck` of the seed, an algorithm documented there and public.
When the hand is over the seed is revealed: anyone can check that it matches the commitment
(so the seed was fixed before the deal) and that it reproduces the deck that was played (so
nobody stacked it). Nothing here is secret but the seed before the reveal.

>>> commitment("example seed")
'326eaa548e7bb1b3e97ff8e26929630fa0c04a21179ec71afe5f6b62d0796b81'
>>> check_deal(commitment("example seed"), "example seed", shuffled_deck("example seed"))
[]
>>> check_deal(commitment("example seed"), "another seed", shuffled_deck("example seed"))[0]
'the revealed seed does not match the commitment published before the deal'
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

from .cards import shuffled_deck


def new_seed() -> str:
    """A fresh secret shuffle seed: 256 random bits from the operating system, in hex."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: SHA-256 of its UTF-8 bytes, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def check_deal(committed: str, seed: str, deck: Sequence[int]) -> list[str]:
    """What is wrong with a revealed deal (an empty list: the deal is proven fair)."""
    problems = []
    if commitment(seed) != committed:
        problems.append("the revealed seed does not match the commitment published before the deal")
    if tuple(int(c) for c in shuffled_deck(seed)) != tuple(int(c) for c in deck):
        problems.append("the revealed seed does not reproduce the deck that was played")
    return problems


__all__ = ["check_deal", "commitment", "new_seed"]
