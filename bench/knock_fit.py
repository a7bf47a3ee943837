"""Offline: how much a learned knock gains on knock chances it was not fitted on.

    python bench/knock_fit.py tests/data/knock-vs-knocker.jsonl.gz --features 9,12

Reads positions written by ``python -m ginrummy.learn knock --data`` (every chance to knock
with both choices' true values, :mod:`ginrummy.learn.knock`), splits them into halves (the
first and second half of the run's hands), fits on one half and scores on the other, both
ways. A rule's gain is the mean true value of its choices minus the players' own choices,
per chance (utility at 0-0), with its standard error. Rules: the simulations' verdict alone
(knock unless playing on simulates better), each shipped parameter file whose features the
data hold, and fits on the first N features (``--features``).
"""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path

from ginrummy.ai.master import KNOCK_FEATURES, learned_params, quadratic
from ginrummy.learn.knock import RIDGE, KnockPosition, fit, gains_of, mean_and_error, read_data


def gains(positions: list[KnockPosition], knock: list[bool]) -> tuple[float, float]:
    """The mean gain of ``knock`` over the players' choices, and its standard error."""
    return mean_and_error(gains_of(positions, knock))


def rule(weights: list[float] | tuple[float, ...], width: int, p: KnockPosition) -> bool:
    x = quadratic(p.features[:width])
    return sum(w * f for w, f in zip(weights, x, strict=True)) <= 0


def shipped() -> list[str]:
    folder = resources.files("ginrummy.ai").joinpath("params")
    return sorted(Path(f.name).stem for f in folder.iterdir() if f.name.startswith("knock"))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--features", default=f"9,{len(KNOCK_FEATURES)}")
    parser.add_argument("--ridge", type=float, default=RIDGE)
    args = parser.parse_args()
    positions = [p for path in args.data for p in read_data(path)]
    width = len(positions[0].features)
    half = len(positions) // 2
    halves = (positions[:half], positions[half:])
    knocked = sum(p.chose_knock for p in positions) / len(positions)
    print(f"{len(positions)} chances, {width} features; the players knocked at {knocked:.1%}")
    print(f"{'rule':<28} {'first half':>18} {'second half':>18}")

    def show(name: str, choose: list[list[bool]]) -> None:
        cells = []
        for part, knock in zip(halves, choose, strict=True):
            mean, se = gains(part, knock)
            cells.append(f"{mean:+.2f} ± {se:.2f}")
        print(f"{name:<28} {cells[0]:>18} {cells[1]:>18}", flush=True)

    # features 1 and 2: the simulations' values of knocking and of playing on
    show("simulations", [[p.features[1] >= p.features[2] for p in part] for part in halves])
    for name in shipped():
        features, weights = learned_params(name)
        if len(features) <= width:
            show(name, [[rule(weights, len(features), p) for p in part] for part in halves])
    for n in (int(v) for v in args.features.split(",")):
        if n > width:
            continue
        fitted = [fit(halves[1], n, args.ridge), fit(halves[0], n, args.ridge)]
        show(
            f"fit on {n} (other half)",
            [[rule(w, n, p) for p in part] for part, w in zip(halves, fitted, strict=True)],
        )


if __name__ == "__main__":
    main()
