"""Master's draws on self-play, measured from the true state: collect, then score rules.

    python bench/draw_fit.py collect --seed dC --hands 4000 --margin 6 --workers 2 dC.jsonl.gz
    python bench/draw_fit.py score dC.jsonl.gz [more.jsonl.gz ...]

``collect`` plays master against itself (:mod:`ginrummy.learn.draw`) and at every draw
whose expert pile edge is within ``--margin`` deadwood points plays both draws from the true
state to the end of the hand; master searches those within its own ``draw_margin`` (3), so a
wider margin also measures the expert's rule just outside the searched window.

``score`` splits the positions into halves (the first and second half of the run's hands),
fits on one half and scores on the other, both ways. A rule's gain is the mean true value of
its draw minus the players' own, per draw (utility at 0-0), with its standard error, within
the searched window and outside it. Rules: the expert's estimate alone, the playouts alone,
and least-squares corrections of the pile's edge (linear, and with the features' products).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from ginrummy.ai.master import MasterPlayer, quadratic
from ginrummy.learn.draw import DrawPosition, DrawSelfPlay, collect, read_data, write_data
from ginrummy.learn.knock import ridge_fit

Rule = Callable[[DrawPosition], bool]
"""Whether a rule takes the pile at a position."""


def expert_edge(p: DrawPosition) -> float:
    return p.features[1] * 3.0


def search_edge(p: DrawPosition) -> float:
    return p.features[2] * 10.0


def gain(positions: Sequence[DrawPosition], pile: Rule) -> tuple[float, float, int]:
    """The mean true value of the rule's draws minus the players' own, its standard error,
    and how many positions."""
    diffs = []
    for p in positions:
        mine = p.pile if pile(p) else p.stock
        theirs = p.pile if p.chose_pile else p.stock
        diffs.append(mine - theirs)
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n), n


def least_squares(
    positions: Sequence[DrawPosition], products: bool, ridge: float
) -> Callable[[tuple[float, ...]], float]:
    """The pile's predicted true edge, fitted on ``positions`` (:func:`ridge_fit`)."""
    targets = [p.pile - p.stock for p in positions]
    w = ridge_fit([p.features for p in positions], targets, ridge, products)

    def predict(f: tuple[float, ...]) -> float:
        return sum(a * b for a, b in zip(w, quadratic(f) if products else f, strict=True))

    return predict


def score(paths: list[Path], ridge: float) -> None:
    positions = [p for path in paths for p in read_data(path)]
    half = len(positions) // 2
    halves = (positions[:half], positions[half:])
    window = MasterPlayer.draw_margin
    took = sum(p.chose_pile for p in positions) / len(positions)
    inside = sum(abs(expert_edge(p)) <= window for p in positions)
    print(
        f"{len(positions)} draws ({inside} within the searched window of {window:g}); "
        f"the players took the pile at {took:.1%}"
    )
    parts = (
        ("searched", lambda p: abs(expert_edge(p)) <= window),
        ("outside", lambda p: abs(expert_edge(p)) > window),
    )
    print(
        f"{'rule':<26}"
        + "".join(f"{f'{h} half, {n}':>34}" for h in ("first", "second") for n, _ in parts)
    )

    def show(name: str, rules: Sequence[Rule]) -> None:
        cells = []
        for part, pile in zip(halves, rules, strict=True):
            for _, inside_part in parts:
                mean, se, n = gain([p for p in part if inside_part(p)], pile)
                cells.append(f"{mean:+.2f} ± {se:.2f} ({n})")
        print(f"{name:<26}" + "".join(f"{c:>34}" for c in cells), flush=True)

    show("expert's estimate", [lambda p: expert_edge(p) > 0] * 2)
    show("playouts", [lambda p: search_edge(p) > 0] * 2)
    for products in (False, True):
        fitted = [
            least_squares(halves[1], products, ridge),
            least_squares(halves[0], products, ridge),
        ]
        name = "fit, products" if products else "fit, linear"
        show(f"{name} (other half)", [lambda p, f=f: f(p.features) > 0 for f in fitted])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", required=True)
    c.add_argument("--hands", type=int, required=True)
    c.add_argument("--margin", type=float, default=MasterPlayer.draw_margin)
    c.add_argument("--preset", default="classic")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--cluster", default=None)
    c.add_argument("out", type=Path)
    s = sub.add_parser("score")
    s.add_argument("data", nargs="+", type=Path)
    s.add_argument("--ridge", type=float, default=100.0)
    args = parser.parse_args()
    if args.command == "collect":
        job = DrawSelfPlay(args.seed, args.preset, args.margin)
        positions = collect(job, args.hands, args.workers, args.cluster, progress=True)
        write_data(positions, args.out)
        print(f"wrote {args.out}: {len(positions)} draws of {args.hands} hands")
    else:
        score(args.data, args.ridge)


if __name__ == "__main__":
    main()
