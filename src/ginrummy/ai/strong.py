"""The levels that look ahead: ``normal``, ``hard`` and ``expert``."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import NamedTuple

from ..actions import DISCARD_TEXT
from ..melds import deadwood_after_discards_mask
from ..views import PlayerView
from .base import Player, discard_options, end_action, least_deadwood_discard
from .evaluate import OpponentModel, bonused, draw_weights, expected_after_draw
from .knowledge import Knowledge, meld_partners
from .sim import Scoring, playout, score_knock


class KnockEstimate(NamedTuple):
    """A knock weighed against playing on (:meth:`HardPlayer.knock_estimate`)."""

    ending: str
    """The knock action."""
    card: int
    """The card it discards."""
    play_on: int
    """The discard that plays on instead."""
    knock_value: float
    on_value: float
    """Each one's mean value over the same simulated deals."""
    points: tuple[tuple[int, int], ...] = ()
    """Per deal, each one's points (when the player keeps them: ``master``)."""


class NormalPlayer(Player):
    """The best meld layout; discards by the expected deadwood after the next draw; avoids
    discards that help the opponent, judged from what it took and passed; knocks when it can.
    """

    level = "normal"
    danger_weight = 2.0
    """Deadwood points a discard's danger (0..1) is worth."""
    pile_margin = 0.3
    """How much better the pile must be than the stock's expectation to take it."""
    knock_bonus: float = 10.0
    """How many deadwood points being able to knock after the next draw is worth."""
    estimate_gin_bonus: float = 0.0
    """How many more reaching gin is worth in the one-draw estimates (the discard ranking and
    the pile's edge): 0 at every level but master (25); ``bench/knock_playouts.py play``
    measures others."""

    def model(self, k: Knowledge) -> OpponentModel | None:
        return None

    def danger(self, k: Knowledge, card: int, model: OpponentModel | None) -> float:
        """How likely a discard helps the opponent (0..1)."""
        partners = meld_partners(card)
        score = 0.0
        if partners & k.opp_took:
            score += 0.6
        if partners & k.opp_known:
            score += 0.2
        if partners & (k.opp_discarded | k.opp_declined) and not partners & k.opp_took:
            score -= 0.2
        return max(0.0, min(1.0, score))

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        return k.top >= 0 and self.pile_edge(k)[0] > 0

    def pile_edge(
        self, k: Knowledge
    ) -> tuple[float, list[tuple[int, float]], OpponentModel | None]:
        """How much better (in expected deadwood) the pile's top card is than a stock draw,
        less the pile margin; with the stock draw weights and the opponent model used."""
        with_top = k.hand | 1 << k.top
        after = deadwood_after_discards_mask(with_top)
        after.pop(k.top)
        pile_value = float(min(after.values()))
        model = self.model(k)
        draws = draw_weights(k, None if model is None else model.probability)
        bonuses = (k.knock_limit, self.knock_bonus, self.estimate_gin_bonus)
        stock_value = expected_after_draw(k.hand, draws, *bonuses)
        return stock_value - self.pile_margin - bonused(pile_value, *bonuses), draws, model

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        """The ending action to play now, or ``None`` to play on: knock whenever possible."""
        card, best = least_deadwood_discard(options)
        if best > k.knock_limit:
            return None
        return end_action(card, best, knock=True, limit=k.knock_limit)

    def discard(self, k: Knowledge, view: PlayerView) -> str:
        options = discard_options(k)
        model = self.model(k)
        ending = self.knock_choice(k, options, model)
        if ending is not None:
            return ending
        return DISCARD_TEXT[self.best_discard(k, options, model)]

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        """The card to discard when not ending the hand (the first of :meth:`ranked_discards`)."""
        return self.ranked_discards(k, options, model)[0]

    def ranked_discards(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> list[int]:
        """Discards, best first: least expected deadwood after the next draw plus the danger
        of feeding the opponent (ties: the higher rank first)."""
        draws = draw_weights(k, None if model is None else model.probability)
        return self.rank_discards(k, k.hand, options, draws, model)

    def rank_discards(
        self,
        k: Knowledge,
        hand: int,
        cards: Iterable[int],
        draws: list[tuple[int, float]],
        model: OpponentModel | None,
    ) -> list[int]:
        """``cards`` of ``hand`` ranked as discards, best first, with ``draws`` the weights of
        the next draw (:meth:`ranked_discards` for the hand held; a searched draw ranks a
        hand it might hold)."""
        return [card for _, card in self.scored_discards(k, hand, cards, draws, model)]

    def scored_discards(
        self,
        k: Knowledge,
        hand: int,
        cards: Iterable[int],
        draws: list[tuple[int, float]],
        model: OpponentModel | None,
    ) -> list[tuple[float, int]]:
        """``(score, card)`` behind :meth:`rank_discards`, best (lowest) first: the expected
        deadwood after the next draw plus the weighted danger of feeding the opponent."""
        scored = []
        for card in cards:
            kept = hand & ~(1 << card)
            score = expected_after_draw(
                kept, draws, k.knock_limit, self.knock_bonus, self.estimate_gin_bonus
            ) + self.danger_weight * self.danger(k, card, model)
            scored.append((round(score, 9), -(card % 13), card))
        scored.sort()
        return [(score, card) for score, _, card in scored]


class HardPlayer(NormalPlayer):
    """Estimates the opponent's likely cards (the opponent model), and weighs an immediate
    knock against playing on: a few plausible deals are simulated both ways, so the undercut
    risk, which grows as the hand goes on, and the chance of gin are both counted. Cautious:
    it plays on only when that is clearly better."""

    level = "hard"
    knock_samples = 16
    """Simulated deals per knock decision."""
    play_on_margin = 10.0
    """Points per hand by which playing on must beat knocking in the simulations (guards
    against the optimism of a noisy estimate)."""
    sharpness_per_turn = 0.02
    """How fast the opponent's hand is assumed to improve: a sampled hand is kept with weight
    ``exp(-beta * deadwood)``, ``beta`` growing by this much per opponent draw (calibrated on
    self-play: it matches the mean deadwood of real opponent hands turn by turn)."""
    max_sharpness = 0.15
    last_chance_search = False
    """At its last chance to knock (a stock draw has left two cards: a discard that does not
    end the hand makes it void, worth nothing to either side), whether to knock only when the
    knock's simulated deals (lay-offs and undercuts counted) value it at least as a void
    hand. Off (``hard`` and ``expert``): knock there whenever possible, which against a
    player that has kept its deadwood low is undercut more often than not; on in ``master``
    and in the hints (docs/ai.md, "The last chance to knock")."""

    def model(self, k: Knowledge) -> OpponentModel | None:
        return OpponentModel(k)

    def danger(self, k: Knowledge, card: int, model: OpponentModel | None) -> float:
        if model is None:  # pragma: no cover - hard always has a model
            return super().danger(k, card, None)
        return model.usefulness(card)

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        """Gin at once; otherwise knock only if the simulations do not favour playing on. At
        the last chance (two cards left in the stock, where playing on makes the hand void):
        knock whenever possible, or with :attr:`last_chance_search` only if the knock's
        simulated value is at least a void hand's."""
        ending = super().knock_choice(k, options, model)
        if ending is None or ending.startswith("gin") or model is None:
            return ending
        last_chance = k.stock_size <= 2
        if last_chance and not self.last_chance_search:
            return ending
        estimate = self.knock_estimate(k, options, model)
        if last_chance:
            return estimate.ending if estimate.knock_value >= self.utility(k, 0) else None
        return estimate.ending if self.knocks(k, estimate) else None

    def knock_estimate(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> KnockEstimate:
        """The knock to play and the discard to play on with, each valued by simulation."""
        card = self.knock_discard(k, options, model)
        ending = end_action(card, options[card], knock=True, limit=k.knock_limit)
        play_on = self.best_discard(k, options, model)
        knock_value, on_value = self.simulate_knock(k, card, play_on, model)
        return KnockEstimate(ending, card, play_on, knock_value, on_value)

    def knocks(self, k: Knowledge, estimate: KnockEstimate) -> bool:
        """Whether to knock rather than play on: unless the simulations favour playing on by
        more than the margin."""
        return estimate.knock_value + self.knock_margin(k) >= estimate.on_value

    def knock_margin(self, k: Knowledge) -> float:
        """How much the knock's simulated value is raised before it is compared with playing
        on (:attr:`play_on_margin`)."""
        return self.play_on_margin

    def knock_discard(self, k: Knowledge, options: dict[int, int], model: OpponentModel) -> int:
        """The card to knock with (some discard keeping deadwood within the knock limit): the
        one keeping the least deadwood."""
        return least_deadwood_discard(options)[0]

    def scoring(self, k: Knowledge) -> Scoring:
        r = k.rules
        return Scoring(k.knock_limit, r.gin_bonus, r.undercut_bonus, r.big_gin_bonus, k.multiplier)

    def simulate_knock(
        self, k: Knowledge, knock_card: int, play_on: int, model: OpponentModel
    ) -> tuple[float, float]:
        """Mean value of knocking with ``knock_card`` and of discarding ``play_on`` and playing
        on, over the same simulated deals."""
        points = self.simulate_knock_points(k, knock_card, play_on, model)
        knock_total = on_total = 0.0
        for knock_points, on_points in points:
            knock_total += self.utility(k, knock_points)
            on_total += self.utility(k, on_points)
        return knock_total / len(points), on_total / len(points)

    def simulate_knock_points(
        self, k: Knowledge, knock_card: int, play_on: int, model: OpponentModel
    ) -> list[tuple[int, int]]:
        """Per simulated deal, the hand's points (this seat's side) of knocking with
        ``knock_card`` and of discarding ``play_on`` and playing on."""
        sharpness = self.belief_sharpness(k)
        deals = self.opponent_deals(k, model, self.rng, self.knock_samples, sharpness)
        sc = self.scoring(k)
        knock_kept = k.hand & ~(1 << knock_card)
        on_kept = k.hand & ~(1 << play_on)
        limits = self.playout_limits(k)
        return [
            (
                score_knock(knock_kept, opp, sc),
                playout((on_kept, opp), stock, play_on, 1, sc, knock_at=limits),
            )
            for opp, stock in deals
        ]

    def belief_sharpness(self, k: Knowledge) -> float:
        """How much plausible opposing hands favour low deadwood at this turn
        (:attr:`sharpness_per_turn`, at most :attr:`max_sharpness`)."""
        return min(self.max_sharpness, self.sharpness_per_turn * (k.turn // 2))

    def opponent_deals(
        self,
        k: Knowledge,
        model: OpponentModel,
        rng: random.Random,
        count: int,
        sharpness: float,
    ) -> list[tuple[int, list[int]]]:
        """Plausible deals for a search (:meth:`OpponentModel.deals`)."""
        return model.deals(rng, count, sharpness)

    def playout_limits(self, k: Knowledge) -> tuple[int, int] | None:
        """Per seat (this one first) the most deadwood each knocks with in a playout
        (None: the knock limit for both)."""
        return None

    def utility(self, k: Knowledge, points: int) -> float:
        """The value of winning ``points`` this hand (negative: the opponent scores them)."""
        return float(points)


class ExpertPlayer(HardPlayer):
    """A Bayesian model of the opponent's hand from every card it took, passed and
    discarded; avoids feeding it; decides whether to knock by simulating plausible opposing
    hands (twice as many as ``hard``, trusted more), each dealt with a stock order and played
    out."""

    level = "expert"
    knock_samples = 32
    play_on_margin = 5.0
