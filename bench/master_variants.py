"""Variants of master's draws and discards, each played paired per deal with master.

**Pile or stock two draws deep** (``two-step``, ``two-step-search``, ``two-step-close``).
Master takes the pile's top card when the expert's estimate says so (the least deadwood after
taking it against the expected least deadwood after a stock draw: one draw deep), and settles
close calls by greedy playouts (docs/ai.md). Its discards look two draws deep
(:func:`~ginrummy.ai.evaluate.expected_after_two_draws`), which values what a card may become
as well as what it is. The same for the draw: the pile's card counts as the first of two
draws (then the best of its two least-deadwood discards by the one-draw expectation of the
next draw); the stock's value is the two-draw expectation of the hand as it is. Both count a
knock and gin as the discard search does (:attr:`MasterPlayer.discard_knock_bonus`,
:meth:`MasterPlayer.search_gin_bonus`).

* ``two-step``: the two-draw edge decides every draw (no playouts);
* ``two-step-search``: the two-draw edge decides, and playouts settle it within
  :attr:`MasterPlayer.draw_margin` of zero (as the one-draw edge does in master);
* ``two-step-close``: master's one-draw edge decides outside its window, the two-draw edge
  (instead of playouts) inside it.

Master draws as ``two-step`` since 2026-12-05, evening (:attr:`MasterPlayer.pile_depth`,
:meth:`MasterPlayer.two_draw_pile_edge`), so ``two-step`` now plays exactly as master; the
figures in docs/ai.md are against master as it drew before (one draw deep).

**Deadwood kept, late in the hand** (``late-W``). The two-draw search values a discard by
the deadwood expected two draws on; late in the hand the opponent may end it before then, so
the deadwood the discard leaves now counts too: ``W`` times it times the share of the stock
drawn (0 at the deal, 1 when it is empty). A fit on expert's true-state playouts found such a
term (docs/ai.md, "An evaluation learned from playouts of real positions").

    python bench/master_variants.py master-2026-11 two-step two-step-search --deals 2000
    python bench/master_variants.py master-2026-11 late-0.5 late-1 --deals 2000
    python bench/master_variants.py master-2026-11 hazard-0.1 hazard-0.2 --deals 2000

**The hand may end in between** (``hazard-Q``). The two-draw searches (the discards' and,
since master draws two draws deep, the pile's) assume the hand lasts for both draws; the
opponent may end it after the first. ``hazard-Q`` counts that chance as ``Q`` times the share
of the stock drawn: with that chance the hand is worth the deadwood the first draw's discard
leaves (no bonus), else the next draw's expectation as before, and the reply to the first
draw is the discard that is best on that mix (:func:`hazard_two_draws`). ``replies-N``: the
same searches (no hazard) trying ``N`` discards after a draw instead of two.

**A stronger player's view of the score** (``share-P``). Master values a hand's points by the
chance of winning the game from the score after it (:func:`~ginrummy.ai.master.win_table`),
every later hand taken as a coin flip. ``share-P`` takes it to win a share ``P`` of them
instead (its knocks at every score, at 0-0 too, valued by that table; the learned knock's
features stay at the coin flip's 0-0).

    python bench/master_variants.py master-2026-11 share-0.55 share-0.6 --games 300 --seed gs-3

**Feeding the end of the hand** (``ender-W``). The danger term of the discards is the
chance that the card melds for the opponent, the same early and late. ``ender-W`` adds, over
48 plausible opposing hands, the points this seat would lose if the opponent took the card
and ended the hand at once (gin always, a knock at half of such chances; lay-offs counted),
times ``W``.

    python bench/master_variants.py master-2026-11 ender-0.5 --deals 2000 --seed en-1

**The end of the game** (``closing-S``, ``endzone-N``; 2026-12-06). Master values every hand
as at 0-0, so near the target it may play on for gin where a knock would end the game.
``closing-S`` knocks whenever the knock reaches the target in at least a share ``S`` of the
knock's simulated deals; ``endzone-N`` values hands by the chance of winning the game from
the real score (as ``master-2026-11`` does at every score) only while a side needs at most
``N`` points.

    python bench/master_variants.py master-2026-11 closing-0.85 closing-0.6 endzone-30 \
        --games 300 --seed gs-7

**Keeping deadwood low when the opponent is close** (``threat-W``). The two-draw discard
search's value mixed with the deadwood the discard keeps now, by ``W`` times the share of
plausible opposing hands already within the knock limit (a model-based form of ``late-W`` and
``hazard-Q``). Master does this at ``W`` 0.5 since 2026-12-07
(:attr:`MasterPlayer.threat_weight`), so ``threat-0.5`` now plays exactly as master, and the
other variants here carry the threat too; the figures in docs/ai.md before that date are
against master without it.

    python bench/master_variants.py master-2026-11 threat-1.0 threat-0.5 --deals 2000 \
        --seed th-1

**Past a first draw that lets it knock** (``chase-cont``, ``chase-min``; 2026-12-06). Both
two-draw searches stop at a first draw after which the hand can knock (valued as the knock,
bonused), yet master plays on at most such chances: a hand it keeps for gin is judged one
draw deep there. ``chase-cont`` plays the second draw in every such branch (gin still ends
it); ``chase-min`` takes the better of stopping and playing on (:func:`hazard_two_draws`).

    python bench/master_variants.py master-2026-11 chase-cont chase-min --deals 2000 --seed ch-1

**The lead of the game in the knock** (``lead-M``). The leader of a race to 100 gains by a
smaller spread, the trailer by a larger one: ``lead-M`` moves the knock's margin by ``M``
times the lead over 50 points (at most ``M`` either way), knocking more readily ahead and
less behind.

    python bench/master_variants.py master-2026-11 lead-3 lead-6 --games 300 --seed gs-11

Two forms of ``threat-W`` (above): ``guard-G`` is ``threat-0.5`` with the danger of feeding
the opponent weighted ``1 + G`` times the threat more; ``threatl-W`` mixes in what the hand
would lose if a plausible opposing hand within the limit knocked at once (lay-offs and
undercuts counted) instead of the deadwood it keeps.

    python bench/master_variants.py master-2026-11 threat-0.5 guard-1 threatl-0.5 --games 300 \
        --seed gs-13

**Three draws deep** (``deep-N``, ``deeppile-N``; 2026-12-06). The discard search looks ``N``
of this seat's draws deep instead of two (:func:`expected_after_draws`: after each draw a
hand that can knock stops there, bonused, any other plays the better of its two
least-deadwood discards by the expectation of the draws left); ``deeppile-N`` searches the
pile-or-stock choice as deep. A variant of this module takes other attributes of master
after a colon: ``deep-3:gin_bonus=20``.

    python bench/master_variants.py master-2026-11 deep-3 --deals 2000 --seed dp-1

**The last chance to knock** (``last-sim``, ``last-never``, ``lastsims-S``; 2026-12-06). With
two cards left in the stock a discard that does not end the hand makes it void, and every
level from ``hard`` up knocked there whenever it could. ``last-sim`` knocks there only if
the knock's simulated deals value it at least as a void hand (master since 2026-12-06,
:attr:`MasterPlayer.last_chance_search`), ``last-never`` never knocks there;
``lastsims-S`` also weighs the knock by its simulations alone (no learned correction) with
at most ``S`` cards in the stock.

    python bench/master_variants.py master-2026-11 last-sim last-never --deals 2000 --seed lc-1

**Knocking early, and what taking the opponent's style costs** (2026-12-06, evening).
``early-D`` knocks at every chance while the hand has had at most ``D`` draws (both seats'),
as ``master-2026-11`` does more often. The rest change only how master reads the game's
finished hands (:meth:`MasterPlayer.opponent_kind`), so they play single deals as master:
``kind-player`` is told from the first hand that the opponent plays on (a measurement, not a
player: what the adaptation would be worth if it knew), ``kind-noknocker`` never takes it for
a knocker. ``lrp-T`` takes it for a knocker by the odds of ``bench/knocker_trigger.py``'s
``lr-T`` (a knocker against a player knocking at ``master-2026-11``'s rates by turn), for a
player as master does (once it has played on at a chance); ``lrp1-T`` takes it for a player
from the game's second hand on unless the odds show a knocker; ``lrpm-T`` keeps it unknown
there but weighs the knock by master's own learned knock alone, without the hedge
(:attr:`MasterPlayer.knocker_prior`), and ``lrpm-0`` does so with master's own trigger.

    python bench/master_variants.py master-2026-11 kind-player kind-noknocker --games 300 \
        --seed gs-15
    python bench/master_variants.py baseline lrp1-8 lrp1-4 --games 300 --seed gs-3

**A soft reading** (2026-12-06, a seventh session). ``soft-P`` mixes the two learned knocks
(against knockers, and its own, the self-play one once the opponent has played on at a
chance) by the chance of a knocker, the prior ``P`` updated by the finished hands' odds of
``lr-T`` (:func:`knocker_trigger.knocker_odds`), never taking it for one outright (its
discards value gin as against a knocker from a chance of 0.75). ``sdetect`` starts each hand
from the chance the opponent's public play in the hand gives instead of a fixed prior
(``bench/knocker_signals.py``'s fit, ``--weights``; ``detect`` is that chance alone, until
the finished hands show a style as master reads them).

    python bench/knocker_signals.py collect --hands 600 --workers 2 signals600.json.gz
    python bench/knocker_signals.py score signals600.json.gz --weights signals600-fit.json
    python bench/master_variants.py master-2026-11 soft-0.4 sdetect detect \
        --weights signals600-fit.json --games 300 --seed gs-15 --alone

**Feeding gin, and a margin for the pile** (2026-12-06, an eighth session). ``ginfeed-W`` is
``ender-W`` for gin alone: the points lost when an opposing hand (64 plausible ones) takes the
card and goes gin at once, times ``W`` (``bench/gin_feeds.py`` counts how often it happens).
``pilem-M`` takes the pile's card only when its two-draw edge is above ``M`` points (master:
above 0). Two variants of this module make one with ``+``: ``kind-player+ginfeed-0.5``.

    python bench/master_variants.py master-2026-11 ginfeed-0.5 ginfeed-1.0 --deals 2000 \
        --seed gf-1
    python bench/master_variants.py master-2026-11 ginfeed-0.5 --games 300 --seed gs-15 --alone

**The opponent's next discard as a draw** (``pileouts-W``; 2026-12-06, a ninth session). The
discards' two-draw search draws from the stock twice, but before this seat draws again the
opponent discards, and master takes that card when its two-draw edge says so. ``pileouts-W``
values a kept hand, for each of 32 plausible opposing hands (a stock draw, then the card
leaving the opponent least deadwood), by the better of taking that card and the stock,
mixed by ``W`` with the stock alone.

    python bench/master_variants.py master-2026-11 pileouts-1.0 --deals 1000 --seed po-1

**The threat in the draw, and the stock's last draws** (``pthreat-W``, ``endstock``;
2026-12-07, a twelfth session). ``pthreat-W`` weighs the opponent's threat in the choice
between the pile and the stock as master does in its discards: each side's two-draw value
moves towards the deadwood it leaves after this turn by ``W`` times the threat's share.
``endstock`` values a discard by as many of this seat's draws as the stock has left (two,
one, or none: then the deadwood it keeps).

    python bench/master_variants.py master-2026-11 pthreat-0.5 --games 300 --seed gs-17 --alone
    python bench/master_variants.py master-2026-11 endstock --deals 2000 --seed es-1

**Where the first hand's hedge acts** (``hedgeto-T``, ``hedgefrom-T``; 2026-12-07, a
thirteenth session). Master hedges (:attr:`MasterPlayer.knocker_prior`) only at chances whose
hand has had at most ``T`` draws (both seats'), or at least ``T``; elsewhere, before the game
shows a style, its own learned knock alone.

    python bench/master_variants.py baseline knocker_prior=0 hedgeto-8 hedgefrom-9 --deals 1000

Those figures are of master with the fixed hedge (``master-2026-12``). Since 2026-12-07
master's hedge reads the hand (:attr:`MasterPlayer.hedge_params`): the windows now confine
that chance, and ``knocker_prior=0`` alone no longer turns it off (``hedge_params=none,
knocker_prior=0`` does; ``hedge_params=none`` plays as ``master-2026-12``).

**The threat by the opponent's knocking** (``athreat-S``, ``kthreat-C``; 2026-12-07, a
sixteenth session). ``athreat-S`` scales master's threat weight by the opponent's knock rate,
in the game's finished hands, at the stage of the hand its next discard falls in (its first
``S`` discards, or later ones), over 0.25 (a Beta prior of that mean and weight 4: with
nothing seen, master's weight). ``kthreat-C`` multiplies the threat by ``1 + C * p``, ``p``
the chance that the opponent knocks at once (1 for a knocker the game has shown, 0 for a
player, else the hedge's chance from the hand's public play).

    python bench/master_variants.py master-2026-11 athreat-4 --games 300 --seed as-1
    python bench/master_variants.py baseline kthreat-1.0 kthreat-2.0 --deals 1000

Any variant of ``bench/knocker_signals.py play`` works too. The figures are in docs/ai.md
("Pile or stock two draws deep, deadwood kept late, a larger gin bonus"; "The end of the game,
and the opponent's threat in the discards"; "Feeding gin, and a margin for the pile"; "The
opponent's next discard as a draw"; "The threat in the draw, a stronger threat, the stock's
last draws and a smaller gin bonus in games"; "Where the first hand's hedge acts"; "The
threat by how the opponent knocks").
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

import knocker_signals  # sibling scripts: bench/ is on the path when this one runs
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.adapt import chances_in
from ginrummy.ai.base import end_action, least_deadwood_discard
from ginrummy.ai.evaluate import (
    OpponentModel,
    bonused,
    expected_after_draw,
    least_deadwood_discards,
)
from ginrummy.ai.knowledge import Knowledge, meld_outs
from ginrummy.ai.master import (
    MasterPlayer,
    feature_count,
    game_utility,
    predicted_edge,
    table_utility,
    win_table,
)
from ginrummy.ai.sim import greedy_discard, score_knock
from ginrummy.ai.strong import KnockEstimate, NormalPlayer
from ginrummy.cards import POINTS
from ginrummy.melds import deadwood_after_discards_mask, deadwood_mask
from ginrummy.views import PlayerView
from knock_playouts import attributes_variant
from knocker_trigger import chances_of, knocker_odds


class TwoStep(MasterPlayer):
    """Master whose pile-or-stock choice is :meth:`MasterPlayer.two_draw_pile_edge`, alone or
    with playouts or the one-draw edge (``mode``, see the module)."""

    level = "v-two-step"
    mode = "two-step"
    pile_depth = 1  # its own wants_pile decides; 1 keeps master's draw playouts for its modes

    def wants_pile(self, k: Knowledge, view: PlayerView) -> bool:
        if k.top < 0 or any(d == k.top for _, d in k.my_pairs):
            return super().wants_pile(k, view)
        edge, draws, model = self.pile_edge(k)
        assert model is not None
        close = self.searches_draw(k, view, edge)
        if self.mode == "two-step-close" and not close:
            return edge > 0
        edge2 = self.two_draw_pile_edge(k, draws)
        if self.mode == "two-step-search" and self.searches_draw(k, view, edge2):
            return self.search_pile(k, draws, model)
        return edge2 > 0


FULL_STOCK = 31
"""The stock after the deal (52 cards less two hands of ten and the upcard)."""


def hazard_two_draws(
    kept: int,
    draws: Sequence[tuple[int, float]],
    limit: int,
    knock_bonus: float,
    gin_bonus: float,
    ends: float,
    replies: int = 2,
    past_knock: str = "stop",
) -> float:
    """:func:`expected_after_two_draws`, where after the first draw's discard the hand ends
    with chance ``ends`` (worth the deadwood that discard leaves); ``past_knock`` says what a
    first draw that lets the hand knock (not gin) is worth: ``stop``, that knock (bonused, as
    in master's search); ``cont``, the second draw played as after any other first draw
    (bonuses counted there); ``min``, the better of the two."""
    total = 0.0
    for first, weight in draws:
        if weight <= 0.0:
            continue
        hand = kept | 1 << first
        after = deadwood_after_discards_mask(hand)
        best = least_deadwood_discards(after, replies)
        total += weight * after_first_draw(
            hand, after, best, draws, first, limit, knock_bonus, gin_bonus, ends, past_knock
        )
    return total


def after_first_draw(
    hand: int,
    after: dict[int, int],
    best: Sequence[int],
    draws: Sequence[tuple[int, float]],
    drawn: int,
    limit: int,
    knock_bonus: float,
    gin_bonus: float,
    ends: float,
    past_knock: str,
) -> float:
    """What ``hand`` is worth after its first draw (``drawn``, -1 for the pile's card): a
    hand that can knock stops there as ``past_knock`` says (gin always), any other plays its
    best reply (:func:`after_reply`)."""
    least = after[best[0]]
    stop = bonused(least, limit, knock_bonus, gin_bonus)
    if least <= limit and (least == 0 or past_knock == "stop"):
        return stop
    on = after_reply(hand, after, best, draws, drawn, limit, knock_bonus, gin_bonus, ends)
    return min(on, stop) if least <= limit and past_knock == "min" else on


def after_reply(
    hand: int,
    after: dict[int, int],
    best: Sequence[int],
    draws: Sequence[tuple[int, float]],
    drawn: int,
    limit: int,
    knock_bonus: float,
    gin_bonus: float,
    ends: float,
) -> float:
    """The best of ``best`` discards from ``hand`` (after drawing ``drawn``, -1 for none):
    with chance ``ends`` the deadwood it leaves, else the next draw's expectation."""
    second = [(c, w) for c, w in draws if c != drawn and w > 0.0]
    if not second:
        return after[best[0]]
    scale = 1.0 / sum(w for _, w in second)
    second = [(c, w * scale) for c, w in second]
    return min(
        ends * after[card]
        + (1.0 - ends)
        * expected_after_draw(hand & ~(1 << card), second, limit, knock_bonus, gin_bonus)
        for card in best
    )


class Hazard(MasterPlayer):
    """Master whose two-draw searches count the chance the hand ends after the first draw
    (see the module)."""

    level = "v-hazard"
    hazard = 0.0
    replies = 2
    """How many of the least-deadwood discards the searches try after a draw (``replies-N``)."""
    past_knock = "stop"
    """A first draw that lets the hand knock: ``stop`` there (master), or go on (``cont``,
    ``min``: ``chase-cont``, ``chase-min``; see :func:`hazard_two_draws`)."""

    def ends(self, k: Knowledge) -> float:
        return self.hazard * max(0.0, 1.0 - k.stock_size / FULL_STOCK)

    def two_draws_ahead(
        self, k: Knowledge, kept: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        limit, knock = k.knock_limit, self.discard_knock_bonus
        ends = self.ends(k)
        return hazard_two_draws(kept, draws, limit, knock, gin, ends, self.replies, self.past_knock)

    def pile_two_draws_ahead(
        self, k: Knowledge, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        limit, knock = k.knock_limit, self.discard_knock_bonus
        with_top = k.hand | 1 << k.top
        after = deadwood_after_discards_mask(with_top)
        after.pop(k.top)
        best = least_deadwood_discards(after, self.replies)
        return after_first_draw(
            with_top, after, best, draws, -1, limit, knock, gin, self.ends(k), self.past_knock
        )


class LateDeadwood(MasterPlayer):
    """Master whose two-draw discard search also counts the deadwood a discard leaves now,
    :attr:`weight` times it times the share of the stock drawn (see the module)."""

    level = "v-late"
    weight = 0.0

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        late = max(0.0, 1.0 - k.stock_size / FULL_STOCK)
        kept = deadwood_mask(k.hand & ~(1 << card))
        return super().discard_value(k, card, draws, model, gin) + self.weight * late * kept


class ScoreShare(MasterPlayer):
    """Master valuing the score as a player winning :attr:`share` of the later hands."""

    level = "v-share"
    share = 0.5

    def utility(self, k: Knowledge, points: int) -> float:
        target = k.rules.target
        if target > 400:
            return float(points)
        table = win_table(target, self.share)
        return table_utility(table, target, k.my_points, k.opp_points, points)


class EnderDanger(MasterPlayer):
    """Master whose discards also weigh what the card costs when it lets the opponent end the
    hand at once (``ender-W``): over plausible opposing hands, the points this seat loses when
    the opponent takes the card and goes gin (always) or knocks (taken to knock at half of
    such chances), times ``W``, added to the two-draw value."""

    level = "v-ender"
    weight = 0.5
    knock_share = 0.5
    ender_samples = 48

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        kept = k.hand & ~(1 << card)
        sc = self.scoring(k)
        loss = 0.0
        hands = self.ender_hands(k, model)
        for opp in hands:
            dw, thrown = greedy_discard(opp | 1 << card, card)
            if dw == 0 or (dw <= k.knock_limit and self.knock_share):
                points = score_knock((opp | 1 << card) & ~(1 << thrown), kept, sc)
                share = 1.0 if dw == 0 else self.knock_share
                loss += share * max(0, points)
        base = super().discard_value(k, card, draws, model, gin)
        return base + self.weight * loss / len(hands)

    def ender_hands(self, k: Knowledge, model: OpponentModel) -> list[int]:
        return self.position_hands(k, model, "ender", self.ender_samples)


class GinFeed(EnderDanger):
    """``ender-W`` for gin alone (``ginfeed-W``): over 64 plausible opposing hands, the points
    this seat loses when the opponent takes the card and goes gin at once, times ``W``, added
    to the two-draw value. A knock on the card is left out: the opponent knocks soon in any
    case, while a gin card kept is one of its few outs gone for as long as it is held."""

    level = "v-ginfeed"
    knock_share = 0.0
    ender_samples = 64


class PileOuts(MasterPlayer):
    """Master whose discard search counts the opponent's next discard as a first draw it may
    take (``pileouts-W``). The two-draw search draws from the stock twice; yet before this
    seat's next draw the opponent discards, and master takes that card when its two-draw
    edge says so (:meth:`MasterPlayer.two_draw_pile_edge`). Over :attr:`samples` plausible
    opposing hands, each with a stock card drawn by the draw weights, the opponent throws
    the card leaving it least deadwood (the playouts' policy); a hand kept is worth, for
    each such throw, the better of taking it (then one stock draw, as the pile's two-draw
    value) and the stock's two draws. ``W`` mixes that with the stock's value alone. Two
    equal discards by the stock can differ in what the opponent is likely to hand over."""

    level = "v-pileouts"
    weight = 1.0
    samples = 32

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        kept = k.hand & ~(1 << card)
        stock = self.two_draws_ahead(k, kept, draws, gin)
        throws = self.opponent_throws(k, model, draws)
        values: dict[int, float] = {}
        total = 0.0
        for thrown in throws:
            if thrown not in values:
                values[thrown] = min(stock, self.pile_value(k, kept, thrown, draws, gin))
            total += values[thrown]
        ahead = (1.0 - self.weight) * stock + self.weight * total / len(throws)
        return ahead + self.danger_weight * self.danger(k, card, model)

    def opponent_throws(
        self, k: Knowledge, model: OpponentModel, draws: Sequence[tuple[int, float]]
    ) -> list[int]:
        """The opponent's next discard on each plausible opposing hand (a stock draw, then
        the card leaving least deadwood); dealt once per position."""
        key = (k.turn, k.hand)
        if self._throws is None or self._throws[0] != key:
            rng = random.Random(f"{self.seed}/throws/{k.turn}/{k.hand}")
            throws = []
            for opp in self.position_hands(k, model, "throws", self.samples):
                pool = [(c, w) for c, w in draws if not opp >> c & 1 and w > 0.0]
                if pool:
                    drawn = rng.choices([c for c, _ in pool], [w for _, w in pool])[0]
                    _, thrown = greedy_discard(opp | 1 << drawn, -1)
                else:
                    _, thrown = greedy_discard(opp, -1)
                throws.append(thrown)
            self._throws = (key, throws)
        return self._throws[1]

    _throws: tuple[tuple[int, int], list[int]] | None = None

    def pile_value(
        self, k: Knowledge, kept: int, top: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        """The two-draw value of taking ``top`` from the pile onto ``kept``
        (:meth:`MasterPlayer.taken_two_draws_ahead`, ``top`` no longer among the stock's
        cards)."""
        second = [(c, w) for c, w in draws if c != top and w > 0.0]
        scale = 1.0 / (sum(w for _, w in second) or 1.0)
        second = [(c, w * scale) for c, w in second]
        return self.taken_two_draws_ahead(k, kept, top, second, gin)


class Closing(MasterPlayer):
    """Master that knocks whenever the knock reaches the game's target in at least
    :attr:`share` of the knock's simulated deals (``closing-S``), whatever its learned edge."""

    level = "v-closing"
    share = 0.85

    def knocks(self, k: Knowledge, estimate: KnockEstimate) -> bool:
        if estimate.points and self.learned_knock:
            need = k.rules.target - k.my_points
            reached = sum(points >= need for points, _ in estimate.points)
            if reached >= self.share * len(estimate.points):
                return True
        return super().knocks(k, estimate)


class EndZone(MasterPlayer):
    """Master valuing hands by the chance of winning the game from the real score (as
    ``master-2026-11``) only while a side needs at most :attr:`need` points, as at 0-0
    otherwise (``endzone-N``)."""

    level = "v-endzone"
    need = 30
    score_weight = 1.0

    def utility(self, k: Knowledge, points: int) -> float:
        target = k.rules.target
        if min(target - k.my_points, target - k.opp_points) > self.need:
            return game_utility(target, 0, 0, points)
        return super().utility(k, points)


class Threat(MasterPlayer):
    """Master whose two-draw discard search mixes a discard's two-draw value with the deadwood
    it keeps now, by :attr:`~MasterPlayer.threat_weight` times the share of
    :data:`OPPOSING_HANDS` plausible opposing hands already within the knock limit, at most 1
    (``threat-W``; master's :meth:`~MasterPlayer.knock_threat`, at 0.5 in master)."""

    level = "v-threat"
    threat_weight = 1.0


class StagedThreat(MasterPlayer):
    """Master whose threat weight follows how readily this opponent has ended hands when it
    could, at the stage of the hand its next discard falls in (``athreat-S``; 2026-12-07, a
    sixteenth session): :attr:`~MasterPlayer.threat_weight` times the opponent's knock rate
    over its chances at its first ``split`` discards (or at later ones) in the game's
    finished hands, over :attr:`ref_rate` (a Beta prior of mean :attr:`ref_rate` and weight
    :attr:`strength`: with nothing seen, master's weight). ``master-2026-11`` ends the hand at
    82 % of its chances at its third discard and 9 to 18 % late (docs/ai.md, "The trigger
    against masters"); master's fixed weight takes every chance alike."""

    level = "v-athreat"
    split = 4
    ref_rate = 0.25
    strength = 4.0
    _staged: tuple[object, tuple[int, int, int, int]] | None = None

    def staged_counts(self, k: Knowledge) -> tuple[int, int, int, int]:
        """The opponent's (chances, ended) at its first :attr:`split` discards of a hand,
        then at later ones, over the game's finished hands (cached per game state)."""
        past = k.view.past_hands
        if self._staged is not None and self._staged[0] is past:
            return self._staged[1]
        seat = 1 - k.view.seat
        counts = [0, 0, 0, 0]
        for hand in past:
            for chance in chances_in(hand, seat, k.rules):
                late = 2 * (chance.turn > self.split)
                counts[late] += 1
                counts[late + 1] += chance.ended
        result = (counts[0], counts[1], counts[2], counts[3])
        self._staged = (past, result)
        return result

    def knock_threat(self, k: Knowledge, model: OpponentModel) -> float:
        if not self.threat_weight:
            return 0.0
        share = self.threat_share(k, model)
        if not share:
            return 0.0
        seat = 1 - k.view.seat
        discards = sum(
            1
            for e in k.view.history
            if e.seat == seat and e.action.partition(" ")[0] in ("discard", "knock", "gin")
        )
        chances, ended, late_chances, late_ended = self.staged_counts(k)
        if discards + 1 > self.split:
            chances, ended = late_chances, late_ended
        prior = self.strength
        rate = (ended + self.ref_rate * prior) / (chances + prior)
        return min(1.0, self.threat_weight * share * rate / self.ref_rate)


class KnockerThreat(MasterPlayer):
    """Master whose threat weight grows with the chance that the opponent knocks at once
    (``kthreat-C``; 2026-12-07, a sixteenth session): :attr:`~MasterPlayer.threat_weight`
    times ``1 + C * p``, ``p`` 1 once the game shows a knocker, 0 once it shows a player, and
    before either the hedge's chance from the hand's public play
    (:meth:`~MasterPlayer.hedge_chance`). A knocker ends the hand at its first chance, so
    against one the deadwood kept now counts for more."""

    level = "v-kthreat"
    boost = 1.0

    def knock_threat(self, k: Knowledge, model: OpponentModel) -> float:
        threat = super().knock_threat(k, model)
        if not threat:
            return 0.0
        kind = self.opponent_kind(k)
        chance = {"knocker": 1.0, "player": 0.0}.get(kind or "")
        if chance is None:
            chance = self.hedge_chance(k)
        return min(1.0, threat * (1.0 + self.boost * chance))


class ThreatGuard(Threat):
    """``threat-0.5`` whose danger of feeding the opponent also grows with the threat: the
    danger weight times ``1 + guard * threat`` (``guard-G``)."""

    level = "v-guard"
    threat_weight = 0.5
    guard = 1.0

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        threat = self.knock_threat(k, model)
        value = super().discard_value(k, card, draws, model, gin)
        return value + self.guard * threat * self.danger_weight * self.danger(k, card, model)


class ThreatLayoffs(Threat):
    """``threat-W`` whose "now" is what the hand loses if an opposing hand within the knock
    limit knocked at once (lay-offs and undercuts counted, over the plausible hands that can),
    instead of the deadwood it keeps (``threatl-W``)."""

    level = "v-threatl"

    def kept_now(self, k: Knowledge, kept: int, model: OpponentModel) -> float:
        hands = self.threat_hands(k, model)
        sc = self.scoring(k)
        losses = [score_knock(o, kept, sc) for o in hands if deadwood_mask(o) <= k.knock_limit]
        return sum(losses) / len(losses)


class PileThreat(MasterPlayer):
    """Master whose choice between the pile and the stock weighs the opponent's threat as its
    discards do (``pthreat-W``): each side's two-draw value moves towards the deadwood it
    leaves after this turn (the pile's card taken and the best card thrown; a stock draw's
    expectation, one draw), by ``W`` times :meth:`~MasterPlayer.threat_share`, whatever
    master's own weight."""

    level = "v-pthreat"
    pile_threat = 0.5

    def two_draw_pile_edge(self, k: Knowledge, draws: Sequence[tuple[int, float]]) -> float:
        edge = super().two_draw_pile_edge(k, draws)
        model = self.model(k)
        assert model is not None
        threat = min(1.0, self.pile_threat * self.threat_share(k, model))
        if not threat:
            return edge
        after = deadwood_after_discards_mask(k.hand | 1 << k.top)
        after.pop(k.top)
        now = expected_after_draw(k.hand, draws) - min(after.values())
        return (1.0 - threat) * edge + threat * now


class EndStock(MasterPlayer):
    """Master whose discard search counts the draws the stock has left (``endstock``). With
    ``S`` cards in the stock at a discard, this seat draws again twice only if ``S >= 6``,
    once if ``S`` is 4 or 5 (the opponent draws first; at 4 this seat's next draw is its own
    last chance, at 5 the opponent's draw after it is the opponent's), and never at
    ``S <= 3`` (the opponent's next draw leaves two: its last chance, then the hand is
    void). Master's search looks two draws
    deep whatever is left: here a candidate is valued by one draw (:func:`expected_after_draw`,
    the same bonuses) when one is left, and by the deadwood it keeps when none is (what counts
    then is the opponent's last chance: ``hard``, ``expert`` and ``master-2026-11`` knock at
    it whenever they can, and the less deadwood kept, the likelier the undercut); the hand's
    least-deadwood discard is then always among the candidates. The threat's mix and the
    danger of feeding the opponent as in master."""

    level = "v-endstock"

    def discard_choices(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> tuple[list[tuple[int, float]], list[int]]:
        draws, candidates = super().discard_choices(k, options, model)
        least = least_deadwood_discard(options)[0]
        if k.stock_size <= 3 and least not in candidates:
            candidates = [*candidates, least]
        return draws, candidates

    def two_draws_ahead(
        self, k: Knowledge, kept: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        if k.view.phase != "discard" or k.stock_size >= 6:
            return super().two_draws_ahead(k, kept, draws, gin)
        if k.stock_size <= 3:
            return float(deadwood_mask(kept))
        return expected_after_draw(kept, draws, k.knock_limit, self.discard_knock_bonus, gin)


class Lead(MasterPlayer):
    """Master that knocks more readily the more it leads the game and less readily the more
    it trails (``lead-M``): its knock margin moves by ``M`` times the lead over 50 points,
    at most ``M`` either way (the leader of a race lowers the spread, the trailer raises it)."""

    level = "v-lead"
    swing = 2.0

    def knock_margin(self, k: Knowledge) -> float:
        lead = max(-1.0, min(1.0, (k.my_points - k.opp_points) / 50))
        return super().knock_margin(k) + self.swing * lead


def expected_after_draws(
    kept: int,
    draws: Sequence[tuple[int, float]],
    depth: int,
    limit: int,
    knock_bonus: float,
    gin_bonus: float,
    memo: dict[tuple[int, int], float],
    replies: int = 2,
) -> float:
    """:func:`expected_after_two_draws` ``depth`` draws deep: after each draw a hand that can
    knock stops there (bonused), any other discards the best, by the expectation ``depth - 1``
    draws on, of its ``replies`` cards leaving least deadwood. A draw's weights are ``draws``
    without the cards in the hand, scaled to add up to one (a card drawn and thrown may be
    drawn again: a small error that lets hands reached by different paths share ``memo``,
    keyed by the hand and the draws to go)."""
    key = (kept, depth)
    if key in memo:
        return memo[key]
    left = [(c, w) for c, w in draws if w > 0.0 and not kept >> c & 1]
    total = sum(w for _, w in left)
    if total <= 0.0:
        value = float(deadwood_mask(kept))
    elif depth == 1:
        value = expected_after_draw(
            kept, [(c, w / total) for c, w in left], limit, knock_bonus, gin_bonus
        )
    else:
        value = 0.0
        # a drawn card that joins no meld with ``kept`` (most of them) leaves the melds as
        # they are: thrown, ``kept``'s deadwood; kept, its points on top of each other discard
        outs = meld_outs(kept)
        plain = deadwood_mask(kept)
        without = deadwood_after_discards_mask(kept)
        for card, weight in left:
            hand = kept | 1 << card
            if outs >> card & 1:
                after = deadwood_after_discards_mask(hand)
            else:
                points = POINTS[card % 13]
                after = {c: v + points for c, v in without.items()}
                after[card] = plain
            best = least_deadwood_discards(after, replies)
            least = after[best[0]]
            if least <= limit:
                value += weight * bonused(least, limit, knock_bonus, gin_bonus)
                continue
            value += weight * min(
                expected_after_draws(
                    hand & ~(1 << r), draws, depth - 1, limit, knock_bonus, gin_bonus, memo, replies
                )
                for r in best
            )
        value /= total
    memo[key] = value
    return value


class Deep(MasterPlayer):
    """Master whose discard search looks :attr:`depth` of its own draws deep
    (:func:`expected_after_draws`; ``deep-3``), its draws as master's (two deep), or as deep
    as its discards with :attr:`deep_pile` (``deeppile-3``)."""

    level = "v-deep"
    depth = 3
    deep_pile = False
    _memo: tuple[tuple[int, int], dict[tuple[int, int], float]] | None = None

    def ahead(
        self, k: Knowledge, kept: int, draws: Sequence[tuple[int, float]], gin: float, depth: int
    ) -> float:
        """:func:`expected_after_draws` ``depth`` deep, memoised over one position."""
        key = (k.turn, k.hand)
        if self._memo is None or self._memo[0] != key:
            self._memo = (key, {})
        limit, knock = k.knock_limit, self.discard_knock_bonus
        return expected_after_draws(kept, draws, depth, limit, knock, gin, self._memo[1])

    def discard_value(
        self,
        k: Knowledge,
        card: int,
        draws: Sequence[tuple[int, float]],
        model: OpponentModel,
        gin: float,
    ) -> float:
        ahead = self.ahead(k, k.hand & ~(1 << card), draws, gin, self.depth)
        return ahead + self.danger_weight * self.danger(k, card, model)

    def two_draws_ahead(
        self, k: Knowledge, kept: int, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        if not self.deep_pile:
            return super().two_draws_ahead(k, kept, draws, gin)
        return self.ahead(k, kept, draws, gin, self.depth)

    def pile_two_draws_ahead(
        self, k: Knowledge, draws: Sequence[tuple[int, float]], gin: float
    ) -> float:
        if not self.deep_pile:
            return super().pile_two_draws_ahead(k, draws, gin)
        limit, knock = k.knock_limit, self.discard_knock_bonus
        with_top = k.hand | 1 << k.top
        after = deadwood_after_discards_mask(with_top)
        after.pop(k.top)
        best = least_deadwood_discards(after, 2)
        least = after[best[0]]
        if least <= limit:
            return bonused(least, limit, knock, gin)
        return min(self.ahead(k, with_top & ~(1 << c), draws, gin, self.depth - 1) for c in best)


class DeepPile(Deep):
    """:class:`Deep` whose draws look as deep as its discards."""

    deep_pile = True


class PileMargin(MasterPlayer):
    """Master that takes the pile's card only when its two-draw edge over a stock draw is
    above :attr:`margin` points (``pilem-M``; master: above 0). Taking the pile shows the
    opponent a card of the hand and leaves the stock's chances unused."""

    level = "v-pilem"
    margin = 0.5

    def two_draw_pile_edge(self, k: Knowledge, draws: Sequence[tuple[int, float]]) -> float:
        return super().two_draw_pile_edge(k, draws) - self.margin


class KnockWeighed(MasterPlayer):
    """Master with its own way to weigh a knock (:meth:`weigh_knock`): nothing to decide
    without a knock, and gin always goes gin."""

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        ending = NormalPlayer.knock_choice(self, k, options, model)
        if ending is None or ending.startswith("gin") or model is None:
            return ending
        return self.weigh_knock(k, options, model)

    def weigh_knock(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> str | None:
        return super().knock_choice(k, options, model)


class LastChance(KnockWeighed):
    """Master at its last chance to knock (the stock down to two cards: a discard that does
    not end the hand makes it void). Before 2026-12-06 master knocked there whenever it
    could (as ``hard`` and ``expert`` still do); ``last-sim`` knocks only if the knock's
    simulated deals value it at least as a void hand (master's rule since,
    :attr:`MasterPlayer.last_chance_search`), ``last-never`` never knocks there (gin still
    ends the hand)."""

    level = "v-last"
    mode = "sim"
    late_stock = 2
    """Up to this many cards in the stock (more than two), the knock is weighed by its
    simulations alone, the learned correction left out (``lastsims-S``): so near the end
    the playouts that value playing on are short, nearly exact."""

    def weigh_knock(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> str | None:
        if 2 < k.stock_size <= self.late_stock:
            estimate = self.knock_estimate(k, options, model)
            return estimate.ending if estimate.knock_value >= estimate.on_value else None
        if k.stock_size <= 2 and self.mode == "never":
            return None
        return super().weigh_knock(k, options, model)  # ``last-sim``: master's own rule


class EarlyKnock(KnockWeighed):
    """Master knocking at every chance while the hand has had at most :attr:`draws` draws
    (``early-D``); gin still goes gin, and later chances are master's own."""

    level = "v-early"
    draws = 4

    def weigh_knock(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel
    ) -> str | None:
        if k.turn <= self.draws:
            card = self.knock_discard(k, options, model)
            return end_action(card, options[card], knock=True, limit=k.knock_limit)
        return super().weigh_knock(k, options, model)


class KindFixed(MasterPlayer):
    """Master told the opponent's style (``kind-player``: a ``player`` from the first hand),
    or never taking it for a knocker (``kind-noknocker``): what reading the style costs."""

    level = "v-kind"
    kind = "player"

    def opponent_kind(self, k: Knowledge) -> str | None:
        if self.kind == "noknocker":
            found = super().opponent_kind(k)
            return None if found == "knocker" else found
        return self.kind


class HedgeWindow(MasterPlayer):
    """Master hedging (:meth:`MasterPlayer.hedge_chance`) only at chances whose hand has had
    from :attr:`first` to :attr:`last` draws (both seats'; ``hedgeto-T``: up to ``T``,
    ``hedgefrom-T``: from ``T``); elsewhere, with the style not yet shown, its own learned
    knock alone."""

    level = "v-hedge"
    first = 0
    last = 99

    def hedge_chance(self, k: Knowledge) -> float:
        return super().hedge_chance(k) if self.first <= k.turn <= self.last else 0.0


class KnockerOdds(MasterPlayer):
    """Master taking the opponent for a knocker once the odds of one (knocking at 98 % of
    its chances) against a player knocking at ``master-2026-11``'s rates by turn reach
    :attr:`odds` (gins left out; ``bench/knocker_trigger.py``'s ``lr-T``), else for a player
    as master does (``lrp-T``), or from the second hand on (``lrp1-T``); ``lrpm-T`` leaves it
    unknown there but without the hedge (0 for :attr:`odds`: master's own trigger)."""

    level = "v-odds"
    odds = 8.0
    after_first = False
    unhedged = False

    def opponent_kind(self, k: Knowledge) -> str | None:
        past = k.view.past_hands
        if not past:
            return None
        if not self.odds:
            return super().opponent_kind(k)
        rows = chances_of(past, 1 - k.view.seat, k.view.rules)
        if knocker_odds(rows) >= self.odds:
            return "knocker"
        if self.after_first or sum(not c.ended for c in rows) >= self.player_passes:
            return "player"
        return None

    def hedge_chance(self, k: Knowledge) -> float:
        return 0.0 if self.unhedged and k.view.past_hands else super().hedge_chance(k)


class SoftReading(MasterPlayer):
    """Master mixing the knock learned against knockers into its own by the chance that the
    opponent is one, the prior :attr:`prior` updated over the game's finished hands by the
    odds of ``bench/knocker_trigger.py`` (a knocker ending 98 % of its chances against a
    player ending them at ``master-2026-11``'s rates by turn; gins left out), instead of the
    hedge until two knocks of two, then a knocker outright (``soft-P``). Its own knock is the
    one learned on self-play once the opponent has played on at a chance (as master's
    ``player``); discards value gin as against a knocker once the chance reaches
    :attr:`knocker_at`."""

    level = "v-soft"
    prior = 0.4
    knocker_at = 0.75

    def game_odds(self, k: Knowledge) -> tuple[float, bool]:
        """The finished hands' odds of a knocker, and whether it has played on at a chance."""
        past = k.view.past_hands
        if not past:
            return 1.0, False
        rows = chances_of(past, 1 - k.view.seat, k.view.rules)
        return knocker_odds(rows), any(not c.ended for c in rows)

    def hand_odds(self, k: Knowledge) -> float:
        """The odds of a knocker each hand starts from (:attr:`prior`'s)."""
        return self.prior / (1.0 - self.prior)

    def game_chance(self, k: Knowledge) -> tuple[float, bool]:
        """The chance the opponent is a knocker from :attr:`prior` and the finished hands,
        and whether it has played on at a chance."""
        return self.chance_from(k, SoftReading.hand_odds(self, k))

    def knocker_chance(self, k: Knowledge) -> tuple[float, bool]:
        """The chance the knock is mixed by (from :meth:`hand_odds`), and whether the
        opponent has played on."""
        return self.chance_from(k, self.hand_odds(k))

    def chance_from(self, k: Knowledge, odds: float) -> tuple[float, bool]:
        """The chance of a knocker from the odds ``odds`` times the finished hands', and
        whether the opponent has played on at a chance."""
        game, played_on = self.game_odds(k)
        odds = game * odds
        return odds / (odds + 1.0), played_on

    def opponent_kind(self, k: Knowledge) -> str | None:
        chance, played_on = self.game_chance(k)
        if chance >= self.knocker_at:
            return "knocker"
        return "player" if played_on else None

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        chance, played_on = self.knocker_chance(k)
        own = self.style_knocks["player"] if played_on else self.knock_params
        knocker = self.style_knocks["knocker"]
        x = self.chance_features(k, estimate0, max(feature_count(own), feature_count(knocker)))
        edge = predicted_edge(x, own)
        if chance < 0.001:
            return edge
        return chance * predicted_edge(x, knocker) + (1.0 - chance) * edge


class SoftDetect(SoftReading):
    """:class:`SoftReading` whose chance of a knocker starts each hand from the chance the
    opponent's public play in the hand gives (``bench/knocker_signals.py``'s fit,
    :attr:`weights`) instead of a fixed prior, then weighs the finished hands' odds on it
    (``sdetect``, with ``--weights``)."""

    level = "v-sdetect"
    weights: tuple[float, ...] = ()

    def hand_odds(self, k: Knowledge) -> float:
        here = knocker_signals.knocker_chance(self.weights, knocker_signals.signals(k.view))
        return here / (1.0 - here)


PREFIXED: dict[str, tuple[type[MasterPlayer], str, type]] = {
    "deep-": (Deep, "depth", int),
    "early-": (EarlyKnock, "draws", int),
    "lrp-": (KnockerOdds, "odds", float),
    "soft-": (SoftReading, "prior", float),
    "lastsims-": (LastChance, "late_stock", int),
    "deeppile-": (DeepPile, "depth", int),
    "pilem-": (PileMargin, "margin", float),
    "closing-": (Closing, "share", float),
    "endzone-": (EndZone, "need", int),
    "threat-": (Threat, "threat_weight", float),
    "athreat-": (StagedThreat, "split", int),
    "kthreat-": (KnockerThreat, "boost", float),
    "lead-": (Lead, "swing", float),
    "guard-": (ThreatGuard, "guard", float),
    "threatl-": (ThreatLayoffs, "threat_weight", float),
    "pthreat-": (PileThreat, "pile_threat", float),
    "replies-": (Hazard, "replies", int),
    "hazard-": (Hazard, "hazard", float),
    "share-": (ScoreShare, "share", float),
    "ender-": (EnderDanger, "weight", float),
    "ginfeed-": (GinFeed, "weight", float),
    "pileouts-": (PileOuts, "weight", float),
    "late-": (LateDeadwood, "weight", float),
    "hedgeto-": (HedgeWindow, "last", int),
    "hedgefrom-": (HedgeWindow, "first", int),
}
"""The variants named ``<prefix><number>``: the class, and the attribute the number sets."""


def variant(name: str, weights: Sequence[float]) -> str:
    """A variant of this module registered as a test level, master with other attributes
    (``ATTR=VALUE[,ATTR=VALUE...]``, :func:`knock_playouts.attributes_variant`), or
    ``knocker_signals``'s; ``A+B`` is both variants of this module in one (``A``'s methods
    first: ``kind-player+ginfeed-0.5``)."""
    if "+" in name:
        parents = tuple(TEST_LEVELS[variant(part, weights)] for part in name.split("+"))
        level = f"v-{name}"
        TEST_LEVELS[level] = type(name, parents, {"level": level})
        return level
    if ":" in name:  # a variant of this module with other attributes: ``deep-3:gin_bonus=45``
        base, _, attributes = name.partition(":")
        parent = TEST_LEVELS[variant(base, weights)]
        named = TEST_LEVELS[attributes_variant(attributes)]
        level = f"v-{name}"
        extra = {k: v for k, v in vars(named).items() if not k.startswith("_") and k != "level"}
        TEST_LEVELS[level] = type(name, (parent,), {**extra, "level": level})
        return level
    if "=" in name:
        return attributes_variant(name)
    level = f"v-{name}"
    prefix = next((p for p in PREFIXED if name.startswith(p)), None)
    if name in ("two-step", "two-step-search", "two-step-close"):
        TEST_LEVELS[level] = type(name, (TwoStep,), {"level": level, "mode": name})
    elif name in ("kind-player", "kind-noknocker"):
        TEST_LEVELS[level] = type(name, (KindFixed,), {"level": level, "kind": name[5:]})
    elif name.startswith(("lrpm-", "lrp1-")):
        how = "unhedged" if name.startswith("lrpm-") else "after_first"
        attrs = {"level": level, "odds": float(name[5:]), how: True}
        TEST_LEVELS[level] = type(name, (KnockerOdds,), attrs)
    elif name == "sdetect":
        if not weights:
            raise SystemExit("sdetect needs --weights (bench/knocker_signals.py score)")
        TEST_LEVELS[level] = type(name, (SoftDetect,), {"level": level, "weights": tuple(weights)})
    elif name == "endstock":
        TEST_LEVELS[level] = type(name, (EndStock,), {"level": level})
    elif name in ("last-sim", "last-never"):
        TEST_LEVELS[level] = type(name, (LastChance,), {"level": level, "mode": name[5:]})
    elif name in ("chase-cont", "chase-min", "chase-stop"):
        attrs = {"level": level, "past_knock": name[6:]}
        TEST_LEVELS[level] = type(name, (Hazard,), attrs)
    elif prefix is not None:
        base, attr, kind = PREFIXED[prefix]
        attrs = {"level": level, attr: kind(name[len(prefix) :])}
        TEST_LEVELS[level] = type(name, (base,), attrs)
    else:
        return knocker_signals.variant(name, weights)
    return level


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    knocker_signals.add_play_arguments(parser, deals=2000)
    args = parser.parse_args()
    knocker_signals.play(args, variant)


if __name__ == "__main__":
    main()
