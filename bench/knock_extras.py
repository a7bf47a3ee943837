"""Offline: would more features of a chance to knock make the learned knock better?

    python bench/knock_extras.py collect --hands 3000 --workers 2 kA-extras.pkl
    python bench/knock_extras.py score kA-extras.pkl
    python bench/knock_extras.py fit kA-extras.pkl kA-extras.json   # for knock_variants.py

The shipped learned knock (``params/knock-kA.json``) was fitted on the first nine features of
:data:`ginrummy.ai.master.KNOCK_FEATURES` at the 15,464 chances of the ``kA`` run, whose true
values ship in ``tests/data/knock-positions.jsonl.gz``. ``collect`` replays the run's hands
(the players are deterministic, so the chances come back in the data's order), recomputes
each chance's estimate with the data's probe seed (its nine features are checked against the
data) and adds ten more public features: the expected deadwood after one and after two draws
of the hand that plays on, the opposing deadwood over 64 plausible hands (its mean, the share
at 10 or less, at 20 or less), the turn, and over the knock's simulated deals the spread of
playing on's points, the share where playing on wins by gin or is ginned, and the deadwood
that plays on. ``score`` fits the quadratic correction on one half of the hands and scores it
on the other, both ways (utility a chance against the players' own choices), with the nine
features, the twelve of master's feature list, and each extra feature added.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
from pathlib import Path
from typing import Any

from ginrummy.ai.evaluate import (
    OpponentModel,
    draw_weights,
    expected_after_draw,
    expected_after_two_draws,
)
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer, knock_features, quadratic
from ginrummy.ai.strong import KnockEstimate
from ginrummy.arena import run_tasks
from ginrummy.cards import shuffled_deck
from ginrummy.engine.hand import deal
from ginrummy.learn.knock import (
    FIRST,
    MAX_ACTIONS,
    PLAYERS,
    KnockSelfPlay,
    gains_of,
    knock_chance,
    mean_and_error,
    read_data,
    ridge_fit,
)
from ginrummy.melds import deadwood_mask
from ginrummy.rules import Rules

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "knock-positions.jsonl.gz"
EXTRAS = (
    "after one draw",
    "after two draws",
    "opposing deadwood",
    "opposing <= 10",
    "opposing <= 20",
    "turn",
    "playing on's spread",
    "playing on gins",
    "playing on is ginned",
    "deadwood playing on",
)
Row = tuple[tuple[float, ...], tuple[float, ...]]


def features_of_hand(task: tuple[KnockSelfPlay, int]) -> list[Row]:
    """Every chance of hand ``i`` of the run: master's twelve features and the extras."""
    job, i = task
    tag = f"{job.seed}/hand/{i}"
    make = PLAYERS[job.players]
    players = job.players_of(i, tag)
    state = deal(Rules.preset(job.preset), i % 2, shuffled_deck(tag))
    out: list[Row] = []
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        chance = knock_chance(view) if seat in job.seats(i) else None
        if chance is not None:
            rng = random.Random(f"x/{i}/{len(out)}")
            out.append(chance_row(*chance, make, f"{tag}/probe/{len(out)}", rng))
        state = state.apply(players[seat].choose(view), seat)
    return out


def chance_row(
    k: Knowledge, options: dict[int, int], make: Any, probe_seed: str, rng: random.Random
) -> Row:
    probe = make(probe_seed)
    model = probe.model(k)
    est = probe.knock_estimate(k, options, model)
    again = make(probe_seed)  # the same deals, for their points
    points = again.simulate_knock_points(k, est.card, est.play_on, again.model(k))
    est = est._replace(points=tuple(points))
    return knock_features(k, est), extras(probe, k, options, model, est, rng)


