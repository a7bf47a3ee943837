"""The rules engine: one hand's state machine, scoring, and the game around it.

Pure and I/O-free. It never imports views, AI, server or CLI (``HandState.view`` reaches
:mod:`ginrummy.views` lazily, as the one door from state to players).
"""

from .game import GameOutcome, GameState, cut_for_deal, hand_seed, score_game
from .hand import Event, GameContext, HandState, PastHand, Phase, deal, new_hand
from .result import RESULT_KINDS, HandResult

__all__ = [
    "RESULT_KINDS",
    "Event",
    "GameContext",
    "GameOutcome",
    "GameState",
    "HandResult",
    "HandState",
    "PastHand",
    "Phase",
    "cut_for_deal",
    "deal",
    "hand_seed",
    "new_hand",
    "score_game",
]
