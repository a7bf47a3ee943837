"""Can master tell, within one hand, an opponent that knocks at once from one that does not?

In a game master adapts to a knocker once the finished hands show it (docs/ai.md, "Adapting
to the opponent"); a single deal, or a game's first hand, shows none. This asks whether the
hand itself tells, from what the opponent does in public, and what knowing would be worth.

    python bench/knocker_signals.py collect --hands 1500 --workers 2 signals.json.gz
    python bench/knocker_signals.py score signals.json.gz --weights signals-fit.json
    python bench/knocker_signals.py play baseline told-knocker --deals 1000 --workers 2
    python bench/knocker_signals.py play master-2026-11 prior-0.4 detect --weights ...

* ``collect``: ``master`` plays ``--hands`` hands against each of :data:`OPPONENTS` (classic;
  hand ``i`` dealt from ``<seed>/<opponent>/<i>``, master in seat ``i % 2``); at each of its
  chances to knock it notes :func:`signals` of the opponent's public play so far this hand.
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
  gives, ``--weights``).

    python bench/knocker_signals.py replay --hands 6000 kA-signals.json
    python bench/knocker_signals.py knock kA-signals.json --weights knock-signals.json
    python bench/knocker_signals.py play master-2026-11 knock-signals --weights knock-signals.json

* ``replay``: the same signals at every chance of master's knock data (the ``kA`` self-play
  hands, replayed without their branches, so in the order of ``tests/data``'s positions).
* ``knock``: master's learned knock fitted with the signals as eight more features (fitted on
  one half of the hands, scored on the other, against the shipped 22); ``--weights`` writes
  the fit on all. The variant ``knock-signals`` of ``play`` knocks by it (``--weights``).

The figures are in docs/ai.md ("Telling a knocker within one hand", "The opponent's play as
knock features").
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from ginrummy.ai import TEST_LEVELS, player
from ginrummy.ai.base import Player
from ginrummy.ai.knowledge import Knowledge, joins_meld
from ginrummy.ai.master import (
    KNOCK_FEATURES,
    MasterPlayer,
    feature_count,
    predicted_edge,
    quadratic,
)
from ginrummy.ai.strong import KnockEstimate
from ginrummy.arena import Interval, Job, deal_pairs_of, run_tasks
from ginrummy.cards import POINTS, parse_card, shuffled_deck
from ginrummy.engine.hand import HandState, deal
from ginrummy.learn.knock import (
    FIRST,
    MAX_ACTIONS,
    RIDGE,
    KnockSelfPlay,
    gains_of,
    knock_chance,
    mean_and_error,
    read_data,
    ridge_fit,
)
from ginrummy.rules import Rules
from ginrummy.views import PlayerView

OPPONENTS = ("baseline", "style-knock", "master", "master-2026-11", "expert")
KNOCKERS = ("baseline", "style-knock")
SIGNALS = (
    "turns",
    "takes",
    "low_takes",
    "low_discards",
    "rises",
    "took_then_threw",
    "discard_points",
    "feeds",
    "stock",
)
"""What :func:`signals` measures of the opponent's play this hand: its discards so far, its
draws from the pile, those of 4 points or less, its discards of 5 points or less, discards of
more points than its previous one, cards it took from the pile and threw later, the mean
points of its discards, its discards that would join a meld of this seat's hand, and the
stock left."""


def signals(view: PlayerView) -> tuple[float, ...]:
    """:data:`SIGNALS` of ``view``'s opponent, from the public history of this hand (and the
    seat's own hand, for ``feeds``)."""
    seat = view.seat
    mine = Knowledge(view).hand
    turns = takes = low_takes = low_discards = rises = threw_taken = feeds = points = 0
    taken: set[int] = set()
    last = -1
    for event in view.history:
        if event.seat == seat:
            continue
        kind, _, named = event.action.partition(" ")
        if event.card is not None and kind in ("take", "pile"):
            card = int(event.card)
            takes += 1
            taken.add(card)
            low_takes += POINTS[card % 13] <= 4
        elif kind == "discard":
            card = int(parse_card(named))
            p = POINTS[card % 13]
            turns += 1
            points += p
            rises += 0 <= last < p
            last = p
            low_discards += p <= 5
            threw_taken += card in taken
            feeds += joins_meld(card, mine)
    return (
        float(turns),
        float(takes),
        float(low_takes),
        float(low_discards),
        float(rises),
        float(threw_taken),
        points / max(1, turns),
        float(feeds),
        float(view.stock_size),
    )


