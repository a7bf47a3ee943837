"""ginrummy: standard tournament Gin Rummy - an exact rules engine (and, on top of it, AI
opponents, a web table and a command line).

>>> import ginrummy
>>> ginrummy.arrange("As 2s 3s 7h 7d 7c Kd Qd Jd 5c").deadwood_points
5

Every function here that takes cards takes them as text (``"As 2s 3s"``), as a sequence of
:class:`Card` objects, card texts or card numbers ``0..51``, as a :class:`CardSet` or as a
card mask, and refuses anything else with a :class:`CardParseError` (a ``ValueError``, like
every error of :mod:`ginrummy.errors`) saying what was expected.
"""

from .actions import Action, parse_action
from .cards import DECK, Card, CardInputError, CardSet, parse_card, parse_cards, shuffled_deck
from .engine import (
    Event,
    GameContext,
    GameOutcome,
    GameState,
    HandResult,
    HandState,
    PastHand,
    Phase,
    cut_for_deal,
    deal,
    hand_seed,
    new_hand,
    score_game,
)
from .errors import (
    ActionSyntaxError,
    CardParseError,
    GameOverError,
    GinRummyError,
    IllegalActionError,
    RecordError,
    RulesError,
    SetupError,
)
from .melds import (
    Arrangement,
    LayOff,
    LayOffResult,
    all_min_arrangements,
    arrange,
    best_discard,
    deadwood_points,
    lay_off,
)
from .rules import Rules, Shutout, WinnerRule
from .views import GameView, PlayerView

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Action",
    "ActionSyntaxError",
    "Arrangement",
    "Card",
    "CardInputError",
    "CardParseError",
    "CardSet",
    "Event",
    "GameContext",
    "GameOutcome",
    "GameOverError",
    "GameState",
    "GameView",
    "GinRummyError",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "LayOff",
    "LayOffResult",
    "PastHand",
    "Phase",
    "PlayerView",
    "RecordError",
    "Rules",
    "RulesError",
    "SetupError",
    "Shutout",
    "WinnerRule",
    "all_min_arrangements",
    "arrange",
    "best_discard",
    "cut_for_deal",
    "deadwood_points",
    "deal",
    "hand_seed",
    "lay_off",
    "new_hand",
    "parse_action",
    "parse_card",
    "parse_cards",
    "score_game",
    "shuffled_deck",
]
