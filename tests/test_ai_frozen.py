"""``master-2026-11`` and ``master-2026-12`` are frozen: their decisions on fixed deals are
pinned by digests.

If this fails, a change altered how a frozen level plays (through code it shares with the
current levels). Do not update the digests: move the old behaviour into
``ginrummy/ai/styles.py`` (copy what changed) so the frozen level plays as it did, and keep
measuring new levels against it. The digests were taken when each level was frozen
(2026-12-01 and 2026-12-07), when it played exactly as ``master`` did."""

from __future__ import annotations

import hashlib

import pytest

import ginrummy
from ginrummy.ai import player
from ginrummy.ai.base import Player
from ginrummy.cards import shuffled_deck
from ginrummy.engine.game import GameState, cut_for_deal
from ginrummy.engine.hand import HandState, deal

DEAL_DIGESTS = {
    "master-2026-11": {
        "classic": "42e8098dabcdefe5e58cc0fe0e5bba7499608b7aac4c8556367ad8f86cc9a70d",
        "tournament": "6f225d841718239183d397fb06ec744fcede3134a32f27f86caa6749820f9388",
    },
    "master-2026-12": {
        "classic": "069c9aa9bea59305345bbf36d97ec2977bd8c7f9c2298b77c8f4161dbefa405e",
        "tournament": "0fb79f1c55bba63ada1d3ae65a51485096bfd91dd3203b5c8db591aa8f567a93",
    },
}
GAME_DIGESTS = {
    "master-2026-11": "956724b50b7cf63cd3c1f7d628b71be7ffdd95a78db9bee488f49e9128870067",
    "master-2026-12": "bed14fb7dab0f5e76be51d02a03be73d5ca24d5d5ae03be2b9a05eafe3dd29a1",
}


def digest(actions: list[str]) -> str:
    return hashlib.sha256(" ".join(actions).encode()).hexdigest()


def hand_actions(players: dict[int, Player], state: HandState) -> list[str]:
    """Every action of the hand from ``state`` to its end, each seat played by ``players``."""
    out = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        action = players[seat].choose(state.view(seat))
        out.append(action)
        state = state.apply(action, seat)
    return out


def deal_actions(level: str, preset: str, pairs: int = 8) -> list[str]:
    """Every action of ``pairs`` duplicate deal pairs of ``level`` against ``expert``."""
    rules = ginrummy.Rules.preset(preset)
    out = []
    for i in range(pairs):
        deck = shuffled_deck(f"frozen/{preset}/{i}")
        for seat in (0, 1):
            players = {
                seat: player(level, f"frozen/{i}/{seat}"),
                1 - seat: player("expert", f"frozen/{i}/{seat}/e"),
            }
            out += hand_actions(players, deal(rules, i % 2, deck))
    return out


def game_actions(level: str) -> list[str]:
    """Every action of a whole tournament game (scores matter to how master values a hand)."""
    rules = ginrummy.Rules.preset("tournament")
    players = {0: player(level, "frozen/game/0"), 1: player("expert", "frozen/game/1")}
    game = GameState.new(rules, cut_for_deal("frozen/game"))
    out = []
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_seeded(f"frozen/game/hand/{game.hand_number}")
            continue
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        action = players[seat].choose(hand.view(seat))
        out.append(action)
        game = game.apply(action, seat)
    return out


@pytest.mark.parametrize("level", sorted(DEAL_DIGESTS))
@pytest.mark.parametrize("preset", ["classic", "tournament"])
def test_the_frozen_master_plays_as_it_did(level: str, preset: str) -> None:
    assert digest(deal_actions(level, preset)) == DEAL_DIGESTS[level][preset]


@pytest.mark.parametrize("level", sorted(GAME_DIGESTS))
def test_the_frozen_master_plays_a_whole_game_as_it_did(level: str) -> None:
    assert digest(game_actions(level)) == GAME_DIGESTS[level]


def test_master_no_longer_plays_as_the_frozen_one() -> None:
    """Master's hedge reads the hand since 2026-12-07, which changes a decision in few hands
    (none of the pinned ones): on this deal against ``master-2026-11`` (the first of
    ``differ/0`` to ``differ/21`` where they differ) master plays otherwise than
    ``master-2026-12``, and both play it the same every time."""
    rules = ginrummy.Rules.preset("classic")

    def actions(level: str) -> list[str]:
        players = {0: player(level, "d/21"), 1: player("master-2026-11", "d/21/o")}
        return hand_actions(players, deal(rules, 1, shuffled_deck("differ/21")))

    assert actions("master") != actions("master-2026-12")
    assert actions("master-2026-12") == actions("master-2026-12")
