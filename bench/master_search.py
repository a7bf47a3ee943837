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
    rules = ginrummy.Rules.preset(args.preset)
    specs = args.variants.split("/")
    nets: dict[str, list[float]] = {}
    for spec in specs:
        spec = spec.replace(";", ",")
        level = register(spec.replace(":", "_").replace(",", "_").replace("=", ""), spec)
        start = time.perf_counter()
        job = Job(level, args.opponent, rules, args.seed)
        pairs = list(_run(_deal_worker, job, args.deals, args.workers, False, "deal pair"))
        nets[spec] = [(p[0].net + p[1].net) / 2 for p in pairs]
        line = f"{spec:<40} vs {args.opponent}: {interval(nets[spec])}"
        if len(nets) > 1:
            first = next(iter(nets.values()))
            diff = [a - b for a, b in zip(nets[spec], first, strict=True)]
            changed = sum(1 for d in diff if d)
            line += f"   minus {specs[0]}: {interval(diff)} ({changed} pairs differ)"
        print(f"{line}   [{time.perf_counter() - start:.0f} s]", flush=True)
    print(f"seed {args.seed}, {args.deals} deal pairs, {args.preset}")


if __name__ == "__main__":
    main()
