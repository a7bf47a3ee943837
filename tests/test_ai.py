"""AI players: legal actions only, reproducible from the seed, and fair by construction."""

from __future__ import annotations

import ast
import dataclasses
import gc
import random
import re
from pathlib import Path

import pytest

import ginrummy
from ginrummy.actions import DISCARD_TEXT
from ginrummy.ai import LEVELS, player
from ginrummy.ai.base import discard_options, end_action, least_deadwood_discard
from ginrummy.ai.knowledge import Knowledge, joins_meld
from ginrummy.ai.simple import EasyPlayer
from ginrummy.cards import POINTS, cards_of, mask_of, parse_cards, shuffled_deck
from ginrummy.melds import best_discard_mask, melded_mask
from ginrummy.views import PlayerView

RULESETS = [ginrummy.Rules.preset(n) for n in ginrummy.Rules.PRESET_NAMES] + [
    dataclasses.replace(ginrummy.Rules.preset("tournament"), oklahoma=True)
]
AI_DIR = Path(ginrummy.__file__).parent / "ai"


def play_hand(levels: tuple[str, str], rules: ginrummy.Rules, seed: str) -> ginrummy.HandState:
    players = {0: player(levels[0], f"{seed}/0"), 1: player(levels[1], f"{seed}/1")}
    state = ginrummy.deal(rules, 0, shuffled_deck(seed))
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        state = state.apply(action, seat)
    return state


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_only_legal_actions(level: str) -> None:
    """Thousands of positions per level, under every ruleset (play_hand asserts legality)."""
    decisions = 0
    hands = 40 if level in ("hard", "expert", "master") else 120
    for n in range(hands):
        rules = RULESETS[n % len(RULESETS)]
        opponent = "random" if n % 3 == 0 else "baseline"
        state = play_hand((level, opponent), rules, f"legal-{level}-{n}")
        decisions += state.action_count
    assert decisions > 1000


def test_every_level_answers_random_positions() -> None:
    """Positions reached by random play (odd ones included) get a legal answer at every level."""
    rng = random.Random(11)
    positions: list[PlayerView] = []
    for n in range(60):
        rules = RULESETS[n % len(RULESETS)]
        state = ginrummy.deal(rules, n % 2, shuffled_deck(f"pos-{n}"))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if rng.random() < 0.15:
                positions.append(state.view(seat))
            state = state.apply(rng.choice(state.legal_actions()))
    assert len(positions) > 300
    for level in LEVELS:
        bot = player(level, seed=5)
        for view in positions[:: 3 if level in ("hard", "expert", "master") else 1]:
            assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("level", list(LEVELS))
def test_same_seed_same_game(level: str) -> None:
    first = play_hand((level, "easy"), RULESETS[0], "repro")
    again = play_hand((level, "easy"), RULESETS[0], "repro")
    assert first.history == again.history and first.result == again.result


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level 'genius'"):
        player("genius")


def test_a_player_holds_no_path_to_hidden_cards() -> None:
    """What a player is given (a view) refers to no engine state, deck or stock."""
    state = ginrummy.deal(RULESETS[0], 0, shuffled_deck("fair"))
    state = state.apply("pass").apply("pass").apply("stock")
    view = state.view(1)
    seen: set[int] = set()
    stack: list[object] = [view]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, ginrummy.HandState | ginrummy.GameState), "view reaches a state"
        if isinstance(obj, type | type(gc)):
            continue
        stack.extend(gc.get_referents(obj))
    hidden = mask_of(state.hand(0)) | mask_of(state.stock)
    visible = mask_of(c for c in (*view.hand, *view.discard_pile, view.upcard))
    assert not visible & hidden


def test_ai_package_does_not_import_the_engine() -> None:
    """The AI code imports views and the pure modules, never the engine (by construction)."""
    allowed = {"views", "cards", "melds", "rules", "actions", "errors"}
    for path in AI_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                top = (node.module or "").split(".")[0]
                assert top in allowed, f"{path.name} imports ginrummy.{node.module}"
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert not node.module.startswith("ginrummy.engine"), path.name
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("ginrummy.engine"), path.name


