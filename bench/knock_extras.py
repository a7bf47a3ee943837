"""Offline: how much does each of the learned knock's features add?

    python bench/knock_extras.py [--ridge 100]

The learned knocks are fitted on the 15,464 chances of the ``kA`` self-play run (shipped in
``tests/data/knock-positions.jsonl.gz`` with every feature of
:data:`ginrummy.ai.master.KNOCK_FEATURES` and both choices' true values): the first learned
knock (``params/knock-kA.json``) on the first nine, master's (``params/knock-kA-extras.json``)
on all 22. This fits the quadratic correction on one half of the hands and scores it on the
other, both ways (utility a chance against the players' own choices, with its standard
error), on the nine, on the first twelve, on the nine with each later feature added, and on
all of them. The figures are in docs/ai.md ("More features for the knock").
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ginrummy.ai.master import KNOCK_FEATURES, quadratic
from ginrummy.learn.knock import KnockPosition, gains_of, mean_and_error, read_data, ridge_fit

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "knock-positions.jsonl.gz"


def held_out(
    data: Sequence[KnockPosition], columns: Sequence[int], ridge: float
) -> list[tuple[float, float]]:
    """Fitted on one half of ``data`` (on the features ``columns``), the gain on the other:
    both ways, each as (mean, standard error)."""
    half = len(data) // 2
    halves = (range(half), range(half, len(data)))
    rows = [tuple(p.features[c] for c in columns) for p in data]
    out = []
    for i in (0, 1):
        train, test = halves[1 - i], halves[i]
        w = ridge_fit([rows[j] for j in train], [data[j].on - data[j].knock for j in train], ridge)
        knocks = [sum(a * b for a, b in zip(w, quadratic(rows[j]), strict=True)) <= 0 for j in test]
        out.append(mean_and_error(gains_of([data[j] for j in test], knocks)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ridge", type=float, default=100.0)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    data = read_data(args.data)
    width = len(data[0].features)
    print(f"{len(data)} chances, {width} features; ridge {args.ridge:g}")
    nine = list(range(9))
    rows = [("nine features (the first learned knock)", nine), ("twelve features", list(range(12)))]
    rows += [(f"nine + {KNOCK_FEATURES[j]}", [*nine, j]) for j in range(12, width)]
    rows += [("nine + the last ten", [*nine, *range(12, width)]), ("all", list(range(width)))]
    for name, columns in rows:
        cells = [f"{m:+.2f} ± {e:.2f}" for m, e in held_out(data, columns, args.ridge)]
        print(f"{name:<40}" + "".join(f"{c:>16}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
