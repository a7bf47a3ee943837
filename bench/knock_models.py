"""Does a model other than master's ridge quadratic learn the knock better from the same data?

Master's learned knock (``params/knock-kA-mixed.json``) is a least-squares fit, quadratic in
the 30 features, of the true edge of playing on, on the ``kA`` self-play chances with the
chances against knockers at half weight (docs/ai.md, "Learned against knockers too"). This
fits other models on one half of each population's chances and scores them on the other
half, in utility a chance over the players' own choices, and paired per chance against the
quadratic with master's ridge:

    python bench/knock_models.py                   # the quadratic at other ridges
    python bench/knock_models.py --trees           # and gradient-boosted trees

``--trees`` needs scikit-learn (``pip install scikit-learn``; not a dependency of the
package: nothing shipped uses it). The figures are in docs/ai.md ("Other models of the
knock, and a knocker told by its missed chances").
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ginrummy.ai.master import KNOCK_FEATURES, quadratic
from ginrummy.learn.knock import RIDGE, KnockPosition, fit, gains_of, read_data, read_parts

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SELF_PLAY = ("knock-positions.jsonl.gz", "knock-positions-3000.jsonl.gz")
KNOCKERS = "knock-vs-knocker.jsonl.gz"
SHARE = 0.5
"""The weight of a chance against a knocker against a self-play one (master's)."""
TREES = (
    {"learning_rate": 0.05, "max_iter": 200, "max_leaf_nodes": 15, "min_samples_leaf": 100},
    {"learning_rate": 0.05, "max_iter": 400, "max_leaf_nodes": 15, "min_samples_leaf": 200},
    {"learning_rate": 0.03, "max_iter": 300, "max_leaf_nodes": 31, "min_samples_leaf": 200},
    {"learning_rate": 0.05, "max_iter": 150, "max_leaf_nodes": 7, "min_samples_leaf": 100},
)
"""The gradient-boosted trees tried (scikit-learn's ``HistGradientBoostingRegressor``, an
L2 penalty of 1 on the leaves)."""

Predict = Callable[[Sequence[KnockPosition]], list[float]]
Fitter = Callable[[Sequence[KnockPosition], Sequence[KnockPosition]], Predict]


def quadratic_fitter(ridge: float) -> Fitter:
    """Master's model: least squares on the features and their products (``ridge``)."""
    width = len(KNOCK_FEATURES)

    def fitter(own: Sequence[KnockPosition], knockers: Sequence[KnockPosition]) -> Predict:
        w = fit(own, width, ridge, knockers, SHARE)

        def predict(test: Sequence[KnockPosition]) -> list[float]:
            return [
                sum(a * b for a, b in zip(w, quadratic(p.features[:width]), strict=True))
                for p in test
            ]

        return predict

    return fitter


def trees_fitter(params: dict[str, Any]) -> Fitter:
    """Gradient-boosted regression trees on the 30 features (the knockers' chances weighted
    :data:`SHARE`), seeded."""

    def fitter(own: Sequence[KnockPosition], knockers: Sequence[KnockPosition]) -> Predict:
        import numpy as np
        from sklearn.ensemble import HistGradientBoostingRegressor  # type: ignore[import-untyped]

        rows = [*own, *knockers]
        x = np.array([p.features for p in rows])
        y = np.array([p.on - p.knock for p in rows])
        weight = np.array([1.0] * len(own) + [SHARE] * len(knockers))
        model = HistGradientBoostingRegressor(random_state=0, l2_regularization=1.0, **params)
        model.fit(x, y, sample_weight=weight)

        def predict(test: Sequence[KnockPosition]) -> list[float]:
            return [float(v) for v in model.predict(np.array([p.features for p in test]))]

        return predict

    return fitter


def mean_error(values: Sequence[float]) -> str:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return f"{mean:+.3f} ± {math.sqrt(var / n):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ridges", type=float, nargs="*", default=[30.0, 300.0, 1000.0])
    parser.add_argument("--trees", action="store_true", help="gradient-boosted trees too")
    args = parser.parse_args()
    own = read_parts([DATA / name for name in SELF_PLAY])
    knockers = read_data(DATA / KNOCKERS)

    def halves(data: list[KnockPosition]) -> tuple[list[KnockPosition], list[KnockPosition]]:
        return data[: len(data) // 2], data[len(data) // 2 :]

    a, k = halves(own), halves(knockers)
    models: list[tuple[str, Fitter]] = [(f"quadratic, ridge {RIDGE:g}", quadratic_fitter(RIDGE))]
    models += [(f"quadratic, ridge {r:g}", quadratic_fitter(r)) for r in args.ridges]
    if args.trees:
        models += [
            (
                "trees, rate {learning_rate}, {max_iter} trees of {max_leaf_nodes} leaves, "
                "{min_samples_leaf} a leaf".format(**p),
                trees_fitter(p),
            )
            for p in TREES
        ]
    print(
        f"{len(own)} self-play chances, {len(knockers)} against knockers (at {SHARE:g}); "
        "fitted on one half, scored on the other: self-play first / second half, knockers "
        "first / second half"
    )
    reference: list[list[float]] = []
    for name, fitter in models:
        gains: list[list[float]] = []
        for i in (0, 1):
            predict = fitter(a[1 - i], k[1 - i])
            for test in (a[i], k[i]):
                gains.append(gains_of(test, [e <= 0 for e in predict(test)]))
        # gains: self-play first half, knockers first half, then the second halves
        order = (0, 2, 1, 3)
        line = f"{name}: " + " / ".join(mean_error(gains[j]) for j in order)
        if reference:
            diffs = [[x - y for x, y in zip(gains[j], reference[j], strict=True)] for j in order]
            line += "; minus master's: " + " / ".join(mean_error(d) for d in diffs)
        else:
            reference = gains
        print(line, flush=True)


if __name__ == "__main__":
    main()
