"""What master learns of its opponent's style from the game's finished hands."""

from __future__ import annotations

import dataclasses

import ginrummy
from ginrummy.ai import player
from ginrummy.ai.adapt import OpponentStyle, opponent_style, style_of_hands
from ginrummy.melds import best_discard_mask

RULES = dataclasses.replace(ginrummy.Rules.preset("classic"), target=1000)


def play_game(a: str, b: str, seed: str, hands: int) -> ginrummy.GameState:
    """A game of ``a`` (seat 0) against ``b`` until ``hands`` hands are over."""
    bots = {0: player(a, f"{seed}/0"), 1: player(b, f"{seed}/1")}
    game = ginrummy.GameState.new(RULES, 0)
    while True:
        if game.needs_deal:
            game = game.deal_seeded(f"{seed}/{game.hand_number}")
            if len(game.finished_hands) >= hands:
                return game  # a hand is dealt: its views show every finished one
            continue
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        game = game.apply(bots[hand.to_act].choose(hand.view(hand.to_act)), hand.to_act)


def oracle(game: ginrummy.GameState, seat: int) -> OpponentStyle:
    """The counts from the engine's own states, replayed hand by hand from the record: at
    each of ``seat``'s discards, could some legal discard have knocked?"""
    from ginrummy.record import record_of

    chances = ended = 0
    finished = len(game.finished_hands)
    for hand_record in record_of(game).hands[:finished]:
        state = ginrummy.deal(RULES, hand_record.dealer, hand_record.deck)
        for action in hand_record.actions:
            if state.to_act == seat and state.phase.value == "discard":
                mask = state.hand_mask(seat)
                least, _ = best_discard_mask(mask)
                if least <= RULES.knock_limit:
                    chances += 1
                    ended += action.split()[0] in ("knock", "gin")
            state = state.apply(action)
    # its deadwood when the other seat ended the hand, from the game's own results
    ends = [r for r in game.results[:finished] if r.knocker is not None and r.knocker != seat]
    return OpponentStyle(finished, chances, ended, len(ends), sum(r.deadwood[seat] for r in ends))


def test_the_counts_match_the_engines_states() -> None:
    for a, b, seed in (("style-knock", "expert", "k"), ("style-gin", "normal", "g")):
        game = play_game(a, b, seed, hands=6)
        assert game.hand is not None
        past = game.hand.view(1).past_hands
        assert len(past) == 6
        for seat in (0, 1):
            assert style_of_hands(past, seat, RULES) == oracle(game, seat)


def test_styles_are_told_apart() -> None:
    hand = play_game("style-knock", "style-gin", "apart", hands=8).hand
    assert hand is not None
    seen_by_gin = opponent_style(hand.view(1))  # seat 1 looks at the knocker
    seen_by_knocker = opponent_style(hand.view(0))  # seat 0 looks at the gin player
    assert seen_by_gin.chances >= 3 and seen_by_gin.knock_rate >= 0.85
    assert seen_by_knocker.chances >= 3 and seen_by_knocker.knock_rate <= 0.25
    assert opponent_style(hand.view(1)) is seen_by_gin  # replayed once per hand


def test_nothing_seen_nothing_assumed() -> None:
    state = ginrummy.deal(RULES, 0, ginrummy.shuffled_deck("fresh"))
    style = opponent_style(state.view(1))
    assert style == OpponentStyle() and style.knock_rate == 0.5
    assert style.defending_deadwood is None


def test_master_tells_a_knocker() -> None:
    """master takes the opponent for a knocker once the finished hands show it knocking at
    nearly every chance, and then knocks by the knock learned against knockers (and values gin
    less in its discards); not without evidence, not against players that never knock or
    masters (once they have played on at a chance, players: the knock learned on self-play),
    and master-no-adapt never."""
    from ginrummy.ai import TEST_LEVELS
    from ginrummy.ai.knowledge import Knowledge
    from ginrummy.ai.master import MASTER_KNOCK, MasterPlayer

    master = MasterPlayer("a")
    fixed = TEST_LEVELS["master-no-adapt"]("a")
    assert isinstance(fixed, MasterPlayer) and master.adapt and not fixed.adapt
    knocker = play_game("style-knock", "style-gin", "aside", hands=8).hand
    assert knocker is not None
    facing_knocker = Knowledge(knocker.view(1))  # seat 1 faces the knocker
    assert master.opponent_kind(facing_knocker) == "knocker"
    assert master.knock_params_for(facing_knocker) == "knock-vs-knocker"
    assert fixed.opponent_kind(facing_knocker) is None
    assert fixed.knock_params_for(facing_knocker) == MASTER_KNOCK
    facing_gin = Knowledge(knocker.view(0))  # seat 0 faces a player that plays on for gin
    assert master.opponent_kind(facing_gin) == "player"
    assert master.knock_params_for(facing_gin) == "knock-kA-signals"
    assert fixed.opponent_kind(facing_gin) is None
    # against the knocker the discard search counts gin 25 beyond a knock, else 35
    assert master.search_gin_bonus(facing_knocker) == 25.0
    assert master.search_gin_bonus(Knowledge(knocker.view(0))) == 35.0
    assert fixed.search_gin_bonus(facing_knocker) == 35.0
    for opponent in ("style-undercut", "master-2026-11", "baseline"):
        hand = play_game("master", opponent, "kind", hands=8).hand
        assert hand is not None
        kind = master.opponent_kind(Knowledge(hand.view(0)))
        assert kind == ("knocker" if opponent == "baseline" else "player"), opponent
    fresh = ginrummy.deal(RULES, 0, ginrummy.shuffled_deck("fresh"))
    assert master.opponent_kind(Knowledge(fresh.view(1))) is None
    assert master.knock_params_for(Knowledge(fresh.view(1))) == MASTER_KNOCK
