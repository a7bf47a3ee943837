"""The player interface and what every level shares.

A player gets a seat's :class:`~ginrummy.views.PlayerView` and returns one of its legal
actions in the engine's notation. It holds no game state between calls (what it needs is in
the view, history included), only its seeded random source, so a game reproduces from the
seed and a player can take over a seat mid-hand (after a server restart, say).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Final

from ..actions import ACTIONS, DISCARD_TEXT, GIN_TEXT, KNOCK_TEXT
from ..melds import deadwood_after_discards_mask, deadwood_mask
from ..views import PlayerView
from .knowledge import Knowledge


class Player(ABC):
    """An AI player: :meth:`choose` maps a view to a legal action."""

    level: str = "?"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> str:
        """The action to play in ``view`` (one of ``view.legal_actions``)."""
        legal = view.legal_actions
        if not legal:
            raise ValueError("this seat has nothing to do: it is not its turn")
        if len(legal) == 1:
            return legal[0]
        if "big-gin" in legal:
            return "big-gin"
        k = Knowledge(view)
        if view.phase in ("upcard-offer", "upcard-dealer"):
            action = "take" if self.wants_upcard(k, view) else "pass"
        elif view.phase == "draw":
            action = "pile" if self.wants_pile(k, view) else "stock"
        else:
            action = self.discard(k, view)
        if action not in legal:  # a bug in a level must not break a game
            raise AssertionError(f"{self.level} chose illegal {action!r}; legal: {legal}")
        return action

    def wants_upcard(self, k: Knowledge, view: PlayerView) -> bool:
        """Whether to take the opening upcard; by default the same as a pile draw."""
        return self.wants_pile(k, view)

    @abstractmethod
    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        """Whether to draw the top of the discard pile rather than the stock."""

    @abstractmethod
    def discard(self, k: Knowledge, view: PlayerView) -> str:
        """The discard, knock or gin action after drawing."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level} seed={self.seed!r}>"


def discard_options(k: Knowledge) -> dict[int, int]:
    """Legal discards (the card just taken from the pile excluded) -> deadwood kept."""
    after = deadwood_after_discards_mask(k.hand)
    if k.taken >= 0:
        after.pop(k.taken, None)
    return after


def can_end(view: PlayerView) -> bool:
    """Whether a knock or gin is legal now, read off the legal actions without scanning them:
    after a draw they are one discard per card that may be discarded (the card taken from
    the pile excepted) plus a knock or gin for each discard that allows one (and Big Gin)."""
    discards = len(view.hand) - (view.taken_from_pile is not None)
    return len(view.legal_actions) > discards


def ending_options(k: Knowledge, view: PlayerView) -> dict[int, int]:
    """The discards that knock or go gin -> deadwood kept, read off the legal actions (the
    discards leaving the least deadwood are among them whenever :func:`can_end`)."""
    gins: list[int] = []
    knocks: list[int] = []
    for action in view.legal_actions:
        if action[0] == "g":  # gin C
            gins.append(_CARD_OF[action])
        elif action[0] == "k":  # knock C
            knocks.append(_CARD_OF[action])
    if gins:
        return dict.fromkeys(gins, 0)
    hand = k.hand
    return {c: deadwood_mask(hand & ~(1 << c)) for c in knocks}


_CARD_OF: Final = {
    text: int(action.card) for text, action in ACTIONS.items() if action.card is not None
}


def least_deadwood_discard(options: dict[int, int]) -> tuple[int, int]:
    """``(card, deadwood)``: the discard keeping the least deadwood (ties: the higher rank)."""
    best = min(options.values())
    card = max((c for c, dw in options.items() if dw == best), key=lambda c: (c % 13, -c))
    return card, best


def end_action(card: int, deadwood: int, knock: bool, limit: int) -> str:
    """``gin C`` with no deadwood, ``knock C`` when asked and allowed, else ``discard C``."""
    if deadwood == 0:
        return GIN_TEXT[card]
    if knock and deadwood <= limit:
        return KNOCK_TEXT[card]
    return DISCARD_TEXT[card]


class RandomPlayer(Player):
    """Uniformly random legal actions (for tests)."""

    level = "random"

    def choose(self, view: PlayerView) -> str:
        legal = view.legal_actions
        if not legal:
            raise ValueError("this seat has nothing to do: it is not its turn")
        return self.rng.choice(legal)

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:  # pragma: no cover
        raise NotImplementedError

    def discard(self, k: Knowledge, view: PlayerView) -> str:  # pragma: no cover
        raise NotImplementedError