def test_knowledge_from_history() -> None:
    """What a seat learns from the public history, worked by hand."""
    rules = RULES_T = RULESETS[0]
    del RULES_T
    state = ginrummy.new_hand(
        rules,
        0,
        hands=("As 2s 3s 7h 7d 7c Kd Qd Jd 5c", "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"),
        upcard="9s",
        stock="Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d 5s 6d Ac Qs 9h Td",
    )
    # seat 1 passes 9s, seat 0 passes, seat 1 draws Jc and discards Tc; seat 0 takes Tc
    state = state.apply("pass").apply("pass").apply("stock").apply("discard Tc").apply("pile")
    state = state.apply("discard 5c")
    k1 = Knowledge.of(state.view(1))
    assert k1.opp_took == mask_of(parse_cards("Tc"))
    assert k1.opp_discarded == mask_of(parse_cards("5c"))
    assert k1.opp_declined == mask_of(parse_cards("9s"))
    assert k1.opp_known == mask_of(parse_cards("Tc"))
    assert k1.opp_hidden == 9
    assert k1.my_pairs == ((int(parse_cards("Jc")[0]), int(parse_cards("Tc")[0])),)
    # unseen by seat 1: 52 - own 10 (after the draw and discard) - pile (9s 5c) - Tc known
    assert k1.unseen.bit_count() == 52 - 10 - 2 - 1
    assert joins_meld(int(parse_cards("4s")[0]), mask_of(parse_cards("2s 3s")))
    assert not joins_meld(int(parse_cards("Ks")[0]), mask_of(parse_cards("As 2s")))


def test_hint_is_legal_and_explained_everywhere() -> None:
    from ginrummy.ai import hint

    rng = random.Random(4)
    for n in range(12):
        state = ginrummy.deal(RULESETS[n % 4], n % 2, shuffled_deck(f"hint-{n}"))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            h = hint(view)
            assert h.action in view.legal_actions and h.reason
            state = state.apply(rng.choice(view.legal_actions))


def test_hint_reasons_worked_by_hand() -> None:
    from ginrummy.ai import hint

    rules = ginrummy.Rules.preset("classic")
    state = ginrummy.new_hand(
        rules,
        0,
        hands=("As 2s 3s 7h 7d 7c Kd Qd Jd 5c", "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"),
        upcard="4s",
        stock="Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d",
    )
    state = state.apply("pass")
    assert hint(state.view(0)) == ginrummy.ai.Hint("take", "take 4s: it joins As 2s 3s")
    state = state.apply("take")  # now As 2s 3s 4s, 777, JQKd and 5c: gin by discarding 5c
    h = hint(state.view(0))
    assert h.action == "gin 5c"
    assert (
        h.reason == "gin: discard 5c and all ten cards are melded (As 2s 3s 4s, 7h 7d 7c, Jd Qd Kd)"
    )
    with pytest.raises(ValueError, match="not this seat's turn"):
        hint(state.view(1))


def test_hint_for_a_knock_gives_the_undercut_risk() -> None:
    from ginrummy.ai import hint

    rules = ginrummy.Rules.preset("classic")
    # seat 1 holds two melds, Ah 2h and Tc Jc; drawing 9c makes 9c Tc Jc: discarding 2h
    # leaves only Ah, 1 deadwood
    state = ginrummy.new_hand(
        rules,
        0,
        hands=("Kc Qs Jd 9h 8s 6d 5c 4h 3d 2c", "As 2s 3s 7h 7d 7c Ah 2h Tc Jc"),
        upcard="Ks",
        stock="9c 2d 8h 6h 6c 7s Js Kh Kd Ad 5h 4d Qc Th 8d",
    )
    state = state.apply("pass").apply("pass").apply("stock")
    h = hint(state.view(1))
    assert h.action == "knock 2h"
    assert re.fullmatch(r"knock now with 1 deadwood: about \d+ % undercut risk", h.reason)


def test_playout_scores_like_the_engine() -> None:
    """A playout where the player to move knocks at once scores what the engine scores."""
    from ginrummy.ai.sim import Scoring, playout, score_knock

    sc = Scoring(10, 25, 25, None)
    seat0 = mask_of(parse_cards("Kc Qs Jd 9h 8s 6d 5c 4h 3d 2c"))  # no melds: 67
    seat1 = mask_of(parse_cards("As 2s 3s 7h 7d 7c Ah 2h Tc Jc"))
    stock = [int(c) for c in parse_cards("9c 2d 8h 6h 6c 7s Js Kh Kd Ad 5h 4d Qc Th 8d")]
    # seat 1 draws 9c (Tc Jc become 9c Tc Jc), discards 2h and knocks with Ah = 1
    points = playout((seat0, seat1), stock, int(parse_cards("Ks")[0]), 1, sc)
    knocker = seat1 | 1 << stock[0]
    knocker &= ~(1 << int(parse_cards("2h")[0]))
    assert points == -score_knock(knocker, seat0, sc) == -(67 - 1)
    # the same with the engine
    state = ginrummy.new_hand(
        ginrummy.Rules.preset("classic"),
        0,
        hands=("Kc Qs Jd 9h 8s 6d 5c 4h 3d 2c", "As 2s 3s 7h 7d 7c Ah 2h Tc Jc"),
        upcard="Ks",
        stock="9c 2d 8h 6h 6c 7s Js Kh Kd Ad 5h 4d Qc Th 8d",
    )
    state = state.apply("pass").apply("pass").apply("stock").apply("knock 2h")
    assert state.result is not None and state.result.points == 66 and state.result.winner == 1


