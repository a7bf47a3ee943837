"""``master``: expert plus search, valuing outcomes by the chance of winning the game."""

from __future__ import annotations

import math
import random
from functools import lru_cache

from ..cards import cards_of
from ..melds import deadwood_after_discards_mask, melded_mask
from ..views import PlayerView
from .adapt import opponent_style
from .evaluate import OpponentModel, draw_weights, expected_after_two_draws
from .knowledge import Knowledge
from .sim import Scoring, playout, score_knock
from .strong import ExpertPlayer

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
def win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance of reaching the target first when needing ``a`` more points
    against an opponent needing ``b``, if every later hand is a coin flip scoring the points
    above (a model for valuing scores, not a rule)."""
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target + 1):
        for b in range(target + 1):
            if a == 0 or b == 0:
                table[a][b] = 1.0 if a == 0 and b > 0 else 0.0
                continue
            table[a][b] = sum(
                p * 0.5 * (table[max(0, a - pts)][b] + table[a][max(0, b - pts)])
                for pts, p in _HAND_POINTS
            )
    return tuple(tuple(row) for row in table)


class MasterPlayer(ExpertPlayer):
    """Expert plus search: it deals plausible full states from its beliefs and plays them out
    (more of them, and trusting them fully when deciding to knock; and, when the expert's
    estimate finds the pile and the stock close, both draws on the same deals), and it values
    the outcomes by the chance of winning the game: near the target a safe small win can be
    worth more than a risky big one, far behind the opposite. Its ordinary discards are
    searched two draws deep (an exact expectation over its next two draws, weighted by its
    beliefs) among the expert's best few: playouts to the end of the hand choosing them made
    it weaker; the two-draw search is at least as good as the expert's ranking (docs/ai.md)."""

    level = "master"
    knock_samples = 128
    play_on_margin = 0.0
    draw_search = True
    """Whether a close choice between the pile and the stock is settled by playouts (off: the
    expert's rule, as ``master`` played before)."""
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
    adapt = False
    """Whether the knock decision uses what the game's finished hands show of the opponent
    (:mod:`.adapt`): against one that never knocks and sits low when the other ends the hand
    (an undercutter), it knocks less readily (:attr:`adapt_margin` against knocking); against
    one that never knocks and holds much deadwood then (a gin chaser), more readily. Off in
    ``master`` (docs/ai.md, "Adapting to the opponent", gives what each attempt measured);
    ``master-adapt`` plays with it."""
    adapt_evidence = 4
    """Knock chances of the opponent's to see before adapting."""
    never_knocks = 0.25
    """A knock rate (when it can) at or below which the opponent is taken never to knock."""
    adapt_defended = 2
    """Hands ended against the opponent to see before judging how low it sits."""
    undercutter_deadwood = 6.0
    """A mean deadwood when defending at or below which a player that never knocks is taken
    to sit low for the undercut (above: to chase gin)."""
    adapt_margin = 3.0
    """Points by which the knock's value is lowered against an undercutter, raised against a
    gin chaser."""

    def knock_margin(self, k: Knowledge) -> float:
        margin = self.play_on_margin
        if not self.adapt:
            return margin
        style = opponent_style(k.view)
        low = style.defending_deadwood
        if (
            style.chances < self.adapt_evidence
            or style.knock_rate > self.never_knocks
            or style.defended < self.adapt_defended
            or low is None
        ):
            return margin
        return (
            margin - self.adapt_margin
            if low <= self.undercutter_deadwood
            else margin + self.adapt_margin
        )

    def utility(self, k: Knowledge, points: int) -> float:
        target = k.rules.target
        if target > 400:
            return float(points)
        table = win_table(target)
        mine = max(0, target - k.my_points)
        theirs = max(0, target - k.opp_points)
        if points >= 0:
            mine = max(0, mine - points)
        else:
            theirs = max(0, theirs + points)
        if mine == 0:
            return 100.0
        if theirs == 0:
            return -100.0
        # scaled so that a coin flip at the start is worth about as much as its points
        return 100.0 * (2.0 * table[mine][theirs] - 1.0)

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
        sharpness = min(self.max_sharpness, self.sharpness_per_turn * (k.turn // 2))
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
        if (
            not self.draw_search
            or view.phase != "draw"
            or k.stock_size <= 4
            or abs(edge) > self.draw_margin
        ):
            return edge > 0
        return self.search_pile(k, draws, model)

    def search_pile(
        self, k: Knowledge, draws: list[tuple[int, float]], model: OpponentModel
    ) -> bool:
        """Whether taking the pile beats drawing the stock in playouts on the same deals.

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
        return edge > 0

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        """Of the expert's best few discards, the one with the least expected deadwood after
        the next two draws (:func:`expected_after_two_draws`, the knock bonus counted) plus
        the weighted danger of feeding the opponent, as the expert weighs it.

        The expert looks one draw ahead; two draws also value what one draw cannot complete.
        Playouts to the end of the hand, tried first, made the choice weaker (docs/ai.md);
        this search is exact, so it has no sampling noise."""
        if not self.discard_search or model is None:
            return super().best_discard(k, options, model)
        draws, candidates = self.discard_choices(k, options, model)
        if len(candidates) < 2:
            return candidates[0]

        def value(card: int) -> float:
            kept = k.hand & ~(1 << card)
            ahead = expected_after_two_draws(kept, draws, k.knock_limit, self.knock_bonus)
            return ahead + self.danger_weight * self.danger(k, card, model)

        return min(candidates, key=lambda c: (value(c), candidates.index(c)))

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
        sharpness = min(self.max_sharpness, self.sharpness_per_turn * (k.turn // 2))
        rng = random.Random(f"{self.seed}/knock/{k.turn}/{k.hand}/{k.top}")
        deals = self.opponent_deals(k, model, rng, self.knock_samples, sharpness)
        return [opp for opp, _ in deals]
