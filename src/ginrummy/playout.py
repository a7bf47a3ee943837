"""Random legal play: whole hands and games by uniformly random legal actions.

Used by tests (invariants, the golden transcript), benchmarks and ``ginrummy selfplay``.
"""

from __future__ import annotations

import random

from .cards import shuffled_deck
from .engine.game import GameState, cut_for_deal, hand_seed
from .engine.hand import HandState, deal
from .errors import GinRummyError
from .rules import Rules


def random_hand(rules: Rules, seed: str, dealer: int = 0) -> HandState:
    """One hand dealt from ``shuffled_deck(seed)`` and played by random legal actions."""
    rng = random.Random(seed)
    state = deal(rules, dealer, shuffled_deck(seed))
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def random_game(rules: Rules, seed: str, max_hands: int = 10_000) -> GameState:
    """A whole game by random legal actions; hand ``i`` is dealt from
    ``shuffled_deck(hand_seed(seed, i))`` and the first dealer is ``cut_for_deal(seed)``."""
    rng = random.Random(seed)
    game = GameState.new(rules, cut_for_deal(seed))
    while not game.is_over:
        if game.needs_deal:
            if game.hand_number >= max_hands:
                raise GinRummyError("random game did not end", "game/too-long")
            game = game.deal_seeded(hand_seed(seed, game.hand_number))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
    return game
