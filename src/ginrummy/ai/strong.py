"""The levels that look ahead: ``normal``, ``hard`` and ``expert``."""

from __future__ import annotations

from ..actions import DISCARD_TEXT
from ..melds import best_discard_mask, deadwood_after_discards_mask
from ..views import PlayerView
from .base import Player, discard_options, end_action
from .evaluate import OpponentModel, draw_weights, expected_after_draw, knock_value
from .knowledge import Knowledge, meld_partners


class NormalPlayer(Player):
    """The best meld layout; discards by the expected deadwood after the next draw; avoids
    discards that help the opponent, judged from what it took and passed; knocks when it can.
    """

    level = "normal"
    danger_weight = 4.0
    """Deadwood points a discard's danger (0..1) is worth."""
    pile_margin = 0.3
    """How much better the pile must be than the stock's expectation to take it."""

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
        if k.top < 0:
            return False
        with_top = k.hand | 1 << k.top
        after = deadwood_after_discards_mask(with_top)
        after.pop(k.top)
        pile_value = min(after.values())
        model = self.model(k)
        draws = draw_weights(k, None if model is None else model.probability)
        stock_value = expected_after_draw(k.hand, draws)
        return pile_value < stock_value - self.pile_margin

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        """The ending action to play now, or ``None`` to play on."""
        best = min(options.values())
        if best > k.knock_limit:
            return None
        card = max((c for c, dw in options.items() if dw == best), key=lambda c: c % 13)
        return end_action(card, best, knock=True, limit=k.knock_limit)

    def discard(self, k: Knowledge, view: PlayerView) -> str:
        options = discard_options(k)
        model = self.model(k)
        ending = self.knock_choice(k, options, model)
        if ending is not None:
            return ending
        draws = draw_weights(k, None if model is None else model.probability)
        best_card, best_score = -1, float("inf")
        for card in sorted(options, key=lambda c: (-(c % 13), c)):
            kept = k.hand & ~(1 << card)
            score = expected_after_draw(kept, draws) + self.danger_weight * self.danger(
                k, card, model
            )
            if score < best_score - 1e-9:
                best_card, best_score = card, score
        return DISCARD_TEXT[best_card]


class HardPlayer(NormalPlayer):
    """Estimates the opponent's likely cards, and weighs an immediate knock against playing on
    for gin using the undercut risk, which grows as the hand goes on."""

    level = "hard"
    knock_samples = 40
    danger_weight = 6.0

    def model(self, k: Knowledge) -> OpponentModel | None:
        return OpponentModel(k)

    def danger(self, k: Knowledge, card: int, model: OpponentModel | None) -> float:
        if model is None:  # pragma: no cover - hard always has a model
            return super().danger(k, card, None)
        return model.usefulness(card)

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        best = min(options.values())
        if best > k.knock_limit:
            return None
        card = max((c for c, dw in options.items() if dw == best), key=lambda c: c % 13)
        if best == 0 or model is None:
            return end_action(card, best, knock=True, limit=k.knock_limit)
        kept = k.hand & ~(1 << card)
        value, undercut = knock_value(k, kept, model, self.rng, self.knock_samples)
        if self.should_knock(k, best, value, undercut, kept):
            return end_action(card, best, knock=True, limit=k.knock_limit)
        return None

    def should_knock(
        self, k: Knowledge, deadwood: int, value: float, undercut: float, kept: int
    ) -> bool:
        """Knock unless the undercut risk is high and the hand is close to gin."""
        if value <= 0:
            return False
        if undercut <= 0.2:
            return True
        # close to gin with stock left: how likely is gin on the next draw?
        gin_outs = sum(
            1 for c in range(52) if k.unseen >> c & 1 and best_discard_mask(kept | 1 << c)[0] == 0
        )
        return not (gin_outs >= 3 and k.stock_size > 6)


class ExpertPlayer(HardPlayer):
    """A Bayesian model of the opponent's hand from every card it took, passed and
    discarded; avoids feeding it; decides whether to knock by simulating hundreds of plausible
    opposing hands, undercut risk included."""

    level = "expert"
    knock_samples = 200
    danger_weight = 7.0
