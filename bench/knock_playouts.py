"""Does playing on under other continuation policies tell the learned knock something new?

Master's knock simulations play the hand on with both seats greedy and knocking at once
(:func:`ginrummy.ai.sim.playout`); the learned knock corrects their verdict (docs/ai.md,
"Learned play"). Strong players wait for less deadwood, or for gin, so the same simulated
deals played on with other knock thresholds say something about how the hand goes on that
the greedy playouts do not. This measures whether they add to the 30 features.

    python bench/knock_playouts.py replay kA-playouts.json
    python bench/knock_playouts.py replay --run knock-vs-knocker kS-playouts.json
    python bench/knock_playouts.py score kA-playouts.json --features on_both_gin
    python bench/knock_playouts.py weights kA-playouts.json w.json --features on_both_gin
    python bench/knock_playouts.py weights kA-playouts.json w.json --features on_both_gin \
        --mix-data tests/data/knock-vs-knocker.jsonl.gz --mix-rows kS-playouts.json
    python bench/knock_playouts.py play master-2026-11 playouts:w.json --deals 2000
    python bench/knock_playouts.py play master-2026-11 knock_samples=512 danger_weight=1.0 \
        danger_weight=4.0 draw_margin=5.0 --deals 1000

* ``replay``: the hands of a knock run (``--run``, a name of ``RUNS``: by default the ``kA``
  self-play of ``tests/data``) replayed as ``python -m ginrummy.learn knock`` plays them,
  without the branches (about 20 minutes on two processes); at every chance the probe's
  estimate (the card to play on with) and, on :data:`DEALS` plausible deals of its own
  (seeded by the hand and the chance), :data:`NAMES`: the play-on playouts' mean utility at
  0-0 (in tens) with each of :data:`LIMITS`, the share of hands lost with the first two, and
  the shares of gins won and lost when both play for gin. The stock left, last, checks that
  the chances are the data's.
* ``score``: master's learned knock (quadratic on the 30 features) against the same with the
  new ones (``--features``, by default all), as linear terms or in the quadratic, fitted on
  one half of the hands and scored on the other (utility a chance over the simulations alone,
  and paired per chance against the 30).
* ``weights``: the quadratic on the 30 and the chosen new features fitted on all the chances
  (with ``--mix-data`` and its replayed ``--mix-rows``, the chances against knockers too, at
  ``--mix-share``), written with the features' names.
* ``play``: ``bench/knocker_signals.py play`` with two more kinds of variant: ``playouts:FILE``,
  master knocking by those weights (its adapted knock against a knocker unchanged), and
  ``ATTR=VALUE``, master with other settings (``knock_samples=512``, ``danger_weight=1.0``,
  ``draw_margin=5.0``).

The figures are in docs/ai.md ("Playouts for gin: measured, not shipped").
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import ClassVar

import knocker_signals
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.evaluate import OpponentModel
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import KNOCK_FEATURES, MasterPlayer, quadratic
from ginrummy.ai.sim import playout
from ginrummy.ai.strong import KnockEstimate
from ginrummy.arena import run_tasks
from ginrummy.cards import shuffled_deck
from ginrummy.engine.hand import deal
from ginrummy.learn.knock import (
    PLAYERS,
    RIDGE,
    RUNS,
    KnockPosition,
    KnockSelfPlay,
    fit,
    hand_utility,
    knock_chance,
    read_data,
    read_parts,
)
from ginrummy.rules import Rules
from ginrummy.views import PlayerView
from knocker_signals import half_gains, print_gains, rows_at_chances

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
DEALS = 128
LIMITS = ((None, 0), (0, None), (None, 5), (0, 0), (3, 3), (0, 5), (5, 0), (5, 5))
"""Per playout family, (this seat, the opponent)'s most deadwood to knock with; None: the
knock limit. The opponent plays for gin; this seat does; the opponent knocks at 5 or less;
both play for gin; both knock at 3 or less; this seat plays for gin against an opponent
knocking at 5 or less, and the other way; both knock at 5 or less."""
NAMES = (
    "on_opp_gin",
    "on_me_gin",
    "on_opp_5",
    "on_both_gin",
    "on_both_3",
    "on_me_gin_opp_5",
    "on_me_5_opp_gin",
    "on_both_5",
    "opp_gin_loss",
    "me_gin_loss",
    "both_gin_win_gin",
    "both_gin_ginned",
)


def playout_features(
    player: MasterPlayer, k: Knowledge, play_on: int, model: OpponentModel, rng: random.Random
) -> list[float]:
    """:data:`NAMES` of a chance to knock, playing on with ``play_on``, on :data:`DEALS`
    plausible deals dealt from ``rng``."""
    deals = model.deals(rng, DEALS, player.belief_sharpness(k))
    sc = player.scoring(k)
    kept = k.hand & ~(1 << play_on)
    row: list[float] = []
    losses = []
    gins = []
    for mine, theirs in LIMITS:
        limits = (
            k.knock_limit if mine is None else mine,
            k.knock_limit if theirs is None else theirs,
        )
        points = [
            playout((kept, opp), stock, play_on, 1, sc, knock_at=limits) for opp, stock in deals
        ]
        row.append(sum(hand_utility(p) for p in points) / len(points) / 10)
        losses.append(sum(p < 0 for p in points) / len(points))
        gins.append(
            (
                sum(p >= 25 for p in points) / len(points),
                sum(p <= -25 for p in points) / len(points),
            )
        )
    return [*row, losses[0], losses[1], *gins[3]]


def rows_of_hand(task: tuple[KnockSelfPlay, int]) -> list[list[float]]:
    """:func:`playout_features` at each chance of hand ``i`` of a knock run, the hand played
    as the run's data (:func:`ginrummy.learn.knock.positions_of_hand`) without the branches;
    the stock left last."""
    job, i = task
    tag = f"{job.seed}/hand/{i}"
    make = PLAYERS[job.players]
    state = deal(Rules.preset(job.preset), i % 2, shuffled_deck(tag))
    chances = count()

    def row(view: PlayerView) -> list[float]:
        chance = knock_chance(view)
        assert chance is not None
        k, options = chance
        n = next(chances)
        probe = make(f"{tag}/probe/{n}")
        model = probe.model(k)
        assert model is not None
        est = probe.knock_estimate(k, options, model)
        rng = random.Random(f"playouts/{job.seed}/{i}/{n}")
        return [*playout_features(probe, k, est.play_on, model, rng), k.stock_size / 31.0]

    return rows_at_chances(state, job.players_of(i, tag), job.seats(i), row)


def check_rows(rows: Sequence[Sequence[float]], data: Sequence[KnockPosition]) -> None:
    """Stop unless the replayed ``rows`` are the chances of ``data``, one for one (each row's
    last value, the stock left, is the data's fifth feature)."""
    if len(rows) != len(data) or any(
        abs(r[-1] - p.features[4]) > 1e-9 for r, p in zip(rows, data, strict=True)
    ):
        raise SystemExit("the replayed chances are not the data's")


def replay(args: argparse.Namespace) -> None:
    run = RUNS[args.run]
    rows = [
        r
        for hand in run_tasks(rows_of_hand, run.job, args.hands or run.hands, args.workers, True)
        for r in hand
    ]
    Path(args.data).write_text(json.dumps(rows))
    print(f"{len(rows)} chances")


def score(args: argparse.Namespace) -> None:
    run = RUNS[args.run]
    data = read_parts([DATA / name for name, _ in run.data])
    rows = json.loads(Path(args.data).read_text())
    data = data[: len(rows)]
    check_rows(rows, data)
    width = len(KNOCK_FEATURES)
    pick = [NAMES.index(n) for n in args.features] if args.features else range(len(NAMES))
    new = [tuple(r[j] for j in pick) for r in rows]
    base_x = [quadratic(p.features[:width]) for p in data]
    rows = [
        ("the 30", half_gains(data, base_x, args.ridge)),
        (
            "and the new, linear",
            half_gains(data, [b + x for b, x in zip(base_x, new, strict=True)], args.ridge),
        ),
        (
            "quadratic on all",
            half_gains(
                data,
                [quadratic(p.features[:width] + x) for p, x in zip(data, new, strict=True)],
                args.ridge,
            ),
        ),
    ]
    print(f"{len(data)} chances; features {[NAMES[j] for j in pick]}; ridge {args.ridge:g}")
    print_gains(rows, 22)


def weights(args: argparse.Namespace) -> None:
    """The quadratic on the 30 and the new features, fitted on all of the run's chances (and
    ``--mix-data`` with its replayed rows ``--mix-rows`` at ``--mix-share``)."""
    run = RUNS[args.run]
    width = len(KNOCK_FEATURES)
    names = args.features or list(NAMES)
    pick = [NAMES.index(n) for n in names]

    def joined(data: list[KnockPosition], rows: list[list[float]]) -> list[KnockPosition]:
        check_rows(rows, data)
        return [
            replace(p, features=p.features[:width] + tuple(r[j] for j in pick))
            for p, r in zip(data, rows, strict=True)
        ]

    data = joined(
        read_parts([DATA / name for name, _ in run.data]), json.loads(Path(args.data).read_text())
    )
    mixed: list[KnockPosition] = []
    if args.mix_data:
        mixed = joined(read_data(Path(args.mix_data)), json.loads(Path(args.mix_rows).read_text()))
    w = fit(data, width + len(pick), args.ridge, mixed, args.mix_share)
    Path(args.weights).write_text(json.dumps({"features": names, "weights": w}) + "\n")
    print(f"{len(w)} weights from {len(data)} + {len(mixed)} chances")


class WithPlayouts(MasterPlayer):
    """Master whose learned knock (before a game shows a knocker) is the quadratic on the 30
    features and :data:`NAMES`, with the weights of ``weights``."""

    level = "v-playouts"
    knock_weights: ClassVar[tuple[float, ...]] = ()
    picked: ClassVar[tuple[int, ...]] = ()

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        if self.opponent_kind(k) is not None:
            return super().learned_edge(k, estimate0)
        model = self.model(k)
        assert model is not None
        rng = random.Random(f"{self.seed}/playouts/{k.turn}/{k.hand}")
        new = playout_features(self, k, estimate0.play_on, model, rng)
        x = self.chance_features(k, estimate0, len(KNOCK_FEATURES)) + tuple(
            new[j] for j in self.picked
        )
        return sum(w * v for w, v in zip(self.knock_weights, quadratic(x), strict=True))


def attributes_variant(name: str) -> str:
    """Register ``ATTR=VALUE[,ATTR=VALUE...]``, master with those class attributes (an
    integer where the value has no point, e.g. ``knock_samples=512 danger_weight=1.0``;
    ``none`` for None: ``hedge_params=none,knocker_prior=0``), as a test level; its level
    name."""
    attributes: dict[str, object] = {}
    for part in name.split(","):
        key, value = part.split("=")
        if not hasattr(MasterPlayer, key):
            raise SystemExit(f"master has no attribute {key!r}")
        if value == "none":
            attributes[key] = None
        else:
            attributes[key] = int(value) if value.lstrip("-").isdigit() else float(value)
    level = f"v-{name}"
    TEST_LEVELS[level] = type("attributes", (MasterPlayer,), {"level": level, **attributes})
    return level


def play(args: argparse.Namespace) -> None:
    """``knocker_signals.py play`` with the variants ``playouts:FILE`` too."""

    def variant(name: str, weights: Sequence[float]) -> str:
        if "=" in name:
            return attributes_variant(name)
        if not name.startswith("playouts:"):
            return knocker_signals.variant(name, weights)
        level = f"v-{name}"
        fitted = json.loads(Path(name[len("playouts:") :]).read_text())
        weighted = {
            "level": level,
            "knock_weights": tuple(fitted["weights"]),
            "picked": tuple(NAMES.index(n) for n in fitted["features"]),
        }
        TEST_LEVELS[level] = type("playouts", (WithPlayouts,), weighted)
        return level

    knocker_signals.play(args, variant)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    r = commands.add_parser("replay")
    r.add_argument("data")
    r.add_argument("--run", default="knock-kA-signals")
    r.add_argument("--hands", type=int, default=0)
    r.add_argument("--workers", type=int, default=2)
    s = commands.add_parser("score")
    s.add_argument("data")
    s.add_argument("--run", default="knock-kA-signals")
    s.add_argument("--features", nargs="*", choices=NAMES)
    s.add_argument("--ridge", type=float, default=RIDGE)
    w = commands.add_parser("weights")
    w.add_argument("data")
    w.add_argument("weights")
    w.add_argument("--run", default="knock-kA-signals")
    w.add_argument("--mix-data")
    w.add_argument("--mix-rows")
    w.add_argument("--mix-share", type=float, default=0.5)
    w.add_argument("--ridge", type=float, default=RIDGE)
    w.add_argument("--features", nargs="*", choices=NAMES)
    knocker_signals.add_play_arguments(commands.add_parser("play"), deals=2000)
    args = parser.parse_args()
    run = {"replay": replay, "score": score, "weights": weights, "play": play}
    run[args.command](args)


if __name__ == "__main__":
    main()
