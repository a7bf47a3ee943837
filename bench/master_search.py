"""Variants of ``master``'s search against ``expert`` on duplicate deals, paired per deal.

Run: ``.venv/bin/python bench/master_search.py --deals 1500 --seed s1 --variants old/new``

Every variant plays the same deal pairs (the arena's decks and player seeds) against
``expert``; printed per variant: points per hand with its 95 % CI, and the paired difference
from the first variant (the same deals, so most of the luck cancels), with its 95 % CI.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import ginrummy
from ginrummy.ai import LEVELS
from ginrummy.ai.master import MasterPlayer
from ginrummy.arena import Job, _deal_worker, _run

VARIANTS: dict[str, dict[str, object]] = {
    "old": {"draw_search": False},  # master before the draw search: expert + knock search
    "new": {},
}


def register(name: str, spec: str) -> str:
    """Register a variant level ``master-<name>``; spec like ``new:draw_margin=2.0``."""
    base, _, extra = spec.partition(":")
    attrs = dict(VARIANTS[base])
    for item in filter(None, extra.split(",")):
        key, _, value = item.partition("=")
        default = getattr(MasterPlayer, key)
        attrs[key] = (
            value in ("1", "True", "true") if isinstance(default, bool) else type(default)(value)
        )
    level = f"master-{name}"
    LEVELS[level] = type(f"Master_{name}", (MasterPlayer,), {"level": level, **attrs})
    return level


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def compare(
    levels: dict[str, str],
    opponent: str,
    rules: ginrummy.Rules,
    seed: str,
    deals: int,
    workers: int,
) -> None:
    """Play each level (by its label) against ``opponent`` on the same deal pairs and print
    its points per hand, and from the second on its paired difference from the first."""
    nets: dict[str, list[float]] = {}
    for label, level in levels.items():
        start = time.perf_counter()
        job = Job(level, opponent, rules, seed)
        pairs = list(_run(_deal_worker, job, deals, workers, False, "deal pair"))
        nets[label] = [(p[0].net + p[1].net) / 2 for p in pairs]
        line = f"{label:<40} vs {opponent}: {interval(nets[label])}"
        first = next(iter(nets))
        if label != first:
            diff = [a - b for a, b in zip(nets[label], nets[first], strict=True)]
            changed = sum(1 for d in diff if d)
            line += f"   minus {first}: {interval(diff)} ({changed} pairs differ)"
        print(f"{line}   [{time.perf_counter() - start:.0f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", default="s1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument(
        "--variants",
        default="old/new",
        help="'/'-separated variants, each old or new, then optionally ':' and attribute "
        "overrides separated by ';' (e.g. new:draw_margin=2.0;search_samples=96)",
    )
    parser.add_argument("--opponent", default="expert")
    args = parser.parse_args()
    levels = {}
    for spec in args.variants.split("/"):
        spec = spec.replace(";", ",")
        levels[spec] = register(spec.replace(":", "_").replace(",", "_").replace("=", ""), spec)
    rules = ginrummy.Rules.preset(args.preset)
    compare(levels, args.opponent, rules, args.seed, args.deals, args.workers)
    print(f"seed {args.seed}, {args.deals} deal pairs, {args.preset}")


if __name__ == "__main__":
    main()