class ReferenceEasy(EasyPlayer):
    """``easy``'s discard as first written, every value worked out from the hand."""

    def discard(self, k: Knowledge, view: PlayerView) -> str:
        best, _ = best_discard_mask(k.hand)
        if best <= k.knock_limit:
            card, best = least_deadwood_discard(discard_options(k))
            if best <= k.knock_limit:
                return end_action(card, best, knock=True, limit=k.knock_limit)
        legal = k.hand & ~(1 << k.taken) if k.taken >= 0 else k.hand
        dead = legal & ~melded_mask(k.hand)
        pool = [int(c) for c in cards_of(dead or legal)]
        top_points = max(POINTS[c % 13] for c in pool)
        card = self.rng.choice([c for c in pool if POINTS[c % 13] == top_points])
        return DISCARD_TEXT[card]


def test_easy_reads_the_legal_actions_like_the_reference() -> None:
    """easy's fast path (knock or gin read off the legal actions, the top cards by rank
    bits) chooses what the reference does, with the same draws from its random source, in
    every position of many hands (against random play too, for odd positions)."""
    compared = 0
    for n in range(160):
        rules = RULESETS[n % len(RULESETS)]
        state = ginrummy.deal(rules, n % 2, shuffled_deck(f"easy-ref-{n}"))
        bots = {0: player("easy", f"{n}/0"), 1: player("random" if n % 3 else "easy", f"{n}/1")}
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            fast, reference = EasyPlayer(n), ReferenceEasy(n)
            assert fast.choose(view) == reference.choose(view)
            assert fast.rng.getstate() == reference.rng.getstate()
            compared += 1
            state = state.apply(bots[seat].choose(view), seat)
    assert compared > 3000


def test_master_never_takes_back_its_own_discard() -> None:
    """Its pile search may judge a card differently from turn to turn, so a card it discarded
    this hand is never taken back (that could cycle with an opponent for ever)."""
    from ginrummy.ai.master import MasterPlayer

    state = ginrummy.new_hand(
        ginrummy.Rules.preset("classic"),
        0,
        hands=("As 2s 3s 4d 5d 9c Tc Jc Kd Qh", "7s 7d 8s 9h Jh Qs Kh 2c 4c 6s"),
        upcard="Ks",
        stock="3h 5h Ad 8d 2h 6c 3c 4h 5c 8h 9d Td",
    )
    moves = "pass pass stock discard-6s pile discard-9c stock discard-2c stock discard-6s"
    for move in moves.split():
        state = state.apply(move.replace("-", " "))
    view = state.view(1)
    assert view.discard_pile[-1] == parse_cards("6s")[0]  # melds 6s 7s 8s: expert takes it
    assert player("expert", "t").choose(view) == "pile"
    assert MasterPlayer("t").choose(view) == "stock"


def test_master_search_is_reproducible_and_leaves_the_random_stream() -> None:
    """The pile search deals from a source seeded by the player's seed and the position: the
    same position gives the same deals, and the player's own random stream is not used."""
    from ginrummy.ai.master import MasterPlayer

    state = ginrummy.deal(ginrummy.Rules.preset("classic"), 0, shuffled_deck("master-search"))
    k = Knowledge(state.view(state.to_act))
    a, b = MasterPlayer("s"), MasterPlayer("s")
    model = a.model(k)
    assert model is not None
    before = a.rng.getstate()
    assert a.search_deals(k, model) == b.search_deals(k, model)
    assert a.rng.getstate() == before


