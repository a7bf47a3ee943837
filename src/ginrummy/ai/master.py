"""``master``: expert plus search, valuing a hand's outcomes by what they are worth towards
winning a game at 0-0 (:func:`game_utility`)."""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import ClassVar

from ..cards import cards_of
from ..melds import best_discard_mask, deadwood_after_discards_mask, deadwood_mask, melded_mask
from ..views import PlayerView
from .adapt import opponent_style
from .base import end_action
from .beliefs import LearnedOpponentModel
from .evaluate import (
    OpponentModel,
    bonused,
    draw_weights,
    expected_after_draw,
    expected_after_two_draws,
    least_deadwood_discards,
)
from .knowledge import Knowledge
from .signals import KNOCKER_FEATURES, knock_signals, knocker_chance, knocker_signals
from .sim import Scoring, playout, score_knock
from .strong import ExpertPlayer, KnockEstimate

# Points the winner of a hand scores, as a coarse distribution (knocks are mostly 5-30, gins
# and undercuts 25-60); used only to turn a score into a chance of winning the game.
_HAND_POINTS = (
    (5, 0.2),
    (10, 0.2),
    (15, 0.15),
    (20, 0.15),
    (25, 0.1),
    (30, 0.08),
    (40, 0.07),
    (55, 0.05),
)


