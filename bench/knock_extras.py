"""Offline: how much does each of the learned knock's features add?

    python bench/knock_extras.py [--ridge 100]

The learned knocks are fitted on the 15,464 chances of the ``kA`` self-play run (shipped in
``tests/data/knock-positions.jsonl.gz`` with every feature of
:data:`ginrummy.ai.master.KNOCK_FEATURES` and both choices' true values): the first learned
knock (``params/knock-kA.json``) on the first nine, master's of 2026-12-03
(``params/knock-kA-extras.json``) on the first 22 (``--width``; the last eight, the
opponent's play, are ``bench/knocker_signals.py knock``'s). This fits the quadratic correction
on one half of the hands and scores it on the other, both ways (utility a chance against the
players' own choices, with its standard error), on the nine, on the first twelve, on the nine
with each later feature added, and on all of them. The figures are in docs/ai.md ("More
features for the knock").

    python bench/knock_extras.py --more tests/data/knock-positions-3000.jsonl.gz

asks instead what more data give: on all the features, the fit on one half alone and on that
half with every position of ``--more`` (the run's next 3,000 hands), each scored on the other
half, with the difference paired per chance; then the same with the two files' roles swapped.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ginrummy.ai.master import KNOCK_FEATURES, quadratic
from ginrummy.learn.knock import KnockPosition, gains_of, mean_and_error, read_data, ridge_fit

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "knock-positions.jsonl.gz"


def fitted_gains(
    train: Sequence[KnockPosition],
    test: Sequence[KnockPosition],
    columns: Sequence[int],
    ridge: float,
) -> list[float]:
    """Fitted on ``train`` (on the features ``columns``), the gain at each chance of ``test``."""
    rows = [tuple(p.features[c] for c in columns) for p in train]
    w = ridge_fit(rows, [p.on - p.knock for p in train], ridge)
    knocks = [
        sum(a * b for a, b in zip(w, quadratic(tuple(p.features[c] for c in columns)), strict=True))
        <= 0
        for p in test
    ]
    return gains_of(test, knocks)


def cell(mean: float, error: float) -> str:
    return f"{mean:+.2f} ± {error:.2f}"


def halves(
    data: Sequence[KnockPosition],
) -> tuple[Sequence[KnockPosition], Sequence[KnockPosition]]:
    """The first and the second half of ``data`` (by hands: the data are in hand order)."""
    half = len(data) // 2
    return data[:half], data[half:]


def held_out(
    data: Sequence[KnockPosition], columns: Sequence[int], ridge: float
) -> list[tuple[float, float]]:
    """Fitted on one half of ``data`` (on the features ``columns``), the gain on the other:
    both ways, each as (mean, standard error)."""
    parts = halves(data)
    return [mean_and_error(fitted_gains(parts[1 - i], parts[i], columns, ridge)) for i in (0, 1)]


def with_more(
    data: Sequence[KnockPosition], more: Sequence[KnockPosition], width: int, ridge: float
) -> None:
    """Prints, for each half of ``data``, the gain of the fit on the other half alone and on
    it with all of ``more`` (on the first ``width`` features), and their difference paired per
    chance."""
    columns = list(range(width))
    parts = halves(data)
    for i in (0, 1):
        alone = fitted_gains(parts[1 - i], parts[i], columns, ridge)
        both = fitted_gains([*parts[1 - i], *more], parts[i], columns, ridge)
        difference = [b - a for a, b in zip(alone, both, strict=True)]
        cells = [cell(*mean_and_error(v)) for v in (alone, both, difference)]
        print(f"half {i + 1}: alone {cells[0]}, with the rest {cells[1]}, difference {cells[2]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ridge", type=float, default=100.0)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--more", type=Path, default=None)
    parser.add_argument("--width", type=int, default=22, help="use the first this many features")
    args = parser.parse_args()
    data = read_data(args.data)
    width = min(args.width, len(data[0].features))
    if args.more is not None:
        more = read_data(args.more)
        print(f"{len(data)} and {len(more)} chances; ridge {args.ridge:g}")
        print(f"scored on {args.data.name}:")
        with_more(data, more, width, args.ridge)
        print(f"scored on {args.more.name}:")
        with_more(more, data, width, args.ridge)
        return
    print(f"{len(data)} chances, {width} features; ridge {args.ridge:g}")
    nine = list(range(9))
    rows = [("nine features (the first learned knock)", nine), ("twelve features", list(range(12)))]
    rows += [(f"nine + {KNOCK_FEATURES[j]}", [*nine, j]) for j in range(12, width)]
    rows += [("nine + the last ten", [*nine, *range(12, width)]), ("all", list(range(width)))]
    for name, columns in rows:
        cells = [cell(m, e) for m, e in held_out(data, columns, args.ridge)]
        print(f"{name:<40}" + "".join(f"{c:>16}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
