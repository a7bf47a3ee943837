"""AI players. Each sees only a seat's view and answers with a legal action.

>>> from ginrummy import Rules, deal, shuffled_deck
>>> from ginrummy.ai import player
>>> state = deal(Rules.preset("classic"), 0, shuffled_deck("ai-doc"))
>>> player("baseline", seed=1).choose(state.view(state.to_act)) in state.legal_actions()
True

Fair by construction: this package imports :mod:`ginrummy.views` (and the pure card, meld and
rules modules), never the engine; a player is handed a :class:`~ginrummy.views.PlayerView`,
which holds no reference to the game state.
"""

from __future__ import annotations

from .base import Player, RandomPlayer
from .hints import Hint, hint
from .master import MasterPlayer
from .simple import BaselinePlayer, EasyPlayer
from .strong import ExpertPlayer, HardPlayer, NormalPlayer
from .styles import (
    GinOnlyPlayer,
    KnockAtOncePlayer,
    Master202611,
    Master202612,
    MasterKnockKA,
    NonAdaptingMasterPlayer,
    UndercutterPlayer,
)

LEVELS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "baseline": BaselinePlayer,
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}
"""Every level by name, weakest first (``random`` and ``baseline`` are for testing)."""

TEST_LEVELS: dict[str, type[Player]] = {
    "style-knock": KnockAtOncePlayer,
    "style-gin": GinOnlyPlayer,
    "style-undercut": UndercutterPlayer,
    "master-2026-11": Master202611,
    "master-2026-12": Master202612,
    "master-no-adapt": NonAdaptingMasterPlayer,
    "master-knock-kA": MasterKnockKA,
}
"""Players for measuring and testing (:mod:`.styles`): fixed styles and frozen levels. The
arena plays them by name; the table and ``play`` do not offer them."""


def player(level: str, seed: int | str | None = None) -> Player:
    """A player of ``level`` (or of :data:`TEST_LEVELS`) whose randomness comes only from
    ``seed``."""
    found = LEVELS.get(level) or TEST_LEVELS.get(level) if isinstance(level, str) else None
    if found is None:
        raise ValueError(f"unknown AI level {level!r}; levels are {', '.join(LEVELS)}")
    return found(seed)


__all__ = ["LEVELS", "TEST_LEVELS", "Hint", "Player", "hint", "player"]