def design(x: Sequence[float]) -> list[float]:
    """The regression's inputs from :data:`SIGNALS`: a bias, the signals, each per discard
    of the opponent's, and the square of its discards (at most 12) over ten."""
    turns = max(1.0, x[0])
    return [1.0, *x, *(v / turns for v in x), min(12.0, x[0]) ** 2 / 10]


def knocker_chance(weights: Sequence[float], x: Sequence[float]) -> float:
    z = sum(w * v for w, v in zip(weights, design(x), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


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


# --- collect ---------------------------------------------------------------------------------


def signals_of_hand(task: tuple[tuple[str, str], int]) -> list[list[float]]:
    (seed, opponent), i = task
    tag = f"{seed}/{opponent}/{i}"
    me = i % 2
    players = {me: player("master", f"{tag}/m"), 1 - me: player(opponent, f"{tag}/o")}
    state = deal(Rules.preset("classic"), i // 2 % 2, shuffled_deck(tag))
    return rows_at_chances(state, players, (me,), lambda view: list(signals(view)))


def collect(args: argparse.Namespace) -> None:
    out: dict[str, list[list[list[float]]]] = {}
    for opponent in OPPONENTS:
        started = time.monotonic()
        hands = run_tasks(signals_of_hand, (args.seed, opponent), args.hands, args.workers)
        out[opponent] = list(hands)
        chances = sum(len(h) for h in out[opponent])
        print(f"{opponent}: {chances} chances ({time.monotonic() - started:.0f} s)", flush=True)
    with gzip.open(args.data, "wt", encoding="utf-8") as f:
        json.dump({"seed": args.seed, "signals": SIGNALS, "hands": out}, f)


# --- score -----------------------------------------------------------------------------------


def logistic_fit(x: Any, y: Any, ridge: float = 1e-3) -> Any:
    """Newton's method for a logistic regression (a small ridge on every weight)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / len(y) + ridge * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def score(args: argparse.Namespace) -> None:
    import numpy as np

    with gzip.open(args.data, "rt", encoding="utf-8") as f:
        data = json.load(f)["hands"]

    def rows(first: bool) -> tuple[Any, Any, list[str]]:
        xs, ys, who = [], [], []
        for opponent, hands in data.items():
            half = len(hands) // 2
            for hand in hands[:half] if first else hands[half:]:
                for x in hand:
                    xs.append(design(x))
                    ys.append(1.0 if opponent in KNOCKERS else 0.0)
                    who.append(opponent)
        return np.array(xs), np.array(ys), who

    for first in (True, False):
        x, y, _ = rows(first)
        tx, ty, who = rows(not first)
        w = logistic_fit(x, y)
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
        w = logistic_fit(np.vstack([x, x2]), np.concatenate([y, y2]))
        Path(args.weights).write_text(json.dumps([round(float(v), 6) for v in w]) + "\n")


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
        return knocker_chance(self.weights, signals(k.view))

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
SCALE = (10.0, 3.0, 2.0, 3.0, 3.0, 1.0, 10.0, 3.0)
"""The first eight :data:`SIGNALS` are divided by these as knock features (the stock is one
already)."""


def knock_signals(view: PlayerView) -> tuple[float, ...]:
    """The first eight :data:`SIGNALS` of ``view``'s opponent, scaled as knock features."""
    return tuple(v / s for v, s in zip(signals(view)[: len(SCALE)], SCALE, strict=True))


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


def knock(args: argparse.Namespace) -> None:
    data = [p for name in KNOCK_DATA for p in read_data(DATA / name)]
    rows = json.loads(Path(args.data).read_text())
    if len(rows) != len(data) or any(
        abs(r[-1] - p.features[4]) > 1e-9 for r, p in zip(rows, data, strict=True)
    ):
        raise SystemExit("the replayed chances are not the knock data's")
    extended = [tuple(p.features) + tuple(r[:-1]) for p, r in zip(data, rows, strict=True)]
    target = [p.on - p.knock for p in data]
    half = len(data) // 2
    shipped = len(KNOCK_FEATURES)

    def gains(design: list[tuple[float, ...]]) -> list[list[float]]:
        """Fitted (no further products) on one half of the hands, the gains on the other,
        both ways."""
        out = []
        halves = (slice(0, half), slice(half, None))
        for train, test in (halves, halves[::-1]):
            w = ridge_fit(design[train], target[train], RIDGE, products=False)
            knocks = [sum(a * b for a, b in zip(w, x, strict=True)) <= 0 for x in design[test]]
            out.append(gains_of(data[test], knocks))
        return out

    base = gains([quadratic(x[:shipped]) for x in extended])
    for name, g in (
        ("the shipped 22", base),
        (
            "and the signals, linear",
            gains([quadratic(x[:shipped]) + x[shipped:] for x in extended]),
        ),
        ("quadratic on all 30", gains([quadratic(x) for x in extended])),
    ):
        cells = []
        for b, x in zip(base, g, strict=True):
            m, e = mean_and_error([v - u for u, v in zip(b, x, strict=True)])
            cells.append(f"{mean_and_error(x)[0]:+.2f} ({m:+.2f} ± {e:.2f})")
        print(f"{name:<26} " + "   ".join(cells))
    if args.weights:
        w = ridge_fit(extended, target, RIDGE)
        Path(args.weights).write_text(json.dumps(w) + "\n")


class KnockSignals(MasterPlayer):
    """Master whose learned knock (not against a knocker) has the opponent's play this hand
    (:func:`knock_signals`) as eight more features."""

    level = "v-knock-signals"
    knock_weights: ClassVar[tuple[float, ...]] = ()

    def learned_edge(self, k: Knowledge, estimate0: KnockEstimate) -> float:
        if self.opponent_kind(k) is not None:
            return super().learned_edge(k, estimate0)
        x = self.chance_features(k, estimate0) + knock_signals(k.view)
        return sum(w * v for w, v in zip(self.knock_weights, quadratic(x), strict=True))


def variant(name: str, weights: Sequence[float]) -> str:
    """Register the variant ``name`` as a test level; its level name."""
    if name == "master":
        return name
    if name == "knock-signals":
        if not weights:
            raise SystemExit("knock-signals needs --weights (from knock)")
        KnockSignals.knock_weights = tuple(weights)
        TEST_LEVELS[KnockSignals.level] = KnockSignals
        return KnockSignals.level
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


def play(args: argparse.Namespace) -> None:
    weights = json.loads(Path(args.weights).read_text()) if args.weights else []
    names = ["master", *(v for v in args.variants if v != "master")]
    levels = [variant(v, weights) for v in names]
    rules = Rules.preset(args.preset)
    nets: dict[str, list[float]] = {}
    for name, level in zip(names, levels, strict=True):
        started = time.monotonic()
        job = Job(level, args.against, rules, args.seed)
        pairs = deal_pairs_of(job, args.deals, args.workers)
        nets[name] = [sum(h.net for h in pair) / len(pair) for pair in pairs]
        line = f"{name:<13} vs {args.against}: {Interval.of(nets[name])} points a hand"
        if name != "master":
            diff = [a - b for a, b in zip(nets[name], nets["master"], strict=True)]
            line += f", minus master {Interval.of(diff)} (paired per deal)"
        print(f"{line}   ({time.monotonic() - started:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("collect")
    c.add_argument("data")
    c.add_argument("--hands", type=int, default=1500, help="hands against each opponent")
    c.add_argument("--seed", default="signals")
    c.add_argument("--workers", type=int, default=2)
    s = commands.add_parser("score")
    s.add_argument("data")
    s.add_argument("--weights", default=None, help="write the fit on all the data here")
    p = commands.add_parser("play")
    p.add_argument("against")
    p.add_argument("variants", nargs="+")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--preset", default="classic")
    p.add_argument("--seed", default="strength-2026")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--weights", default=None)
    r = commands.add_parser("replay")
    r.add_argument("data")
    r.add_argument("--hands", type=int, default=6000)
    r.add_argument("--workers", type=int, default=2)
    kn = commands.add_parser("knock")
    kn.add_argument("data")
    kn.add_argument("--weights", default=None, help="write the fit on all the data here")
    args = parser.parse_args()
    run = {"collect": collect, "score": score, "play": play, "replay": replay, "knock": knock}
    run[args.command](args)


if __name__ == "__main__":
    main()