def extras(
    player: MasterPlayer,
    k: Knowledge,
    options: dict[int, int],
    model: OpponentModel,
    est: KnockEstimate,
    rng: random.Random | None = None,
) -> tuple[float, ...]:
    """The ten extra features (:data:`EXTRAS`) of a chance, ``est`` with its per-deal points;
    the opposing hands are dealt from ``rng`` (by default a source seeded by the player and
    the position; the data's own seed is the chance's place in the run)."""
    kept = k.hand & ~(1 << est.play_on)
    draws = draw_weights(k, model.probability)
    sharpness = min(player.max_sharpness, player.sharpness_per_turn * (k.turn // 2))
    if rng is None:
        rng = random.Random(f"{player.seed}/extras/{k.turn}/{k.hand}")
    opposing = [deadwood_mask(opp) for opp, _ in model.deals(rng, 64, sharpness)]
    on = [b for _, b in est.points]
    return (
        expected_after_draw(kept, draws) / 10,
        expected_after_two_draws(kept, draws, k.knock_limit, player.knock_bonus) / 10,
        sum(opposing) / len(opposing) / 10,
        sum(d <= 10 for d in opposing) / len(opposing),
        sum(d <= 20 for d in opposing) / len(opposing),
        k.turn / 30,
        statistics.pstdev(on) / 10,
        sum(b >= 25 for b in on) / len(on),
        sum(b <= -25 for b in on) / len(on),
        options[est.play_on] / 10,
    )


def collect(args: argparse.Namespace) -> None:
    rows: list[Row] = []
    for got in run_tasks(features_of_hand, FIRST, args.hands, args.workers, True, "hand"):
        rows.extend(got)
    data = read_data(DATA)
    mismatched = sum(
        any(abs(a - b) > 1e-9 for a, b in zip(f[:9], p.features, strict=True))
        for (f, _), p in zip(rows, data, strict=False)
    )
    if mismatched:
        raise SystemExit(f"{mismatched} chances do not match the shipped data")
    with open(args.out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{len(rows)} chances, each matching the shipped data")


def score(args: argparse.Namespace) -> None:
    with open(args.data, "rb") as f:
        rows: list[Row] = pickle.load(f)
    data = read_data(DATA)[: len(rows)]
    half = len(rows) // 2
    halves = (range(half), range(half, len(rows)))

    def show(name: str, features: list[tuple[float, ...]]) -> None:
        cells = []
        for i in (0, 1):
            train, test = halves[1 - i], halves[i]
            w = ridge_fit(
                [features[j] for j in train],
                [data[j].on - data[j].knock for j in train],
                args.ridge,
            )
            knocks = [
                sum(a * b for a, b in zip(w, quadratic(features[j]), strict=True)) <= 0
                for j in test
            ]
            mean, error = mean_and_error(gains_of([data[j] for j in test], knocks))
            cells.append(f"{mean:+.2f} ± {error:.2f}")
        print(f"{name:<36}" + "".join(f"{c:>16}" for c in cells), flush=True)

    print(f"{len(rows)} chances; ridge {args.ridge:g}")
    show("nine features (as shipped)", [f[:9] for f, _ in rows])
    show("twelve features", [f for f, _ in rows])
    for j, name in enumerate(EXTRAS):
        show(f"nine + {name}", [f[:9] + x[j : j + 1] for f, x in rows])
    show("nine + every extra", [f[:9] + x for f, x in rows])
    show("twelve + every extra", [f + x for f, x in rows])


def fit(args: argparse.Namespace) -> None:
    """Weights on every feature and extra (all chances), for ``knock_variants.py extras``."""
    with open(args.data, "rb") as f:
        rows: list[Row] = pickle.load(f)
    data = read_data(DATA)[: len(rows)]
    weights = ridge_fit([f + x for f, x in rows], [p.on - p.knock for p in data], args.ridge)
    args.out.write_text(json.dumps({"ridge": args.ridge, "weights": weights}))
    print(f"{len(weights)} weights from {len(rows)} chances in {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--hands", type=int, default=3000)
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("out", type=Path)
    s = sub.add_parser("score")
    s.add_argument("--ridge", type=float, default=100.0)
    s.add_argument("data", type=Path)
    w = sub.add_parser("fit")
    w.add_argument("--ridge", type=float, default=100.0)
    w.add_argument("data", type=Path)
    w.add_argument("out", type=Path)
    args = parser.parse_args()
    {"collect": collect, "score": score, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
