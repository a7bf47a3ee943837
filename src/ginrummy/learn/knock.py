"""Knock or play on, measured on self-play from the true state (data for a learned knock).

Self-play hand ``i`` of a run with seed ``S`` is dealt as in :mod:`.beliefs` and played by
two players of the run's generation (:data:`PLAYERS`: the first run's knocked by master's
simulations alone; the second run's by the first run's learned knock: policy iteration). At
every discard where the seat to act could knock (not gin) with more than two stock cards
left, both choices are played from the true state:

* knocking is scored exactly (the true opposing hand, its lay-offs);
* playing on discards the card master would play on with and plays the rest of the hand out
  with the same players (seeded by the position, so the branch is reproducible);

and the position's public estimate is kept: every feature of
:data:`ginrummy.ai.master.KNOCK_FEATURES` (what master's simulations give each choice, and
the play-on hand's prospects, :meth:`~ginrummy.ai.master.MasterPlayer.more_knock_features`,
its plausible opposing hands dealt from a source seeded ``x/<hand>/<chance>``: the seed the
experiment that found them used; and the opponent's public play this hand,
:func:`ginrummy.ai.signals.knock_signals`). The hand then goes on as the player chose.
Values are in master's utility at 0-0 (:func:`hand_utility`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import random
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..actions import DISCARD_TEXT
from ..ai import player
from ..ai.base import Player, can_end, discard_options
from ..ai.knowledge import Knowledge
from ..ai.master import KNOCK_FEATURES, MasterPlayer, game_utility, knock_features, quadratic
from ..ai.signals import knock_signals
from ..ai.strong import KnockEstimate
from ..ai.styles import MasterKnockKA
from ..arena import run_tasks
from ..cards import shuffled_deck
from ..engine.hand import HandState, deal
from ..rules import Rules
from ..views import PlayerView

MAX_ACTIONS = 400
"""A self-play hand stops after this many actions (players cycling through the pile)."""
RIDGE = 100.0
"""The ridge penalty of the fit (the features are of order one)."""


class SimulatedKnockMaster(MasterPlayer):
    """``master`` knocking by its simulations alone (no learned correction), and drawing by
    its search alone: the players whose knocks the data measure (master as it played when
    the shipped data were made)."""

    level = "master-simulated-knock"
    last_chance_search = False  # knocks at its last chance whenever it can, as before
    pile_depth = 1  # its draws as they were before 2026-12-05, evening (one draw deep)
    # master's two-draw discard search as it was before 2026-12-05 (no gin bonus)
    discard_knock_bonus = 10.0
    gin_bonus = 0.0
    estimate_gin_bonus = 0.0
    learned_knock = False
    threat_weight = 0.0  # no threat to knock in its discards (master's since 2026-12-07)


class SimulatedKnockGinMaster(MasterPlayer):
    """``master`` knocking by its simulations alone, with the discards that value gin as on
    the morning of 2026-12-05 (a knock after a draw counts 5 deadwood points in the two-draw
    search, gin 25 more, nothing in the ranking): the players of the run made again with
    those discards (docs/ai.md)."""

    level = "master-simulated-knock-gin"
    last_chance_search = False  # knocks at its last chance whenever it can, as before
    pile_depth = 1  # its draws as they were before 2026-12-05, evening (one draw deep)
    discard_knock_bonus = 5.0
    gin_bonus = 25.0
    estimate_gin_bonus = 0.0
    learned_knock = False
    threat_weight = 0.0  # no threat to knock in its discards (master's since 2026-12-07)


class KnockKAGinMaster(MasterKnockKA):
    """``master-knock-kA`` (the first learned knock) with the discards that value gin: the
    learner of the run against knockers made again with those discards."""

    level = "master-knock-kA-gin"
    discard_knock_bonus = 5.0
    gin_bonus = 25.0


PLAYERS: dict[str, type[MasterPlayer]] = {
    "simulated-knock": SimulatedKnockMaster,
    "simulated-knock-gin": SimulatedKnockGinMaster,
    "knock-kA": MasterKnockKA,
    "knock-kA-gin": KnockKAGinMaster,
}
"""The generations of self-play players, by name: each a class of its own, so a later change
to master's knock leaves each run's data as they were (its draws and discards are master's:
a change to those must move the old code into these classes first, or retrain)."""


@dataclass(frozen=True, slots=True)
class KnockSelfPlay:
    seed: str
    preset: str = "classic"
    players: str = "simulated-knock"
    """The players' generation (a key of :data:`PLAYERS`)."""
    opponents: tuple[str, ...] = ()
    """Empty: self-play, both seats' chances kept. Else the levels of the opposing seat
    (hand ``i`` against ``opponents[i // 4 % len(opponents)]``, the learning seat
    ``i // 2 % 2``), and only the learning seat's chances are kept: data for the knock
    against players of one style."""

    def seats(self, i: int) -> tuple[int, ...]:
        """The seats of hand ``i`` whose chances to knock are kept."""
        return (0, 1) if not self.opponents else (i // 2 % 2,)

    def players_of(self, i: int, tag: str) -> dict[int, Player]:
        """The players of hand ``i`` (of a branch of it: ``tag``)."""
        make = PLAYERS[self.players]
        if not self.opponents:
            return {seat: make(f"{tag}/{seat}") for seat in (0, 1)}
        (seat,) = self.seats(i)
        opponent = self.opponents[i // 4 % len(self.opponents)]
        return {seat: make(f"{tag}/{seat}"), 1 - seat: player(opponent, f"{tag}/{1 - seat}")}


@dataclass(frozen=True, slots=True)
class KnockPosition:
    """One chance to knock: the public features, and both choices' true values."""

    features: tuple[float, ...]
    knock: float
    on: float
    chose_knock: bool


@dataclass(frozen=True, slots=True)
class KnockRun:
    """A run that made a shipped parameter file (``ginrummy/ai/params/<name>.json``), with
    its positions shipped in ``tests/data/``: ``data`` names each file and the first hand
    it holds (the files, in order, hold the run's hands one after another)."""

    name: str
    job: KnockSelfPlay
    hands: int
    features: int
    data: tuple[tuple[str, int], ...]
    mix: tuple[str, float] | None = None
    """Another run (a name of :data:`RUNS`) whose positions are fitted too, each weighing
    this share of one of the run's own (:class:`Mix`)."""

    def arguments(self) -> list[str]:
        """The ``python -m ginrummy.learn knock`` options that make it."""
        out = ["--seed", self.job.seed, "--players", self.job.players]
        if self.job.opponents:
            out += ["--opponents", ",".join(self.job.opponents)]
        out += ["--hands", str(self.hands), "--features", str(self.features)]
        if self.mix is None:
            return [*out, "--mix", "none"]
        return [*out, "--mix", self.mix[0], "--mix-share", repr(self.mix[1])]


FIRST = KnockSelfPlay("kA")
"""The first run (master's knock by its simulations alone)."""
KA_DATA = (("knock-positions.jsonl.gz", 0), ("knock-positions-3000.jsonl.gz", 3000))
"""The first run's positions, in two parts of 3,000 hands."""
RUNS = {
    run.name: run
    for run in (
        # 15,464 knock chances in the first 3,000 hands; about 30 minutes on two processes.
        # The first learned knock was fitted on nine features; the data were made again with
        # 22 (the first nine came out the same), and 3,000 hands more (15,275 chances, 38
        # minutes), for master's knock of 2026-12-03, fitted on 22 of 30,739 chances; then
        # with the opponent's play as eight more (the first 22 the same), for master's knock,
        # fitted on all 30
        KnockRun("knock-kA", FIRST, 3000, 9, (("knock-positions.jsonl.gz", 0),)),
        KnockRun("knock-kA-extras", FIRST, 6000, 22, KA_DATA),
        KnockRun("knock-kA-signals", FIRST, 6000, len(KNOCK_FEATURES), KA_DATA),
        # master's knock: the same with the chances against knockers (their data made again
        # with all 30 features, 10 minutes on two processes) at half weight each
        KnockRun(
            "knock-kA-mixed",
            FIRST,
            6000,
            len(KNOCK_FEATURES),
            KA_DATA,
            mix=("knock-vs-knocker", 0.5),
        ),
        KnockRun(
            "knock-vs-knocker",
            KnockSelfPlay("kS-knock", players="knock-kA", opponents=("style-knock", "baseline")),
            12000,
            12,
            (("knock-vs-knocker.jsonl.gz", 0),),
        ),
    )
}
"""The runs of the shipped parameter files, by file name."""
SECOND = KnockSelfPlay("kB", players="knock-kA")
"""An experiment, not shipped (docs/ai.md): the second self-play run, 3,000 hands of master
with the first learned knock (policy iteration), refitted no better than that knock."""
AGAINST_NEVER = KnockSelfPlay(
    "kS-never", players="knock-kA", opponents=("style-undercut", "style-gin")
)
"""An experiment, not shipped: 8,000 hands against players that never knock, refitted no
better than master's own learned knock."""


def hand_utility(points: int, target: int = 100) -> float:
    """Master's utility of winning ``points`` (negative: losing them) in a game at 0-0."""
    return game_utility(target, 0, 0, points)


def play_out(state: HandState, players: Mapping[int, Player]) -> HandState:
    """The hand played on by ``players`` to its end (or :data:`MAX_ACTIONS`)."""
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        state = state.apply(players[seat].choose(state.view(seat)), seat)
    return state


def seat_points(state: HandState, seat: int) -> int:
    """The points ``seat`` won in a finished hand (negative: lost; 0 if void or unfinished)."""
    r = state.result
    if r is None or r.winner is None:
        return 0
    return r.points if r.winner == seat else -r.points


def knock_chance(view: PlayerView) -> tuple[Knowledge, dict[int, int]] | None:
    """What the seat knows and its discard options, if ``view`` is a chance to knock (not
    gin) with more than two stock cards left; else None."""
    if view.phase != "discard" or view.stock_size <= 2 or not can_end(view):
        return None
    k = Knowledge(view)
    options = discard_options(k)
    return (k, options) if 0 < min(options.values()) <= k.knock_limit else None


def positions_of_hand(task: tuple[KnockSelfPlay, int]) -> list[KnockPosition]:
    """The knock chances of self-play hand ``i``."""
    job, i = task
    rules = Rules.preset(job.preset)
    tag = f"{job.seed}/hand/{i}"
    make = PLAYERS[job.players]
    players = job.players_of(i, tag)
    learning = job.seats(i)
    state = deal(rules, i % 2, shuffled_deck(tag))
    out: list[KnockPosition] = []
    n = 0
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        chance = knock_chance(view) if seat in learning else None
        if chance is not None:
            k, options = chance
            probe = make(f"{tag}/probe/{n}")
            model = probe.model(k)
            assert model is not None
            est: KnockEstimate = probe.knock_estimate(k, options, model)
            if not est.points:
                # the estimate of a player knocking by its simulations alone keeps no
                # per-deal points: a fresh probe (the same seed) simulates them again, on
                # other deals than the values' (its random stream is not where the first
                # probe's was), where master's estimate at play time uses the same deals;
                # the features made from them are alike either way
                again = make(f"{tag}/probe/{n}")
                again_model = again.model(k)
                assert again_model is not None
                points = again.simulate_knock_points(k, est.card, est.play_on, again_model)
                est = est._replace(points=tuple(points))
            more = probe.more_knock_features(k, est, model, random.Random(f"x/{i}/{n}"))
            knocked = state.apply(est.ending, seat)
            branch = job.players_of(i, f"{tag}/branch/{n}")
            on = play_out(state.apply(DISCARD_TEXT[est.play_on], seat), branch)
            action = players[seat].choose(view)
            out.append(
                KnockPosition(
                    knock_features(k, est) + more + knock_signals(view),
                    hand_utility(seat_points(knocked, seat)),
                    hand_utility(seat_points(on, seat)),
                    action.startswith("knock"),
                )
            )
            n += 1
            state = state.apply(action, seat)
            continue
        state = state.apply(players[seat].choose(view), seat)
    return out


def positions_from(task: tuple[tuple[KnockSelfPlay, int], int]) -> list[KnockPosition]:
    """The knock chances of hand ``first + i`` (``task`` is ``((job, first), i)``)."""
    (job, first), i = task
    return positions_of_hand((job, first + i))


def collect(
    job: KnockSelfPlay,
    hands: int,
    workers: int = 1,
    cluster: str | None = None,
    progress: bool = False,
    first: int = 0,
) -> list[KnockPosition]:
    """The knock chances of hands ``first .. first + hands - 1`` of ``job``, in order (a run
    made in parts gives the same positions as one made at once)."""
    out: list[KnockPosition] = []
    tasks = run_tasks(positions_from, (job, first), hands, workers, progress, "hand", cluster)
    for rows in tasks:
        out.extend(rows)
    return out


def gains_of(positions: Sequence[KnockPosition], knock: Sequence[bool]) -> list[float]:
    """At each position, the true value of a rule's choice (``knock[i]`` at position ``i``)
    minus the players' own choice's."""
    out = []
    for p, k in zip(positions, knock, strict=True):
        mine = p.knock if k else p.on
        theirs = p.knock if p.chose_knock else p.on
        out.append(mine - theirs)
    return out


def gain(positions: Sequence[KnockPosition], knock: Sequence[bool]) -> float:
    """Mean true value of a rule's choices minus the players' own choices, per position
    (:func:`gains_of`)."""
    return sum(gains_of(positions, knock)) / max(1, len(positions))


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0, 0 for none)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def fit(
    positions: Sequence[KnockPosition],
    features: int = len(KNOCK_FEATURES),
    ridge: float = RIDGE,
    mixed: Sequence[KnockPosition] = (),
    share: float = 0.0,
) -> list[float]:
    """Least-squares weights of the true edge of playing on (its value minus the knock's) on
    the first ``features`` features and their products (:func:`ginrummy.ai.master.quadratic`);
    with ``mixed``, those positions too, each weighing ``share`` of one of ``positions``."""
    if not mixed:
        return ridge_fit(
            [p.features[:features] for p in positions], [p.on - p.knock for p in positions], ridge
        )
    # weighted least squares: each row and its target scaled by the root of its weight
    root = math.sqrt(share)
    rows = [quadratic(p.features[:features]) for p in positions]
    rows += [tuple(root * v for v in quadratic(p.features[:features])) for p in mixed]
    targets = [p.on - p.knock for p in positions] + [root * (p.on - p.knock) for p in mixed]
    return ridge_fit(rows, targets, ridge, products=False)


def ridge_fit(
    features: Sequence[tuple[float, ...]],
    targets: Sequence[float],
    ridge: float,
    products: bool = True,
) -> list[float]:
    """Least squares of ``targets`` on the features and (``products``) their products, with
    a ridge penalty on all but the bias, rounded to five decimals."""
    import numpy as np

    x = np.array([quadratic(f) if products else f for f in features], dtype=np.float64)
    y = np.array(targets, dtype=np.float64)
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 0.0
    w = np.linalg.solve(x.T @ x + np.diag(penalty), x.T @ y)
    return [round(float(v), 5) for v in w]


def params_of(
    job: KnockSelfPlay,
    hands: int,
    positions: Sequence[KnockPosition],
    features: int = len(KNOCK_FEATURES),
    mix: Mix | None = None,
) -> dict[str, Any]:
    """The parameter file's contents for ``positions`` (the run ``job`` over ``hands``),
    fitted on the first ``features`` features (and with ``mix``, its positions too)."""
    mixed = mix.positions if mix else ()
    have = min((len(p.features) for part in (positions, mixed) for p in part), default=0)
    if have < features:
        raise ValueError(f"the positions have {have} features, not the {features} asked for")
    trained_on: dict[str, Any] = {"seed": job.seed, "preset": job.preset}
    if job.players != FIRST.players:
        trained_on["players"] = job.players
    if job.opponents:
        trained_on["opponents"] = list(job.opponents)
    return {
        "model": "ginrummy learned knock: least squares of playing on's edge, quadratic",
        "features": list(KNOCK_FEATURES[:features]),
        "weights": fit(positions, features, RIDGE, mixed, mix.share if mix else 0.0),
        "trained_on": {
            **trained_on,
            "hands": hands,
            "positions": len(positions),
            "ridge": RIDGE,
            "data_sha256": digest(positions, features),
            **({"mixed_with": mix.record(features)} if mix else {}),
        },
    }


@dataclass(frozen=True, slots=True)
class Mix:
    """Another run's positions, fitted with a run's own, each weighing ``share`` of one of
    them: a knock learned against a mix of opponents (master's: its self-play, and hands
    against knockers at a lower weight)."""

    run: str
    """The other run (a name of :data:`RUNS`)."""
    share: float
    positions: Sequence[KnockPosition]

    def record(self, features: int) -> dict[str, Any]:
        """What the parameter file says of it."""
        other = RUNS[self.run]
        out: dict[str, Any] = {"seed": other.job.seed, "players": other.job.players}
        if other.job.opponents:
            out["opponents"] = list(other.job.opponents)
        return {
            **out,
            "hands": other.hands,
            "positions": len(self.positions),
            "share": self.share,
            "data_sha256": digest(self.positions, features),
        }


def digest(positions: Sequence[KnockPosition], features: int = len(KNOCK_FEATURES)) -> str:
    """A SHA-256 of the positions with their first ``features`` features (every number as a
    double): the identity of the data a fit saw."""
    h = hashlib.sha256()
    for p in positions:
        x = p.features[:features]
        h.update(struct.pack(f"<{len(x)}dddB", *x, p.knock, p.on, p.chose_knock))
    return h.hexdigest()


def write_data(positions: Sequence[KnockPosition], path: Path) -> None:
    """The positions as gzipped JSON lines (floats exactly, as Python writes them)."""
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        for p in positions:
            f.write(json.dumps([list(p.features), p.knock, p.on, p.chose_knock]) + "\n")


def read_data(path: Path) -> list[KnockPosition]:
    """Positions written by :func:`write_data`."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [
            KnockPosition(tuple(x), knock, on, chose) for x, knock, on, chose in map(json.loads, f)
        ]


def read_parts(paths: Sequence[Path]) -> list[KnockPosition]:
    """The positions of several files (a run's parts), in order."""
    return [p for path in paths for p in read_data(path)]
