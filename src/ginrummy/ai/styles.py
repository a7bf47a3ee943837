"""Players for testing: fixed, very different styles, and frozen earlier levels.

Not offered to people (not in :data:`~ginrummy.ai.LEVELS`); the arena and tests use them by
name (:data:`~ginrummy.ai.TEST_LEVELS`). The styles play like ``expert`` in everything but
when they end a hand, so a measure against them isolates that one trait:

* ``style-knock`` knocks at the first chance, with the least deadwood;
* ``style-gin`` never knocks: it plays every hand for gin;
* ``style-undercut`` never knocks either, and always discards to the least deadwood, sitting
  low so that a knock against it is undercut.

``master-2026-11`` is ``master`` as it played in November 2026 (level with the EAAI-2021
champion's program), kept to measure its successors against; ``master-2026-12`` is master as
it played on 7 December 2026 (the fixed hedge); ``master-knock-kA`` is master with its first
learned knock (early December 2026). The two dated levels' decisions are pinned by
``tests/test_ai_frozen.py``: a change that alters them must first move the old code here.
"""

from __future__ import annotations

from .base import least_deadwood_discard
from .evaluate import OpponentModel
from .knowledge import Knowledge
from .master import MasterPlayer
from .strong import ExpertPlayer, NormalPlayer


class KnockAtOncePlayer(ExpertPlayer):
    """``expert`` that knocks whenever it may (the least deadwood), never playing on."""

    level = "style-knock"

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        return NormalPlayer.knock_choice(self, k, options, model)


class GinOnlyPlayer(ExpertPlayer):
    """``expert`` that never knocks: gin or nothing."""

    level = "style-gin"

    def knock_choice(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> str | None:
        ending = NormalPlayer.knock_choice(self, k, options, model)
        return ending if ending is not None and ending.startswith("gin") else None


class UndercutterPlayer(GinOnlyPlayer):
    """Never knocks and keeps its deadwood as low as it can, to undercut a knock."""

    level = "style-undercut"

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        card, _ = least_deadwood_discard(options)
        return card


class NonAdaptingMasterPlayer(MasterPlayer):
    """``master`` ignoring what the game's finished hands show of the opponent (:mod:`.adapt`
    off): the other side of ``bench/adaptation.py``."""

    level = "master-no-adapt"
    adapt = False


class Master202611(MasterPlayer):
    """``master`` as of November 2026 (see the module's notes)."""

    level = "master-2026-11"
    last_chance_search = False  # knocks at its last chance whenever it can, as before
    score_weight = 1.0  # valuing hands by the chance of winning from the real score
    pile_depth = 1  # its draws as they were before 2026-12-05, evening (one draw deep)
    # master's two-draw discard search as it was before 2026-12-05 (no gin bonus)
    discard_knock_bonus = 10.0
    gin_bonus = 0.0
    estimate_gin_bonus = 0.0
    adapt = False
    learned_beliefs = False
    learned_knock = False
    threat_weight = 0.0  # no threat to knock in its discards (master's since 2026-12-07)


class MasterKnockKA(MasterPlayer):
    """``master`` with the first learned knock (``params/knock-kA.json``, fitted on self-play
    of master knocking by its simulations alone), as it played in early December 2026: the
    players of the second self-play run (:mod:`ginrummy.learn.knock`), and the level its
    successor is measured against."""

    level = "master-knock-kA"
    last_chance_search = False  # knocks at its last chance whenever it can, as before
    score_weight = 1.0  # valuing hands by the chance of winning from the real score
    pile_depth = 1  # its draws as they were before 2026-12-05, evening (one draw deep)
    # master's two-draw discard search as it was before 2026-12-05 (no gin bonus)
    discard_knock_bonus = 10.0
    gin_bonus = 0.0
    estimate_gin_bonus = 0.0
    adapt = False
    threat_weight = 0.0  # no threat to knock in its discards (master's since 2026-12-07)
    knock_params = "knock-kA"


class Master202612(MasterPlayer):
    """``master`` as of 7 December 2026, before its hedge read the hand's public play: the
    fixed chance :attr:`~.master.MasterPlayer.knocker_prior` of a knocker until the game
    shows the opponent. The player whose knock chances the hedge's regression was fitted on
    (:mod:`ginrummy.learn.knocker`)."""

    level = "master-2026-12"
    hedge_params = None  # the fixed prior, 0.4