def test_two_draw_search_worked_by_hand() -> None:
    """Kept: Ks Kd Js 9h 7c 5d 3h 2d Ac 4s (61 deadwood, no meld); the next draws are Qs
    and 6h, each first with chance 1/2.

    One draw: Qs makes Js Qs Ks, and throwing Kd leaves 31; 6h melds nothing, and throwing a
    ten leaves 57: (31 + 57) / 2 = 44. Two draws, Qs first: 31 after Kd goes, then 6h in and
    9h out: 28. 6h first: Ks, Kd and Js each leave 57; the tie goes to the kings, Ks first.
    Throwing Ks, Qs then melds nothing (57 again); throwing Kd (the second reply), Qs makes
    Js Qs Ks and 9h goes: 28. So 28 with two replies and (28 + 57) / 2 = 42.5 with one.
    And 5h with Qc Jd and the like: 6h then 7h (either order) makes the run 5h 6h 7h that no
    single draw makes: 37 against 58.5 for one draw."""
    from ginrummy.ai.evaluate import expected_after_draw, expected_after_two_draws

    kept = mask_of(parse_cards("Ks Kd Js 9h 7c 5d 3h 2d Ac 4s"))
    draws = [(int(c), 0.5) for c in parse_cards("Qs 6h")]
    assert expected_after_draw(kept, draws) == 44.0
    assert expected_after_two_draws(kept, draws, replies=1) == 42.5
    assert expected_after_two_draws(kept, draws) == 28.0
    kept = mask_of(parse_cards("5h Ks Qc Jd 9s 8c 4d 3s 2c Ad"))
    draws = [(int(c), 0.5) for c in parse_cards("6h 7h")]
    assert expected_after_draw(kept, draws) == 58.5
    assert expected_after_two_draws(kept, draws) == 37.0
    # a hand that can knock after the first draw stops there, the bonus counted
    assert expected_after_two_draws(kept, draws, limit=60, knock_bonus=10.0) == 48.5


def test_gin_counts_its_bonus_in_the_draw_searches() -> None:
    """Kept: As 2s 3s, 4h 4d 4c and 7c 8c 9c melded, Kd loose. Drawing 4s
    (the run As-4s, Kd thrown) is gin; drawing 5c leaves 5 (Kd thrown). With the knock
    limit 10, a knock bonus of 5 and a gin bonus of 25: (0 - 5 - 25 + 5 - 5) / 2 = -15, and
    -2.5 without the gin bonus; a second draw is never needed, as both first draws can
    knock."""
    from ginrummy.ai.evaluate import expected_after_draw, expected_after_two_draws

    kept = mask_of(parse_cards("As 2s 3s 4h 4d 4c 7c 8c 9c Kd"))
    draws = [(int(c), 0.5) for c in parse_cards("4s 5c")]
    assert expected_after_draw(kept, draws, 10, 5.0, 25.0) == -15.0
    assert expected_after_draw(kept, draws, 10, 5.0) == -2.5
    assert expected_after_two_draws(kept, draws, 10, 5.0, gin_bonus=25.0) == -15.0
    assert expected_after_two_draws(kept, draws, 10, 5.0) == -2.5
    # without a knock limit (-1) nothing counts a bonus, gin included
    assert expected_after_draw(kept, draws, -1, 5.0, 25.0) == 2.5


def test_master_counts_gin_in_the_piles_edge() -> None:
    """The dealer holds As 2s 3s, 7h 7d 7c, Kd Qd Jd and 5c and is offered 4s: taking it
    (the run As-4s, 5c thrown) is gin, worth its deadwood 0, the knock bonus 10 and master's
    gin bonus 25 less. From the stock, Td (the run Td-Kd) and 7s (four sevens) are gin with
    5c thrown, so the stock's expectation counts 25 less times their chance: counting gin
    moves the pile's edge by 25 times the chance that the stock does not give it."""
    from ginrummy.ai.master import MasterPlayer

    rules = ginrummy.Rules.preset("classic")
    state = ginrummy.new_hand(
        rules,
        dealer=0,
        hands=("As 2s 3s 7h 7d 7c Kd Qd Jd 5c", "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"),
        upcard="4s",
        stock="Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d 5s 6d Ac Qs 9h Td Qh Kh 9s 4h 8s "
        "2c 3c 9c 3d Ts",
    ).apply("pass")
    k = Knowledge(state.view(0))
    master, without = MasterPlayer("t"), MasterPlayer("t")
    without.estimate_gin_bonus = 0.0
    assert master.estimate_gin_bonus == 25.0
    edge, draws, _ = master.pile_edge(k)
    edge0, draws0, _ = without.pile_edge(k)
    assert draws == draws0
    gin_outs = {int(c) for c in parse_cards("Td 7s")}
    chance = sum(w for c, w in draws if c in gin_outs)
    assert 0 < chance < 1
    assert edge - edge0 == pytest.approx(25.0 * (1.0 - chance))