@lru_cache(maxsize=8)
def win_table(target: int, share: float = 0.5) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance of reaching the target first when needing ``a`` more points
    against an opponent needing ``b``, if this seat wins a ``share`` of the later hands (by
    default every one a coin flip), each scoring the points above (a model for valuing
    scores, not a rule)."""
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target + 1):
        for b in range(target + 1):
            if a == 0 or b == 0:
                table[a][b] = 1.0 if a == 0 and b > 0 else 0.0
                continue
            table[a][b] = sum(
                p * (share * table[max(0, a - pts)][b] + (1 - share) * table[a][max(0, b - pts)])
                for pts, p in _HAND_POINTS
            )
    return tuple(tuple(row) for row in table)


def game_utility(target: int, mine: int, theirs: int, points: int) -> float:
    """Master's value of winning ``points`` (negative: losing them) this hand with ``mine``
    and ``theirs`` game points before it: the chance of winning the game (:func:`win_table`),
    scaled so that a coin flip at the start is worth about as much as its points (over a
    target of 400: the points themselves)."""
    if target > 400:
        return float(points)
    return table_utility(win_table(target), target, mine, theirs, points)


def table_utility(
    table: Sequence[Sequence[float]], target: int, mine: int, theirs: int, points: int
) -> float:
    """:func:`game_utility` by the chances of winning the game in ``table`` (as
    :func:`win_table`'s)."""
    need_mine = max(0, target - mine)
    need_theirs = max(0, target - theirs)
    if points >= 0:
        need_mine = max(0, need_mine - points)
    else:
        need_theirs = max(0, need_theirs + points)
    if need_mine == 0:
        return 100.0
    if need_theirs == 0:
        return -100.0
    return 100.0 * (2.0 * table[need_mine][need_theirs] - 1.0)


KNOCK_FEATURES = (
    "bias",
    "knock_value",
    "on_value",
    "knock_deadwood",
    "stock",
    "opp_known",
    "opp_took",
    "gin_outs",
    "edge_late",
    "undercut_share",
    "on_loss_share",
    "on_better_share",
    "after_one_draw",
    "after_two_draws",
    "opp_deadwood",
    "opp_within_10",
    "opp_within_20",
    "turn",
    "on_spread",
    "on_gin_share",
    "on_ginned_share",
    "on_deadwood",
    "opp_turns",
    "opp_takes",
    "opp_low_takes",
    "opp_low_discards",
    "opp_rises",
    "opp_took_then_threw",
    "opp_discard_points",
    "opp_feeds",
)
"""Every feature of a chance to knock: the first twelve from the position and the
simulations (:func:`knock_features`), the next ten from the play-on hand's prospects and
plausible opposing hands too (:meth:`MasterPlayer.more_knock_features`), the last eight from
the opponent's public play this hand (:func:`.signals.knock_signals`). A parameter file is
fitted on the first few of them (the first learned knock on nine, master's on all)."""
MASTER_KNOCK = "knock-kA-mixed"
"""Master's learned knock: ``params/<MASTER_KNOCK>.json``."""
OPPOSING_HANDS = 64
"""Plausible opposing hands behind the opposing-deadwood features."""


def at_even_score(k: Knowledge, estimate: KnockEstimate) -> KnockEstimate:
    """``estimate`` with both choices valued at 0-0 from its per-deal points (where the
    learned knock was fitted)."""
    target = k.rules.target
    n = len(estimate.points)
    knock0 = sum(game_utility(target, 0, 0, a) for a, _ in estimate.points) / n
    on0 = sum(game_utility(target, 0, 0, b) for _, b in estimate.points) / n
    return estimate._replace(knock_value=knock0, on_value=on0)


def knock_features(k: Knowledge, est: KnockEstimate) -> tuple[float, ...]:
    """A chance to knock described for the learned knock: the simulations' values of both
    choices (utility, in tens), the knock's deadwood, how much stock is left, what the
    opponent has taken, how many unseen cards would give gin after playing on, and, over the
    simulated deals, the share where the knock is undercut, where playing on loses the hand,
    and where playing on scores more than the knock (0 without per-deal points)."""
    kept = k.hand & ~(1 << est.play_on)
    gin_outs = sum(1 for c in cards_of(k.unseen) if best_discard_mask(kept | 1 << c)[0] == 0)
    stock = k.stock_size / 31.0
    edge = (est.on_value - est.knock_value) / 10.0
    dw = deadwood_after_discards_mask(k.hand)[est.card]
    n = max(1, len(est.points))
    return (
        1.0,
        est.knock_value / 10.0,
        est.on_value / 10.0,
        dw / 10.0,
        stock,
        k.opp_known.bit_count() / 3.0,
        k.opp_took.bit_count() / 3.0,
        gin_outs / 5.0,
        edge * (1.0 - stock),
        sum(1 for a, _ in est.points if a < 0) / n,
        sum(1 for _, b in est.points if b < 0) / n,
        sum(1 for a, b in est.points if b > a) / n,
    )


@lru_cache(maxsize=8)
def learned_params(name: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The features and weights of ``params/<name>.json``."""
    text = resources.files("ginrummy.ai").joinpath(f"params/{name}.json").read_text("utf-8")
    params = json.loads(text)
    return tuple(params.get("features", ())), tuple(float(w) for w in params["weights"])


def knock_weights(name: str = MASTER_KNOCK) -> tuple[float, ...]:
    """A learned knock's weights (``params/<name>.json``; by default master's), checked to be
    fitted on the first of :data:`KNOCK_FEATURES` and their products."""
    features, weights = learned_params(name)
    m = len(features) - 1
    if features != KNOCK_FEATURES[: len(features)] or len(weights) != m + 1 + m * (m + 1) // 2:
        raise ValueError(f"the {name} parameters were fitted on other features")
    return weights


def hedge_weights(name: str) -> tuple[float, ...]:
    """A knocker regression's weights (``params/<name>.json``), checked to be fitted on
    :data:`~.signals.KNOCKER_FEATURES`."""
    features, weights = learned_params(name)
    if features != KNOCKER_FEATURES or len(weights) != len(features):
        raise ValueError(f"the {name} parameters were fitted on other features")
    return weights


def quadratic(x: tuple[float, ...]) -> tuple[float, ...]:
    """The features and every product of two of them (the bias, first, times none): what the
    learned knock's weights multiply."""
    rest = x[1:]
    return x + tuple(a * b for i, a in enumerate(rest) for b in rest[i:])


def feature_count(name: str) -> int:
    """How many of :data:`KNOCK_FEATURES` ``params/<name>.json`` was fitted on."""
    return len(learned_params(name)[0])


def predicted_edge(features: Sequence[float], name: str = MASTER_KNOCK) -> float:
    """The learned estimate (``params/<name>.json``) of how much playing on beats knocking
    (utility at 0-0), from a chance's features (:data:`KNOCK_FEATURES`, at least as many as
    the file was fitted on; the first of them are used)."""
    weights = knock_weights(name)
    n = feature_count(name)
    if len(features) < n:
        raise ValueError(f"{name} needs {n} features, not {len(features)}")
    x = quadratic(tuple(features[:n]))
    return sum(w * f for w, f in zip(weights, x, strict=True))


class MasterPlayer(ExpertPlayer):
    """Expert plus search: to decide a knock it deals plausible full states from its beliefs
    and plays them out, and it values the outcomes by what they are worth towards winning a
    game at 0-0 (:meth:`utility`; until 2026-12-05, night, at the real score, where near the
    target a safe small win can be worth more than a risky big one: that made about a
    quarter of a point a hand fewer in whole games, :attr:`score_weight`). Its ordinary discards are
    searched two draws deep (an exact expectation over its next two draws, weighted by its
    beliefs) among the expert's best few: playouts to the end of the hand choosing them made
    it weaker; the two-draw search is at least as good as the expert's ranking (docs/ai.md).
    Its choice between the pile and the stock looks two draws deep the same way
    (:attr:`pile_depth`; before 2026-12-05, evening, one draw deep, a close call played out
    on deals from its beliefs, both draws on the same deals).

    Learned on self-play: its beliefs (:mod:`.beliefs`), and a correction of its knock
    simulations' verdict, which is right in sign but far too confident (:func:`predicted_edge`,
    fitted by :mod:`ginrummy.learn.knock` on what both choices were really worth)."""

    level = "master"
    knock_samples = 128
    play_on_margin = 0.0
    pile_depth = 2
    """How many of its own draws deep the choice between the pile and the stock looks (1 or
    2): 2 (since 2026-12-05, evening), :meth:`two_draw_pile_edge` decides every draw, as the
    two-draw search decides the discards; 1, the expert's one-draw edge, a close call settled
    by playouts (:attr:`draw_search`), as master drew before (docs/ai.md, "Pile or stock two
    draws deep")."""
    draw_search = True
    """Whether a close choice between the pile and the stock is settled by playouts when the
    choice looks one draw deep (off: the expert's rule, as ``master`` played before)."""
    draw_margin = 3.0
    """How close (in the expert's deadwood estimate) pile and stock must be to search."""
    search_samples = 48
    """Deals per searched draw, the same for both choices (common random numbers)."""
    knock_search = True
    """Whether the card to knock with is chosen on simulated opposing hands (off: the least
    deadwood, as the expert does)."""
    discard_search = True
    """Whether an ordinary discard is searched two draws deep among the expert's best few
    (off: the expert's ranking, searching one draw)."""
    discard_candidates = 3
    """How many of the expert's best discards the two-draw search compares."""
    discard_margin = 4.0
    """How close (in the expert's score) a discard must be to the best to be compared."""
    discard_knock_bonus = 5.0
    """What being able to knock after a draw is worth in the two-draw search, in deadwood
    points (the expert's ``knock_bonus``, 10, in its one-draw ranking, its draws and the
    learned knock's features): master plays on at most of its chances to knock."""
    gin_bonus = 35.0
    """What reaching gin after a draw is worth in the two-draw search, beyond the knock bonus
    (0: as master searched before 2026-12-05; 25 that morning): about half the hands
    between the masters end by gin, so a discard that keeps gin in reach is worth more than
    its deadwood says (docs/ai.md, "Discards that value gin")."""
    knocker_gin_bonus: float | None = 25.0
    """The two-draw search's gin bonus once the game's finished hands show a knocker
    (:meth:`opponent_kind`; None: :attr:`gin_bonus` against everyone): against a player that
    knocks at once gin is worth less (docs/ai.md, "Discards that value gin")."""
    estimate_gin_bonus = 25.0
    """Gin counted in the one-draw estimates too (the ranking that picks the two-draw
    search's candidates, the pile's edge in the draw), beyond the knock bonus (0 at the
    other levels, and in master before the afternoon of 2026-12-05; docs/ai.md, "Discards
    that value gin")."""
    learned_beliefs = True
    """Whether its opponent model is the learned one (:mod:`.beliefs`, fitted on self-play)
    rather than the expert's hand-set likelihood ratios."""
    learned_knock = True
    """Whether the knock decision corrects the simulations' verdict by a regression learned
    on self-play (:mod:`ginrummy.learn.knock`)."""
    knock_params = MASTER_KNOCK
    """The learned knock's parameter file (``params/<knock_params>.json``)."""
    adapt = True
    """Whether the knock decision uses what the game's finished hands show of the opponent
    (:mod:`.adapt`): once they show a player that knocks at (nearly) every chance
    (:meth:`opponent_kind`), the learned knock is the one learned against such players
    (:attr:`style_knocks`); once they show one that plays on, the one learned on self-play;
    before either, the knock hedges (:attr:`knocker_prior`). docs/ai.md ("Adapting to the
    opponent") gives what each attempt measured; ``master-no-adapt`` plays without it."""
    adapt_evidence = 2
    """Knock chances of the opponent's to see before adapting."""
    always_knocks = 0.75
    """A knock rate (when it can: a Beta(1, 1) mean) at or above which the opponent is taken
    to knock at once: two knocks at its first two chances. A knocker shows about one chance
    a hand (it ends the hand at it), so adapting from the third hand on: against knockers that
    paid +0.55 and +0.78 points a hand more than waiting for five (docs/ai.md)."""
    style_knocks: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"knocker": "knock-vs-knocker", "player": "knock-kA-signals"}
    )
    """Per opponent style, the learned knock's parameters against it: against a ``knocker``
    the knock fitted by :mod:`ginrummy.learn.knock` on hands against ``style-knock`` and
    ``baseline``; against a ``player`` that plays on at its chances, the knock fitted on
    master's self-play alone (``knock-kA-signals``, master's own without the knockers'
    chances). Against players that never knock, a knock learned on hands against them was no
    better than master's own (docs/ai.md), so there is none of its own."""
    knocker_prior = 0.4
    """With adaptation on and no :attr:`hedge_params`, the chance that an opponent whose
    style the game has not shown yet (:meth:`opponent_kind` None: a single deal, a game's
    first hand or two) knocks at once: the learned knock's edge is then the two learned
    knocks' (against knockers, and master's own) mixed by it (:meth:`learned_edge`). 0 (as
    until 2026-12-06): master's own alone. At 0.4 master made +0.64 points a hand more
    against ``baseline`` in single deals and -0.61 against ``master-2026-11`` (docs/ai.md,
    "Hedging until the game shows the opponent"); master's hedge of 2026-12-06 and 07
    (``master-2026-12``)."""
    hedge_params: str | None = "knocker-signals"
    """The logistic regression (``params/<hedge_params>.json``, fitted by
    :mod:`ginrummy.learn.knocker`) that gives the hedge its chance of a knocker from the
    opponent's public play this hand (:func:`~.signals.knocker_chance`) instead of the fixed
    :attr:`knocker_prior`; None: the fixed prior (as in ``master-2026-12``). Since
    2026-12-07: against ``master-2026-11`` on nineteen seeds of 300 game pairs master won
    60.04 % of the games with it and 59.80 % with the fixed prior, ahead on fourteen seeds,
    and made +2.70 points a hand against +2.67 (59.76 % over those and eight fresh seeds);
    against ``baseline`` in single deals -0.05 [-0.17, +0.06] (docs/ai.md, "The hand's
    public play as the hedge: master since 2026-12-07")."""
    player_passes = 1
    """Chances to knock the game's finished hands must show the opponent playing on at (and
    too few knocks to take it for a knocker) before it is taken for a ``player``."""

    last_chance_search = True
    """On in master (:meth:`HardPlayer.knock_choice`); off, as before 2026-12-06, in
    ``master-2026-11`` and the players behind the shipped data: against ``master-2026-11``
    knocks at the last chance were undercut at nearly nine in ten (docs/ai.md, "The last
    chance to knock")."""

    score_weight = 0.0
    """How much of a hand's value is the chance of winning the game from the real score
    (:func:`game_utility`), the rest the same at 0-0 (where the learned knock was fitted).
    1 until 2026-12-05, night (and in ``master-2026-11``); 0 since: valued as at 0-0 whatever
    the score, master made +0.24 points a hand more in whole games against
    ``master-2026-11`` over five seeds (clear of zero on four) and won 0.9 % points more of
    them (clear of zero on one; docs/ai.md, "The score left out")."""

    threat_weight = 0.5
    """How far the opponent's threat to end the hand moves an ordinary discard's value in the
    two-draw search from the expectation after two draws towards the deadwood the hand keeps
    now (:meth:`discard_value`): by this weight times the share of :data:`OPPOSING_HANDS`
    plausible opposing hands already within the knock limit, at most all the way
    (:meth:`knock_threat`). 0 until 2026-12-07 (and in every frozen player); 0.5 since: on
    fourteen seeds of games against ``master-2026-11`` it won 60.1 % of them against 59.2 %
    with the weight at 0, and made +0.09 points a hand more (``threat-W`` of
    ``bench/master_variants.py``; docs/ai.md, "The end of the game, and the opponent's threat
    in the discards", and later sections)."""

    _position_hands: tuple[tuple[int, int], dict[str, list[int]]] | None = None
    """The last position's key (turn, hand) and its plausible opposing hands by tag
    (:meth:`position_hands`)."""

    _threat: tuple[tuple[int, int], float] | None = None
    """The last position's key and its share of opposing hands within the knock limit
    (:meth:`threat_share`)."""

    def model(self, k: Knowledge) -> OpponentModel | None:
        return LearnedOpponentModel(k) if self.learned_beliefs else OpponentModel(k)

    def knock_estimate(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> KnockEstimate:
        if not self.learned_knock:
            return super().knock_estimate(k, options, model)
        card = self.knock_discard(k, options, model)
        ending = end_action(card, options[card], knock=True, limit=k.knock_limit)
        play_on = self.best_discard(k, options, model)
        points = self.simulate_knock_points(k, card, play_on, model)
        knock_total = on_total = 0.0
        for knock_points, on_points in points:
            knock_total += self.utility(k, knock_points)
            on_total += self.utility(k, on_points)
        n = len(points)
        return KnockEstimate(ending, card, play_on, knock_total / n, on_total / n, tuple(points))

    def knocks(self, k: Knowledge, estimate: KnockEstimate) -> bool:
        """With the learned knock: unless the learned edge of playing on is above the margin.

        The correction was learned on single hands, at 0-0: the simulations' points are
        valued as there, the learned edge taken from them, and the correction (the learned
        edge less the simulations' own at 0-0) added to the simulations' edge at the real
        score, scaled by how much a point is worth there against at 0-0."""
        if not self.learned_knock or not estimate.points:
            return super().knocks(k, estimate)
        even = at_even_score(k, estimate)
        learned0 = self.learned_edge(k, even)
        if (estimate.knock_value, estimate.on_value) == (even.knock_value, even.on_value):
            return learned0 <= self.knock_margin(k)
        correction = learned0 - (even.on_value - even.knock_value)
        edge = estimate.on_value - estimate.knock_value + self.point_worth(k) * correction
        return edge <= self.knock_margin(k)

    def point_worth(self, k: Knowledge) -> float:
        """How much a point is worth at the real score against at 0-0 (the slope of the
        utility over ten points either way)."""
        target = k.rules.target
        return (self.utility(k, 10) - self.utility(k, -10)) / (
            game_utility(target, 0, 0, 10) - game_utility(target, 0, 0, -10)
        )

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        """The learned edge of playing on at 0-0, ``estimate0`` valued there
        (:func:`predicted_edge` with the knock for this opponent; with adaptation on and the
        opponent's style not yet shown, the knock against knockers and master's own mixed by
        :meth:`hedge_chance`)."""
        name = self.knock_params_for(k)
        prior = self.hedge_chance(k)
        if prior <= 0.0 or self.opponent_kind(k) is not None:
            return predicted_edge(self.chance_features(k, estimate0, feature_count(name)), name)
        knocker = self.style_knocks["knocker"]
        x = self.chance_features(k, estimate0, max(feature_count(name), feature_count(knocker)))
        return prior * predicted_edge(x, knocker) + (1.0 - prior) * predicted_edge(x, name)

    def hedge_chance(self, k: Knowledge) -> float:
        """The chance the knock hedge gives a knocker while the opponent's style is not yet
        shown: with adaptation on, what :attr:`hedge_params` makes of the opponent's public
        play this hand (or :attr:`knocker_prior` without them); else 0 (no hedge)."""
        if not self.adapt:
            return 0.0
        if self.hedge_params is None:
            return self.knocker_prior
        return knocker_chance(hedge_weights(self.hedge_params), knocker_signals(k.view))

    def chance_features(
        self, k: Knowledge, estimate: KnockEstimate, count: int = len(KNOCK_FEATURES)
    ) -> tuple[float, ...]:
        """The first ``count`` (at least) of a chance's :data:`KNOCK_FEATURES` (the ten of
        :meth:`more_knock_features` only when asked for: they cost a few milliseconds)."""
        features = knock_features(k, estimate)
        if count <= len(features):
            return features
        model = self.model(k)
        assert model is not None
        features += self.more_knock_features(k, estimate, model)
        if count <= len(features):
            return features
        return features + knock_signals(k.view)

    def more_knock_features(
        self,
        k: Knowledge,
        estimate: KnockEstimate,
        model: OpponentModel,
        rng: random.Random | None = None,
    ) -> tuple[float, ...]:
        """The ten of :data:`KNOCK_FEATURES` after the first twelve for a chance
        (``estimate`` with its per-deal points): the play-on hand's expected deadwood after
        one and after two draws (:func:`expected_after_two_draws`, as the discard search
        values it), the opposing deadwood over :data:`OPPOSING_HANDS` plausible hands (its
        mean, and the share at 10 or less and at 20 or less), the turn, and over the knock's
        simulated deals the spread of playing on's points and the share where playing on wins
        by gin (25 or more) or is ginned (-25 or less); last, the deadwood that plays on. The
        opposing hands are dealt from ``rng``, by default a source seeded by the player's seed
        and the position (so the player's own random stream is untouched)."""
        kept = k.hand & ~(1 << estimate.play_on)
        draws = draw_weights(k, model.probability)
        if rng is None:
            rng = random.Random(f"{self.seed}/extras/{k.turn}/{k.hand}")
        hands = model.deals(rng, OPPOSING_HANDS, self.belief_sharpness(k))
        opposing = [deadwood_mask(opp) for opp, _ in hands]
        on = [b for _, b in estimate.points] or [0]
        return (
            expected_after_draw(kept, draws) / 10,
            expected_after_two_draws(kept, draws, k.knock_limit, self.knock_bonus) / 10,
            sum(opposing) / len(opposing) / 10,
            sum(d <= 10 for d in opposing) / len(opposing),
            sum(d <= 20 for d in opposing) / len(opposing),
            k.turn / 30,
            statistics.pstdev(on) / 10,
            sum(b >= 25 for b in on) / len(on),
            sum(b <= -25 for b in on) / len(on),
            deadwood_after_discards_mask(k.hand)[estimate.play_on] / 10,
        )

    def opponent_kind(self, k: Knowledge) -> str | None:
        """With adaptation on, the opponent's style as the game's finished hands show it: a
        ``knocker`` (it knocks at nearly every chance), a ``player`` (it has played on at
        :attr:`player_passes` of its chances and is no knocker); None with too little seen."""
        if not self.adapt:
            return None
        style = opponent_style(k.view)
        if style.chances >= self.adapt_evidence and style.knock_rate >= self.always_knocks:
            return "knocker"
        if self.player_passes and style.chances - style.ended >= self.player_passes:
            return "player"
        return None

    def knock_params_for(self, k: Knowledge) -> str:
        """The learned knock to use against this opponent (:attr:`knock_params`, or with
        adaptation the one learned against its style)."""
        kind = self.opponent_kind(k)
        return self.knock_params if kind is None else self.style_knocks[kind]

    def utility(self, k: Knowledge, points: int) -> float:
        """A hand's ``points`` valued as at 0-0, and (:attr:`score_weight`) by the chance of
        winning the game from the real score (:func:`game_utility`)."""
        target = k.rules.target
        even = game_utility(target, 0, 0, points)
        if not self.score_weight:
            return even
        real = game_utility(target, k.my_points, k.opp_points, points)
        return self.score_weight * real + (1.0 - self.score_weight) * even

    # --- search ------------------------------------------------------------------------------

    def rollout(
        self, k: Knowledge, mine: int, opp: int, stock: list[int], top: int, sc: Scoring
    ) -> float:
        """The value (:meth:`utility`) of a playout from the opponent's draw, this seat having
        kept ``mine`` and discarded ``top``."""
        return self.utility(
            k, playout((mine, opp), stock, top, 1, sc, knock_at=self.playout_limits(k))
        )

    def search_deals(self, k: Knowledge, model: OpponentModel) -> list[tuple[int, list[int]]]:
        """The deals of a searched decision, from a random source seeded by the player's seed
        and the position (so a search leaves the player's own random stream untouched)."""
        sharpness = self.belief_sharpness(k)
        rng = random.Random(f"{self.seed}/search/{k.turn}/{k.hand}/{k.top}/{k.taken}")
        return self.opponent_deals(k, model, rng, self.search_samples, sharpness)

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        if k.top < 0:
            return False
        if self.draw_search and any(d == k.top for _, d in k.my_pairs):
            # never take back a card discarded this hand: with searched (so not always the
            # same) discards, taking them back could cycle with an opponent for ever
            return False
        edge, draws, model = self.pile_edge(k)
        assert model is not None
        if self.pile_depth == 2:
            return self.two_draw_pile_edge(k, draws) > 0
        if not self.searches_draw(k, view, edge):
            return edge > 0
        return self.search_pile(k, draws, model)

    def two_draw_pile_edge(self, k: Knowledge, draws: Sequence[tuple[int, float]]) -> float:
        """How much less expected deadwood taking the pile's top card leaves than a stock
        draw, two of this seat's draws deep, the knock and gin bonuses of the discard search
        counted: :meth:`two_draws_ahead` of the hand as it is less
        :meth:`pile_two_draws_ahead`, with the same ``draws`` weights. One draw deep sees
        nothing in a card that needs two more to meld: the discards have long looked two
        draws deep, and the draw now judges by the same measure."""
        gin = self.search_gin_bonus(k)
        return self.two_draws_ahead(k, k.hand, draws, gin) - self.pile_two_draws_ahead(
            k, draws, gin
        )

    def two_draws_ahead(
        self, k: Knowledge, kept: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        """The two-draw search's value of holding ``kept`` before a stock draw: the expected
        least deadwood after this seat's next two draws (:func:`expected_after_two_draws`),
        :attr:`discard_knock_bonus` and the gin bonus ``gin`` counted."""
        return expected_after_two_draws(
            kept, draws, k.knock_limit, self.discard_knock_bonus, gin_bonus=gin
        )

    def pile_two_draws_ahead(
        self, k: Knowledge, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        """The same value for taking the pile's top card, as the first of the two draws
        (:meth:`taken_two_draws_ahead` of the hand held and the pile's card)."""
        return self.taken_two_draws_ahead(k, k.hand, k.top, draws, gin)

    def taken_two_draws_ahead(
        self, k: Knowledge, hand: int, top: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        """The two-draw value of taking ``top`` from the pile onto ``hand``: a hand that can
        then knock stops there (bonused); any other discards the better, by the expectation
        after the next stock draw (``draws``; :func:`expected_after_draw`), of its two cards
        leaving least deadwood (the card just taken may not go); with nothing left to draw,
        the deadwood the better leaves."""
        limit, knock = k.knock_limit, self.discard_knock_bonus
        with_top = hand | 1 << top
        after = deadwood_after_discards_mask(with_top)
        after.pop(top)
        best = least_deadwood_discards(after, 2)
        least = after[best[0]]
        if least <= limit:
            return bonused(least, limit, knock, gin)
        if not draws:
            return float(least)
        return min(
            expected_after_draw(with_top & ~(1 << c), draws, limit, knock, gin) for c in best
        )

    def searches_draw(self, k: Knowledge, view: PlayerView, edge: float) -> bool:
        """Whether a draw whose pile edge the expert puts at ``edge`` is settled by search."""
        return (
            self.draw_search
            and self.pile_depth == 1
            and view.phase == "draw"
            and k.stock_size > 4
            and abs(edge) <= self.draw_margin
        )

    def close_draw(
        self, k: Knowledge, view: PlayerView
    ) -> tuple[float, list[tuple[int, float]], OpponentModel] | None:
        """The expert's pile edge, the draw weights and the model of a draw this player
        settles by search (None for any other position)."""
        if k.top < 0 or any(d == k.top for _, d in k.my_pairs):
            return None
        edge, draws, model = self.pile_edge(k)
        if model is None or not self.searches_draw(k, view, edge):
            return None
        return edge, draws, model

    def search_pile(
        self, k: Knowledge, draws: list[tuple[int, float]], model: OpponentModel
    ) -> bool:
        """Whether taking the pile beats drawing the stock in playouts on the same deals
        (:meth:`pile_search_edge`)."""
        return self.pile_search_edge(k, draws, model) > 0

    def pile_search_edge(
        self, k: Knowledge, draws: list[tuple[int, float]], model: OpponentModel
    ) -> float:
        """How much taking the pile beats drawing the stock, in mean utility over playouts on
        the same deals.

        Either way this seat ends the hand at once if it can (scored as a knock), or else
        discards as the expert would and the deal is played out from the opponent's draw."""
        deals = self.search_deals(k, model)
        sc = self.scoring(k)
        chosen: dict[int, int] = {}

        def discard_of(hand: int, taken: int) -> int:
            if hand not in chosen:
                left = [(c, w) for c, w in draws if not hand >> c & 1]
                total = sum(w for _, w in left) or 1.0
                left = [(c, w / total) for c, w in left]
                cards = (c for c in cards_of(hand) if c != taken)
                chosen[hand] = self.rank_discards(k, hand, cards, left, model)[0]
            return chosen[hand]

        def value(hand: int, taken: int, opp: int, stock: list[int]) -> float:
            after = deadwood_after_discards_mask(hand)
            after.pop(taken, None)
            least = min(after, key=lambda c: (after[c], -(c % 13), c))
            if after[least] <= k.knock_limit:
                return self.utility(k, score_knock(hand & ~(1 << least), opp, sc))
            card = discard_of(hand, taken)
            return self.rollout(k, hand & ~(1 << card), opp, stock, card, sc)

        pile_hand = k.hand | 1 << k.top
        edge = 0.0
        for opp, stock in deals:
            edge += value(pile_hand, k.top, opp, stock)
            edge -= value(k.hand | 1 << stock[0], -1, opp, stock[1:])
        return edge / len(deals)

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        """Of the expert's best few discards, the one with the least expected deadwood after
        the next two draws (:func:`expected_after_two_draws`, with
        :attr:`discard_knock_bonus` and :meth:`search_gin_bonus` counted) plus the weighted danger
        of feeding the opponent, as the expert weighs it.

        The expert looks one draw ahead; two draws also value what one draw cannot complete.
        Playouts to the end of the hand, tried first, made the choice weaker (docs/ai.md);
        this search is exact, so it has no sampling noise."""
        if not self.discard_search or model is None:
            return super().best_discard(k, options, model)
        draws, candidates = self.discard_choices(k, options, model)
        if len(candidates) < 2:
            return candidates[0]
        gin = self.search_gin_bonus(k)

        def value(card: int) -> float:
            return self.discard_value(k, card, draws, model, gin)

        return min(candidates, key=lambda c: (value(c), candidates.index(c)))

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        """A candidate discard's value in the two-draw search (less is better):
        :meth:`two_draws_ahead` of the hand without it, mixed with the deadwood it keeps now
        by :meth:`knock_threat` (:attr:`threat_weight`), plus the weighted danger of feeding
        the opponent, as the expert weighs it."""
        kept = k.hand & ~(1 << card)
        ahead = self.two_draws_ahead(k, kept, draws, gin)
        threat = self.knock_threat(k, model)
        if threat:
            ahead = (1.0 - threat) * ahead + threat * self.kept_now(k, kept, model)
        return ahead + self.danger_weight * self.danger(k, card, model)

    def kept_now(self, k: Knowledge, kept: int, model: OpponentModel) -> float:
        """What keeping ``kept`` is worth were the hand to end now (less is better): the
        deadwood it keeps."""
        return deadwood_mask(kept)

    def knock_threat(self, k: Knowledge, model: OpponentModel) -> float:
        """How far an ordinary discard's value moves towards :meth:`kept_now`:
        :meth:`threat_share` times :attr:`threat_weight`, at most 1; 0 without dealing any
        hand when the weight is 0."""
        if not self.threat_weight:
            return 0.0
        return min(1.0, self.threat_weight * self.threat_share(k, model))

    def threat_share(self, k: Knowledge, model: OpponentModel) -> float:
        """The share of :meth:`threat_hands` already within the knock limit, counted once a
        position."""
        key = (k.turn, k.hand)
        if self._threat is None or self._threat[0] != key:
            hands = self.threat_hands(k, model)
            share = sum(deadwood_mask(opp) <= k.knock_limit for opp in hands) / len(hands)
            self._threat = (key, share)
        return self._threat[1]

    def threat_hands(self, k: Knowledge, model: OpponentModel) -> list[int]:
        """The :data:`OPPOSING_HANDS` plausible opposing hands of :meth:`knock_threat`
        (:meth:`position_hands` tagged ``threat``)."""
        return self.position_hands(k, model, "threat", OPPOSING_HANDS)

    def position_hands(self, k: Knowledge, model: OpponentModel, tag: str, count: int) -> list[int]:
        """``count`` plausible opposing hands at this position, from a source seeded by the
        player's seed, ``tag`` and the position (the player's own random stream is
        untouched), dealt once for all of the position's candidate discards."""
        key = (k.turn, k.hand)
        if self._position_hands is None or self._position_hands[0] != key:
            self._position_hands = (key, {})
        hands = self._position_hands[1]
        if tag not in hands:
            rng = random.Random(f"{self.seed}/{tag}/{k.turn}/{k.hand}")
            deals = model.deals(rng, count, self.belief_sharpness(k))
            hands[tag] = [opp for opp, _ in deals]
        return hands[tag]

    def search_gin_bonus(self, k: Knowledge) -> float:
        """The gin bonus of the two-draw search against this opponent: :attr:`gin_bonus`, or
        :attr:`knocker_gin_bonus` once the game shows a knocker."""
        if self.knocker_gin_bonus is not None and self.opponent_kind(k) == "knocker":
            return self.knocker_gin_bonus
        return self.gin_bonus

    def discard_choices(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> tuple[list[tuple[int, float]], list[int]]:
        """The next draw's weights, and the discards a search compares: the expert's best
        (first) and those after it within ``discard_margin`` of its score, at most
        ``discard_candidates``."""
        draws = draw_weights(k, model.probability)
        scored = self.scored_discards(k, k.hand, options, draws, model)
        top = scored[0][0] + self.discard_margin
        return draws, [c for s, c in scored if s <= top][: self.discard_candidates]

    def knock_discard(self, k: Knowledge, options: dict[int, int], model: OpponentModel) -> int:
        """The knock, among every discard that allows one, scoring best on the same plausible
        opposing hands (lay-offs and undercuts counted exactly): keeping a little more
        deadwood can pay when it leaves the opponent nothing to lay off."""
        candidates = sorted(
            (c for c, dw in options.items() if dw <= k.knock_limit),
            key=lambda c: (options[c], -(c % 13), c),
        )
        if not self.knock_search or len(candidates) < 2:
            return super().knock_discard(k, options, model)
        melds = {melded_mask(k.hand & ~(1 << c)) for c in candidates}
        if len(melds) == 1:
            # the same melds whichever card goes, so the same lay-offs: the least deadwood
            # knocks for the most (and is undercut least); nothing to search
            return candidates[0]
        sc = self.scoring(k)
        hands = self.knock_hands(k, model)
        best, best_value = candidates[0], -math.inf
        for card in candidates:
            kept = k.hand & ~(1 << card)
            value = sum(self.utility(k, score_knock(kept, opp, sc)) for opp in hands)
            if value > best_value + 1e-9:
                best, best_value = card, value
        return best

    def knock_hands(self, k: Knowledge, model: OpponentModel) -> list[int]:
        """Plausible opposing hands for choosing the knock, from a source seeded by the
        player's seed and the position (like :meth:`search_deals`)."""
        sharpness = self.belief_sharpness(k)
        rng = random.Random(f"{self.seed}/knock/{k.turn}/{k.hand}/{k.top}")
        deals = self.opponent_deals(k, model, rng, self.knock_samples, sharpness)
        return [opp for opp, _ in deals]
