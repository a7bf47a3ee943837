"""Can master tell, within one hand, an opponent that knocks at once from one that does not?

In a game master adapts to a knocker once the finished hands show it (docs/ai.md, "Adapting
to the opponent"); a single deal, or a game's first hand, shows none. This asks whether the
hand itself tells, from what the opponent does in public, and what knowing would be worth.

    python -m ginrummy.learn knocker --hands 1500 --workers 2 --data signals.json.gz
    python bench/knocker_signals.py score signals.json.gz --weights signals-fit.json
    python bench/knocker_signals.py play baseline told-knocker --deals 1000 --workers 2
    python bench/knocker_signals.py play master-2026-11 prior-0.4 detect --weights ...

* the data (``collect`` here until 2026-12-07, now :mod:`ginrummy.learn.knocker`, whose fit
  master's hedge ships): ``master-2026-12`` plays ``--hands`` hands against each of five
  opponents (classic; hand ``i`` dealt from ``<seed>/<opponent>/<i>``, it in seat
  ``i % 2``); at each of its chances to knock it notes the opponent's public play so far this
  hand (:func:`ginrummy.ai.signals.knocker_signals`).
* ``score``: a logistic regression of "the opponent knocks at once" (``baseline``,
  ``style-knock``) on them, fitted on one half of each opponent's hands and scored on the
  other: log-loss against the base rate alone, the area under the ROC curve, and per opponent
  the mean chance it gives and how often it is over a half. ``--weights`` writes the fit.
* ``play``: master and variants of it on the same duplicate deals (the arena's, seed
  ``strength-2026``) against one opponent, each variant's points a hand and its difference
  from master paired per deal. Variants: ``told-knocker`` (told the opponent is a knocker:
  it knocks by the knock learned against knockers from the first hand, what perfect
  detection would give), ``prior-P`` (its learned edge the mix of the two knocks' with a
  fixed chance ``P`` of a knocker), ``detect`` (the mix with the chance the fit of ``score``
  gives, ``--weights``: since 2026-12-07 master itself with the shipped fit).

    python bench/knocker_signals.py replay --hands 6000 kA-signals.json
    python bench/knocker_signals.py extend kA-signals.json
    python bench/knocker_signals.py knock
    python bench/knocker_signals.py play master-2026-11 before --deals 2000
    python bench/knocker_signals.py pooled kS-knock.jsonl.gz --weights pooled.json

* ``replay``: the same signals at every chance of master's knock data (the ``kA`` self-play
  hands, replayed without their branches, so in the order of ``tests/data``'s positions).
* ``extend``: those data with the replayed signals as their last eight features, in place
  (how the shipped files got them: what ``python -m ginrummy.learn knock`` writes, without
  playing the branches again).
* ``knock``: master's learned knock fitted on the first 22 features, with the signals as
  linear terms, and quadratic on all 30 (fitted on one half of the hands, scored on the other).
* ``play ... before``: master against the master of 2026-12-03 (no signals), paired per deal.
* ``pooled``: the knock fitted on the self-play chances and on chances against knockers
  (``python -m ginrummy.learn knock --seed kS-knock ... --data``, with all 30 features)
  together, scored on each population's other half; the variant ``pooled:FILE`` of ``play``
  plays the fit written to ``FILE``.

The figures are in docs/ai.md ("Telling a knocker within one hand", "The opponent's play as
knock features").
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.base import Player
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import (
    KNOCK_FEATURES,
    MASTER_KNOCK,
    MasterPlayer,
    feature_count,
    knock_weights,
    predicted_edge,
    quadratic,
)
from ginrummy.ai.signals import knock_signals, knocker_chance, knocker_features, knocker_signals
from ginrummy.ai.strong import KnockEstimate
from ginrummy.arena import Interval, Job, deal_pairs_of, game_pairs, run_tasks
from ginrummy.cards import shuffled_deck
from ginrummy.engine.hand import HandState, deal
from ginrummy.learn import knocker
from ginrummy.learn.knock import (
    FIRST,
    MAX_ACTIONS,
    RIDGE,
    KnockPosition,
    KnockSelfPlay,
    fit,
    gains_of,
    knock_chance,
    mean_and_error,
    read_data,
    read_parts,
    ridge_fit,
    write_data,
)
from ginrummy.rules import Rules
from ginrummy.views import PlayerView

KNOCKERS = knocker.KNOCKERS


def rows_at_chances(
    state: HandState,
    players: Mapping[int, Player],
    seats: Sequence[int],
    row: Callable[[PlayerView], list[float]],
) -> list[list[float]]:
    """The hand played to its end (or :data:`MAX_ACTIONS`); ``row`` of the view at every
    chance to knock (:func:`knock_chance`) of ``seats``."""
    rows = []
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if seat in seats and knock_chance(view) is not None:
            rows.append(row(view))
        state = state.apply(players[seat].choose(view), seat)
    return rows


# --- score -----------------------------------------------------------------------------------


def score(args: argparse.Namespace) -> None:
    import numpy as np

    _, data = knocker.read_data(Path(args.data))

    def rows(first: bool) -> tuple[Any, Any, list[str]]:
        xs, ys, who = [], [], []
        for opponent, hands in data.items():
            half = len(hands) // 2
            for hand in hands[:half] if first else hands[half:]:
                for x in hand:
                    xs.append(knocker_features(x))
                    ys.append(1.0 if opponent in KNOCKERS else 0.0)
                    who.append(opponent)
        return np.array(xs), np.array(ys), who

    for first in (True, False):
        x, y, _ = rows(first)
        tx, ty, who = rows(not first)
        w = np.array(knocker.logistic_fit(x, y))
        p = np.clip(1.0 / (1.0 + np.exp(-(tx @ w))), 1e-9, 1 - 1e-9)
        loss = -np.mean(ty * np.log(p) + (1 - ty) * np.log(1 - p))
        rate = y.mean()
        base = -np.mean(ty * math.log(rate) + (1 - ty) * math.log(1 - rate))
        order = np.argsort(p)
        ranks = np.empty(len(p))
        ranks[order] = np.arange(len(p))
        pos = ty == 1
        auc = (ranks[pos].sum() - pos.sum() * (pos.sum() - 1) / 2) / (pos.sum() * (~pos).sum())
        print(
            f"fitted on the {'first' if first else 'second'} halves: log-loss {loss:.3f} nats "
            f"a chance (base rate {base:.3f}), AUC {auc:.3f}"
        )
        names = np.array(who)
        for opponent in data:
            mask = names == opponent
            print(
                f"  {opponent:<15} {mask.sum():>5} chances, mean chance {p[mask].mean():.2f}, "
                f"over 1/2 at {100 * np.mean(p[mask] > 0.5):.0f} %, over 0.8 at "
                f"{100 * np.mean(p[mask] > 0.8):.0f} %"
            )
    if args.weights:
        x, y, _ = rows(True)
        x2, y2, _ = rows(False)
        w = knocker.logistic_fit(np.vstack([x, x2]), np.concatenate([y, y2]))
        Path(args.weights).write_text(json.dumps([round(v, 6) for v in w]) + "\n")


# --- play ------------------------------------------------------------------------------------


class Blended(MasterPlayer):
    """Master whose learned edge (before a game's finished hands show a knocker) mixes the
    knock learned against knockers and its own, with the chance :meth:`knocker_chance`."""

    level = "v-blend"
    weights: ClassVar[tuple[float, ...]] = ()
    prior = 0.0

    def knocker_chance(self, k: Knowledge) -> float:
        if not self.weights:
            return self.prior
        return knocker_chance(self.weights, knocker_signals(k.view))

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        if self.opponent_kind(k) is not None:
            return super().learned_edge(k, estimate0)
        p = self.knocker_chance(k)
        if p <= 0.0:
            return super().learned_edge(k, estimate0)
        knocker = self.style_knocks["knocker"]
        count = max(feature_count(self.knock_params), feature_count(knocker))
        x = self.chance_features(k, estimate0, count)
        return p * predicted_edge(x, knocker) + (1 - p) * predicted_edge(x, self.knock_params)


# --- the signals as knock features ----------------------------------------------------------

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
KNOCK_DATA = ("knock-positions.jsonl.gz", "knock-positions-3000.jsonl.gz")
"""Master's knock data, hands 0-2,999 and 3,000-5,999 of the ``kA`` run."""
BEFORE = 22
"""The knock features before the opponent's play (master's knock of 2026-12-03 has them)."""


def replay_hand(task: tuple[KnockSelfPlay, int]) -> list[list[float]]:
    """The signals at each chance of self-play hand ``i``, the hand played as the knock data's
    (:func:`ginrummy.learn.knock.positions_of_hand`) without the branches; the stock last."""
    job, i = task
    tag = f"{job.seed}/hand/{i}"
    state = deal(Rules.preset(job.preset), i % 2, shuffled_deck(tag))
    return rows_at_chances(
        state,
        job.players_of(i, tag),
        job.seats(i),
        lambda view: [*knock_signals(view), view.stock_size / 31.0],
    )


def replay(args: argparse.Namespace) -> None:
    rows = [r for hand in run_tasks(replay_hand, FIRST, args.hands, args.workers) for r in hand]
    Path(args.data).write_text(json.dumps(rows))
    print(f"{len(rows)} chances")


def extend(args: argparse.Namespace) -> None:
    """Master's knock data with the replayed signals as their last eight features, in place
    (what ``python -m ginrummy.learn knock`` writes, in a quarter of the time: it plays no
    branches; tests/test_ai_learned_knock.py checks the head of each file against it)."""
    rows = json.loads(Path(args.data).read_text())
    at = 0
    for name in KNOCK_DATA:
        data = read_data(DATA / name)
        part = rows[at : at + len(data)]
        at += len(data)
        if len(part) != len(data) or any(
            abs(r[-1] - p.features[4]) > 1e-9 for r, p in zip(part, data, strict=True)
        ):
            raise SystemExit(f"the replayed chances are not those of {name}")
        write_data(
            [
                replace(p, features=p.features[:BEFORE] + tuple(r[:-1]))
                for p, r in zip(data, part, strict=True)
            ],
            DATA / name,
        )
        print(f"{name}: {len(data)} chances")
    if at != len(rows):
        raise SystemExit("more replayed chances than the data hold")


def half_gains(
    data: Sequence[KnockPosition], design: Sequence[tuple[float, ...]], ridge: float = RIDGE
) -> list[list[float]]:
    """Least squares of the true edge on ``design`` (no further products), fitted on one half
    of the hands and scored on the other, both ways: the gains on each half."""
    target = [p.on - p.knock for p in data]
    half = len(data) // 2
    out = []
    halves = (slice(0, half), slice(half, None))
    for train, test in (halves, halves[::-1]):
        w = ridge_fit(design[train], target[train], ridge, products=False)
        knocks = [sum(a * b for a, b in zip(w, x, strict=True)) <= 0 for x in design[test]]
        out.append(gains_of(data[test], knocks))
    return out


def print_gains(rows: Sequence[tuple[str, list[list[float]]]], width: int) -> None:
    """Each row's mean gain on both halves, and its difference from the first row's paired
    per chance."""
    base = rows[0][1]
    for name, g in rows:
        cells = []
        for b, x in zip(base, g, strict=True):
            m, e = mean_and_error([v - u for u, v in zip(b, x, strict=True)])
            cells.append(f"{mean_and_error(x)[0]:+.2f} ({m:+.2f} ± {e:.2f})")
        print(f"{name:<{width}} " + "   ".join(cells))


def knock(args: argparse.Namespace) -> None:
    data = read_parts([DATA / name for name in KNOCK_DATA])
    if len(data[0].features) < len(KNOCK_FEATURES):
        raise SystemExit("the data have no signals yet: replay, then extend")
    features = [p.features for p in data]
    print_gains(
        [
            ("the 22 before", half_gains(data, [quadratic(x[:BEFORE]) for x in features])),
            (
                "and the signals, linear",
                half_gains(data, [quadratic(x[:BEFORE]) + x[BEFORE:] for x in features]),
            ),
            ("quadratic on all 30", half_gains(data, [quadratic(x) for x in features])),
        ],
        26,
    )


def pooled(args: argparse.Namespace) -> None:
    """Master's knock fitted on its self-play chances and on chances against knockers
    together (those weighted by each of ``--shares``), scored on each population's other
    half; ``--self-play`` other self-play data than ``tests/data``'s, ``--also`` more added
    to every fit; master's shipped knock scored first."""
    own = [Path(p) for p in args.self_play] or [DATA / name for name in KNOCK_DATA]
    ka = read_parts(own)
    ks = read_data(Path(args.knockers))
    extra = read_parts([Path(p) for p in args.also]) if args.also else []
    width = len(KNOCK_FEATURES)
    if min(len(ka[0].features), len(ks[0].features)) < width:
        raise SystemExit(f"both data need all {width} features")

    def halves(data: list[KnockPosition]) -> tuple[list[KnockPosition], list[KnockPosition]]:
        return data[: len(data) // 2], data[len(data) // 2 :]

    def scored(w: Sequence[float], test: list[KnockPosition]) -> str:
        knocks = [
            sum(a * b for a, b in zip(w, quadratic(p.features[:width]), strict=True)) <= 0
            for p in test
        ]
        return "{:+.2f} ± {:.2f}".format(*mean_and_error(gains_of(test, knocks)))

    a, k = halves(ka), halves(ks)
    print(f"{len(ka)} self-play chances, {len(ks)} against knockers; scored on the other half")
    shipped = knock_weights()
    cells = [scored(shipped, part) for pair in zip(a, k, strict=True) for part in pair]
    print(
        f"master's knock ({MASTER_KNOCK}): self-play {cells[0]} / {cells[2]}, "
        f"knockers {cells[1]} / {cells[3]}"
    )
    for share in args.shares:
        cells = []
        for i in (0, 1):
            w = fit(extra + a[1 - i], width, RIDGE, k[1 - i], share)
            cells += [scored(w, a[i]), scored(w, k[i])]
        print(
            f"share {share:g}: self-play {cells[0]} / {cells[2]}, knockers {cells[1]} / {cells[3]}"
        )
    if args.weights:
        w = fit(extra + ka, width, RIDGE, ks, args.shares[-1])
        Path(args.weights).write_text(json.dumps(list(w)) + "\n")


class Pooled(MasterPlayer):
    """Master whose learned knock (before a game shows a knocker) has the weights of
    ``pooled --weights``."""

    level = "v-pooled"
    knock_weights: ClassVar[tuple[float, ...]] = ()

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        if self.opponent_kind(k) is not None:
            return super().learned_edge(k, estimate0)
        x = quadratic(self.chance_features(k, estimate0, len(KNOCK_FEATURES)))
        return sum(w * v for w, v in zip(self.knock_weights, x, strict=True))


SHIPPED_KNOCKS = {"before": "knock-kA-extras", "self-play": "knock-kA-signals"}
"""Variants of master with another shipped knock: its knock of 2026-12-03 (22 features, no
signals), and the 30-feature knock fitted on self-play alone (no knockers' chances)."""


def variant(name: str, weights: Sequence[float]) -> str:
    """Register the variant ``name`` as a test level; its level name."""
    if name == "master":
        return name
    if name.startswith("pooled:"):
        path = name[len("pooled:") :]
        level = f"v-{name}"
        weighted = {"level": level, "knock_weights": tuple(json.loads(Path(path).read_text()))}
        TEST_LEVELS[level] = type("pooled", (Pooled,), weighted)
        return level
    if name in SHIPPED_KNOCKS:
        level = f"v-{name}"
        TEST_LEVELS[level] = type(
            name, (MasterPlayer,), {"level": level, "knock_params": SHIPPED_KNOCKS[name]}
        )
        return level
    if name == "told-knocker":
        prior = 1.0
    elif name.startswith("prior-"):
        prior = float(name[len("prior-") :])
    elif name == "detect":
        if not weights:
            raise SystemExit("detect needs --weights (from score)")
        prior = 0.0
    else:
        raise SystemExit(f"unknown variant {name!r}")
    level = f"v-{name}"
    cls = type(
        name,
        (Blended,),
        {"level": level, "prior": prior, "weights": tuple(weights) if name == "detect" else ()},
    )
    TEST_LEVELS[level] = cls
    return level


Variant = Callable[[str, Sequence[float]], str]
"""Registers a variant by its name on the command line; returns its level name."""


def add_play_arguments(parser: argparse.ArgumentParser, deals: int = 1000) -> None:
    """The arguments of :func:`play` (``bench/knock_playouts.py``, ``bench/master_variants.py``
    and ``bench/knocker_consistency.py`` play through it with variants of their own)."""
    parser.add_argument("against")
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--games", type=int, default=0, help="game pairs to 100 instead of deals")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", default="strength-2026")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--weights", default=None)
    parser.add_argument("--alone", action="store_true", help="the variants only, not master")


def play(args: argparse.Namespace, resolve: Variant = variant) -> None:
    """Master and the variants (named as ``resolve`` registers them) against one opponent on
    the same duplicate deals or game pairs, each variant paired with master."""
    weights = json.loads(Path(args.weights).read_text()) if args.weights else []
    names = ["master", *(v for v in args.variants if v != "master")]
    if args.alone:
        names = names[1:]
    levels = [resolve(v, weights) for v in names]
    rules = Rules.preset(args.preset)
    nets: dict[str, list[float]] = {}
    won: dict[str, list[float]] = {}
    for name, level in zip(names, levels, strict=True):
        started = time.monotonic()
        job = Job(level, args.against, rules, args.seed)
        if args.games:
            games = game_pairs(job, args.games, args.workers)
            hands = [[h for g in pair for h in g.hands] for pair in games]
            nets[name] = [sum(h.net for h in pair) / max(1, len(pair)) for pair in hands]
            won[name] = [sum(g.a_won for g in pair) / len(pair) for pair in games]
        else:
            pairs = deal_pairs_of(job, args.deals, args.workers)
            nets[name] = [sum(h.net for h in pair) / len(pair) for pair in pairs]
        line = f"{name:<13} vs {args.against}: {Interval.of(nets[name])} points a hand"
        if args.games:
            line += f", {100 * sum(won[name]) / len(won[name]):.1f} % of games"
        unit = "game pair" if args.games else "deal"
        if name != "master" and "master" in nets:
            diff = [a - b for a, b in zip(nets[name], nets["master"], strict=True)]
            line += f", minus master {Interval.of(diff)} (paired per {unit})"
            if args.games:
                wins = [100 * (a - b) for a, b in zip(won[name], won["master"], strict=True)]
                line += f", games won {Interval.of(wins)} % points"
        print(f"{line}   ({time.monotonic() - started:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("score")
    s.add_argument("data")
    s.add_argument("--weights", default=None, help="write the fit on all the data here")
    add_play_arguments(commands.add_parser("play"))
    r = commands.add_parser("replay")
    r.add_argument("data")
    r.add_argument("--hands", type=int, default=6000)
    r.add_argument("--workers", type=int, default=2)
    e = commands.add_parser("extend")
    e.add_argument("data")
    commands.add_parser("knock")
    po = commands.add_parser("pooled")
    po.add_argument("knockers", help="knock data against knockers with all the features")
    po.add_argument("--shares", type=float, nargs="+", default=[0.0, 0.5, 1.0])
    po.add_argument(
        "--self-play",
        dest="self_play",
        nargs="+",
        default=[],
        help="self-play knock data in parts, in order (default: the kA data of tests/data)",
    )
    po.add_argument(
        "--also",
        nargs="+",
        default=[],
        help="more self-play knock data added to every fit (not scored)",
    )
    po.add_argument("--weights", default=None, help="write the fit on all (the last share)")
    args = parser.parse_args()
    run = {
        "score": score,
        "play": play,
        "replay": replay,
        "extend": extend,
        "knock": knock,
        "pooled": pooled,
    }
    run[args.command](args)


if __name__ == "__main__":
    main()