def test_master_weighs_pile_and_stock_two_draws_deep() -> None:
    """The dealer holds 5h Ks Qc Jd 9s 8c 4d 3s 2c Ad (62 deadwood, no meld) and is offered
    6h; the next draws are 7h and Kd, each first with chance 1/2. No hand reaches the knock
    limit, so no bonus counts.

    One draw deep (the expert's measure): taking 6h melds nothing, and a ten or king thrown
    leaves 58; the stock's 7h melds nothing (Ks thrown: 59), nor its Kd (Ks Kd; one king
    thrown: 62): (59 + 62) / 2 = 60.5, so the pile is better by 2.5. Two draws deep: after
    6h, Ks (and the tie Qc) thrown, 7h makes 5h 6h 7h and Qc goes (37), Kd melds nothing and
    a face card goes (58): 47.5. From the stock, 7h then Kd or Kd then 7h never meld: 59. The
    pile is better by 11.5: the run it starts is worth more than one draw can see.

    Master takes the pile exactly when that edge, on its own draw weights, is above zero,
    and never settles the draw by playouts; master-2026-11 draws one draw deep."""
    from ginrummy.ai.evaluate import bonused, expected_after_draw
    from ginrummy.ai.master import MasterPlayer

    rules = ginrummy.Rules.preset("classic")
    state = ginrummy.new_hand(
        rules,
        dealer=0,
        hands=("5h Ks Qc Jd 9s 8c 4d 3s 2c Ad", "As 4s 7s Js 2h Th 3d 9d 5c Tc"),
        upcard="6h",
        stock="2s 5s 6s 8s Ts Qs Ah 3h 4h 7h 8h 9h Jh Qh Kh 2d 5d 6d 7d 8d Td Qd Kd Ac 3c 4c "
        "6c 7c 9c Jc Kc",
    ).apply("pass")
    view = state.view(0)
    k = Knowledge(view)
    draws = [(int(c), 0.5) for c in parse_cards("7h Kd")]
    master = MasterPlayer("t")
    assert master.pile_depth == 2
    assert master.two_draw_pile_edge(k, draws) == 11.5
    one_draw = expected_after_draw(k.hand, draws, 10, 10.0, 25.0) - bonused(58, 10, 10.0, 25.0)
    assert one_draw == 2.5
    _, weights, _ = master.pile_edge(k)
    assert master.wants_pile(k, view) == (master.two_draw_pile_edge(k, weights) > 0)
    assert not master.searches_draw(k, view, 0.0)
    assert player("master-2026-11", "t").pile_depth == 1  # type: ignore[attr-defined]


def test_master_discards_by_the_two_draw_search() -> None:
    """At ordinary discards (no knock possible) master throws, of its ranking's best three
    within 4 points (the expert's, gin counting 25 points more than a knock), the one with
    the least two-draw expectation (a knock counting 5 points less, gin 35 less again), mixed
    with the deadwood it keeps now by the opponent's threat to knock, plus the weighted
    danger; with the search off it throws its ranking's best card; with the
    expert's model and ranking too, exactly the expert's choice. Over the positions of
    twelve expert hands it disagrees with its ranking on some, not all."""
    from ginrummy.ai.evaluate import draw_weights, expected_after_two_draws
    from ginrummy.ai.master import MasterPlayer
    from ginrummy.melds import deadwood_mask

    master, plain, plain_expert = MasterPlayer("t"), MasterPlayer("t"), MasterPlayer("t")
    plain.discard_search = plain_expert.discard_search = False
    plain_expert.learned_beliefs = False
    plain_expert.estimate_gin_bonus = 0.0
    assert (master.discard_knock_bonus, master.gin_bonus, master.estimate_gin_bonus) == (
        5.0,
        35.0,
        25.0,
    )
    expert = player("expert", "t")
    positions = differ = 0
    threats: list[float] = []
    for i in range(12):
        state = ginrummy.deal(ginrummy.Rules.preset("classic"), 0, shuffled_deck(f"two/{i}"))
        bots = {0: player("expert", f"two/{i}/0"), 1: player("expert", f"two/{i}/1")}
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            k = Knowledge(view)
            options = discard_options(k)
            if view.phase == "discard" and len(view.legal_actions) == len(options):
                model = master.model(k)
                assert model is not None
                draws = draw_weights(k, model.probability)
                scored = master.scored_discards(k, k.hand, options, draws, model)
                near = [c for sc, c in scored if sc <= scored[0][0] + 4.0][:3]

                threat = master.knock_threat(k, model)
                threats.append(threat)

                def value(
                    c: int, k: Knowledge = k, draws: list = draws, model=model, threat=threat
                ) -> float:
                    kept = k.hand & ~(1 << c)
                    two = expected_after_two_draws(kept, draws, k.knock_limit, 5.0, gin_bonus=35.0)
                    mixed = (1.0 - threat) * two + threat * deadwood_mask(kept)
                    return mixed + 2.0 * model.usefulness(c)

                want = min(near, key=lambda c: (value(c), near.index(c)))
                assert master.choose(view) == DISCARD_TEXT[want]
                assert plain.choose(view) == DISCARD_TEXT[scored[0][1]]
                assert plain_expert.choose(view) == expert.choose(view)
                positions += 1
                differ += want != scored[0][1]
            state = state.apply(bots[seat].choose(view), seat)
    assert positions > 100
    assert 0 < differ < positions
    assert 0.0 in threats and max(threats) > 0.0


def test_master_knocks_with_the_card_that_leaves_least_to_lay_off() -> None:
    """The card to knock with is chosen on plausible opposing hands, lay-offs counted. Seat 1
    holds 4h 5h 6h 7h, 9c 9d 9s and As 2d Ac 3c after drawing 3c. Discarding 3c leaves the
    least deadwood (4); discarding 7h leaves 7 but only 4h 5h 6h to lay off on. Against 8h 3h
    Ks Qd Jc Tc 8s 6d 2s 5c (72 deadwood, no melds) the engine scores 72 - 3h - 8h - 4 = 57
    for knocking with 3c and 72 - 3h - 7 = 62 for knocking with 7h (8h no longer fits)."""
    from ginrummy.ai.evaluate import OpponentModel
    from ginrummy.ai.master import MasterPlayer
    from ginrummy.ai.strong import ExpertPlayer

    def position() -> ginrummy.HandState:
        state = ginrummy.new_hand(
            ginrummy.Rules.preset("classic"),
            0,
            hands=("8h 3h Ks Qd Jc Tc 8s 6d 2s 5c", "4h 5h 6h 7h 9c 9d 9s As 2d Ac"),
            upcard="Kd",
            stock="3c 2h Qh Jh Th 9h Qs Js Ts 7d 7c 7s",
        )
        return state.apply("pass").apply("pass").apply("stock")

    for card, points in (("3c", 57), ("7h", 62)):
        result = position().apply(f"knock {card}").result
        assert result is not None and result.winner == 1 and result.points == points

    view = position().view(1)
    k = Knowledge(view)
    options = discard_options(k)
    model = OpponentModel(k)
    opponent = mask_of(parse_cards("8h 3h Ks Qd Jc Tc 8s 6d 2s 5c"))
    expert, master = ExpertPlayer("t"), MasterPlayer("t")
    assert DISCARD_TEXT[expert.knock_discard(k, options, model)] == "discard 3c"
    master.knock_hands = lambda k, model: [opponent]  # type: ignore[method-assign]
    assert DISCARD_TEXT[master.knock_discard(k, options, model)] == "discard 7h"
    # with its own sampled hands the choice is reproducible and always a legal knock
    sampled = MasterPlayer("t")
    card = sampled.knock_discard(k, options, model)
    assert card == MasterPlayer("t").knock_discard(k, options, model)
    assert f"knock {ginrummy.Card(card)}" in view.legal_actions


def last_chance(opponent: str, last_two: str) -> ginrummy.HandState:
    """Seat 1 (master) holds 4h 5h 6h, 9c 9d 9s, 7d 7c 7s and 8h; both seats draw the stock
    and throw the card they drew until seat 1 draws Kd, leaving two cards in the stock
    (``last_two``): its last chance to knock (8 deadwood). Every card but the opponent's ten
    and ``last_two`` is then in the discard pile, so the opposing hand is ten of twelve."""
    mine = parse_cards("4h 5h 6h 9c 9d 9s 7d 7c 7s 8h")
    hidden = parse_cards(opponent) + parse_cards(last_two)
    rest = [c for c in shuffled_deck("last-chance") if c not in mine and c not in hidden]
    rest.remove(parse_cards("Kd")[0])
    upcard, drawn = rest[0], [*rest[1:], parse_cards("Kd")[0]]
    assert len(drawn) == 29
    state = ginrummy.new_hand(
        ginrummy.Rules.preset("classic"),
        0,
        hands=(opponent, "4h 5h 6h 9c 9d 9s 7d 7c 7s 8h"),
        upcard=int(upcard),
        stock=[int(c) for c in drawn] + [int(c) for c in parse_cards(last_two)],
    )
    state = state.apply("pass").apply("pass")
    for i, card in enumerate(drawn):
        state = state.apply("stock")
        if i < len(drawn) - 1:
            state = state.apply(f"discard {ginrummy.Card(card)}")
    assert state.to_act == 1 and state.view(1).stock_size == 2
    return state


def test_master_knocks_at_its_last_chance_only_if_the_knock_beats_a_void_hand() -> None:
    """With two cards left in the stock a discard that does not end the hand makes it void
    (0 points). Against an opponent holding ten of the aces, twos and threes (0 to 3
    deadwood however the ten fall, so a knock with 8 is always undercut: at least 8 - 3 + 25
    = 30 points lost; 33 against the ten it holds) master plays on and the hand is void;
    against ten of twelve high cards with no meld in any ten (78 to 92 deadwood) it knocks
    and wins. ``master-2026-11`` (and master with the search off) knocks in both, as every
    level from hard up did before."""
    from itertools import combinations

    from ginrummy.ai.master import MasterPlayer
    from ginrummy.melds import deadwood_mask

    def deadwoods(twelve: str) -> set[int]:
        return {deadwood_mask(mask_of(ten)) for ten in combinations(parse_cards(twelve), 10)}

    assert max(deadwoods("As 2s 3s Ah 2h 3h Ad 2d 3d Ac 2c 3c")) == 3
    assert min(deadwoods("Ks Kh Qd Qc Js Jh Td Tc 3s 3d 6d 6c")) == 78
    low = last_chance("As 2s 3s Ah 2h 3h Ad 2d 3d Ac", "2c 3c")
    high = last_chance("Ks Kh Qd Qc Js Jh Td Tc 3s 3d", "6d 6c")
    undercut = low.apply("knock Kd").result
    assert undercut is not None and undercut.winner == 0 and undercut.points == 25 + 8
    won = high.apply("knock Kd").result
    assert won is not None and won.winner == 1

    master, before = MasterPlayer("t"), MasterPlayer("t")
    before.last_chance_search = False
    action = master.choose(low.view(1))
    assert action.startswith("discard")
    void = low.apply(action, 1).result
    assert void is not None and void.winner is None and void.points == 0
    assert master.choose(high.view(1)).startswith("knock")
    for state in (low, high):
        assert before.choose(state.view(1)).startswith("knock")
        assert player("master-2026-11", "t").choose(state.view(1)).startswith("knock")


def test_master_can_weigh_the_opponents_threat_to_knock_in_its_discards() -> None:
    """The last-chance positions above, where the opposing hand is ten of twelve known cards.
    Against ten of the aces, twos and threes every plausible opposing hand is within the
    knock limit (3 deadwood at most), so the threat is the whole of ``threat_weight`` (0.5
    of it, or all of it at 1 and above); against ten high cards with no meld none is, so
    there is no threat whatever the weight. With the threat whole, a discard is worth the
    deadwood it keeps now (Kd thrown keeps 4h-6h, the nines, the sevens and 8h: 8) plus its
    danger; at 0.5 (master as shipped), halfway between that and the two-draw value. Off in
    ``master-2026-11``: no opposing hand is dealt for it."""
    from ginrummy.ai.evaluate import OpponentModel
    from ginrummy.ai.master import MasterPlayer

    low = last_chance("As 2s 3s Ah 2h 3h Ad 2d 3d Ac", "2c 3c")
    high = last_chance("Ks Kh Qd Qc Js Jh Td Tc 3s 3d", "6d 6c")
    kd = parse_cards("Kd")[0]

    def weighed(state: ginrummy.HandState, weight: float) -> tuple[float, float]:
        master = MasterPlayer("t")
        master.threat_weight = weight
        k = Knowledge(state.view(1))
        model = master.model(k)
        assert isinstance(model, OpponentModel)
        draws, _ = master.discard_choices(k, discard_options(k), model)
        danger = master.danger_weight * master.danger(k, int(kd), model)
        value = master.discard_value(k, int(kd), draws, model, master.gin_bonus)
        return master.knock_threat(k, model), value - danger

    frozen = player("master-2026-11", "t")
    assert isinstance(frozen, MasterPlayer) and frozen.threat_weight == 0.0
    k = Knowledge(low.view(1))
    model = frozen.model(k)
    assert model is not None
    assert frozen.knock_threat(k, model) == 0.0 and frozen._position_hands is None
    shipped = MasterPlayer("t")
    assert shipped.threat_weight == 0.5
    shipped_model = shipped.model(k)
    assert shipped_model is not None
    assert shipped.knock_threat(k, shipped_model) == 0.5
    assert shipped._position_hands is not None
    assert len(shipped._position_hands[1]["threat"]) == 64

    threat0, ahead = weighed(low, 0.0)
    threat_half, half = weighed(low, 0.5)
    threat1, now = weighed(low, 1.0)
    assert (threat0, threat_half, threat1, weighed(low, 3.0)[0]) == (0.0, 0.5, 1.0, 1.0)
    assert now == 8.0 and ahead != 8.0
    assert half == pytest.approx((ahead + now) / 2)
    high_threat, high_value = weighed(high, 3.0)
    assert high_threat == 0.0
    assert high_value == weighed(high, 0.0)[1]


def test_master_deals_a_positions_opposing_hands_once_per_tag() -> None:
    """``position_hands`` deals each tag's plausible opposing hands once a position, from a
    source seeded by the player's seed, the tag and the position: asked again, the same list;
    another tag at the same position keeps the first; a new player with the same seed deals
    the same hands; at another position they are dealt again (and the first position's are
    let go). Against ten of twelve known cards every hand is ten of those twelve."""
    from ginrummy.ai.evaluate import OpponentModel
    from ginrummy.ai.master import MasterPlayer

    state = last_chance("As 2s 3s Ah 2h 3h Ad 2d 3d Ac", "2c 3c")
    twelve = sum(1 << int(c) for c in parse_cards("As 2s 3s Ah 2h 3h Ad 2d 3d Ac 2c 3c"))
    master = MasterPlayer("t")
    k = Knowledge(state.view(1))
    model = master.model(k)
    assert isinstance(model, OpponentModel)
    threat = master.position_hands(k, model, "threat", 16)
    other = master.position_hands(k, model, "other", 8)
    assert master.position_hands(k, model, "threat", 16) is threat
    assert master.threat_hands(k, model) is threat
    assert len(threat) == 16 and len(other) == 8
    assert all(h & ~twelve == 0 and h.bit_count() == 10 for h in threat + other)
    again = MasterPlayer("t")
    assert again.position_hands(k, model, "threat", 16) == threat
    fresh = ginrummy.deal(ginrummy.Rules.preset("classic"), 0, shuffled_deck("tags"))
    fresh = fresh.apply("pass").apply("pass").apply("stock")
    later = Knowledge(fresh.view(fresh.to_act or 0))
    assert later.turn != k.turn
    later_model = master.model(later)
    assert later_model is not None
    dealt = master.position_hands(later, later_model, "threat", 16)
    assert dealt is not threat and all(h & later.hand == 0 for h in dealt)
    assert master._position_hands is not None and set(master._position_hands[1]) == {"threat"}


def test_the_hint_at_the_last_chance_knocks_only_if_the_knock_beats_a_void_hand() -> None:
    """The positions above: against ten of the aces, twos and threes a knock with 8 is always
    undercut (every ten melds down to 3 or less), so the hint plays on (the hand is then void)
    and says why, with the undercut risk of a knock (100 %: every plausible opposing hand is
    ten of those twelve); against ten high cards with no meld it advises the knock, with no
    undercut risk. The ``expert`` level itself still knocks in both (its strength table stands
    as measured)."""
    from ginrummy.ai import hint

    low = last_chance("As 2s 3s Ah 2h 3h Ad 2d 3d Ac", "2c 3c")
    high = last_chance("Ks Kh Qd Qc Js Jh Td Tc 3s 3d", "6d 6c")
    advice = hint(low.view(1))
    assert advice.action == "discard Kd"
    assert advice.reason == (
        "discard Kd: keeps 4h 5h 6h, 7s 7d 7c, 9s 9d 9c and lowers deadwood to 8; a knock now "
        "would lose points on average (about 100 % undercut risk), and with two cards left in "
        "the stock this discard makes the hand void: no points to either side"
    )
    assert hint(high.view(1)) == ginrummy.ai.Hint(
        "knock Kd", "knock now with 8 deadwood: about 0 % undercut risk"
    )
    for state in (low, high):
        assert player("expert", "t").choose(state.view(1)) == "knock Kd"
