"""The AI strength table: every level against the one below it and against ``baseline``.

Run (about 20 minutes on 2 cores): ``.venv/bin/python bench/strength_table.py --workers 2``

Plays duplicate deals with :func:`ginrummy.arena.run_arena` under ``classic`` (whose scoring
matches the research challenge's) and ``tournament``, ``--deals`` pairs per pairing, then
``master`` against ``baseline`` for ``--games`` pairs of whole games under ``classic``. Prints
a Markdown table (for the README) and writes every result to ``--json``.
"""

from __future__ import annotations

import argparse
import json
import time

import ginrummy
from ginrummy.arena import ArenaResult, run_arena

PAIRINGS = [
    ("normal", "easy"),
    ("hard", "normal"),
    ("expert", "hard"),
    ("master", "expert"),
    ("easy", "baseline"),
    ("normal", "baseline"),
    ("hard", "baseline"),
    ("expert", "baseline"),
    ("master", "baseline"),
    ("master", "master-2026-11"),
]
"""``master-2026-11`` plays exactly as ``master`` did in November 2026 (its decisions are
pinned by tests/test_ai_frozen.py), so its rows against ``expert`` and ``baseline`` are the
earlier master rows: with the same seed they reproduce exactly and need not be played again
(``--only master-2026-11`` plays them)."""
TARGETS = {
    ("hard", "baseline"): 1.5,
    ("expert", "baseline"): 3.0,
    ("master", "baseline"): 4.0,
    ("master", "master-2026-11"): 1.5,
}


def row(r: ArenaResult) -> str:
    p = r.points_per_hand
    target = TARGETS.get((r.a, r.b))
    need = f">= +{target:g}" if target else "> 0" if r.b != "baseline" or r.a != "easy" else "-"
    clear = "yes" if p.low > 0 else "no"
    s = r.style_a
    return (
        f"| {r.preset} | {r.a} vs {r.b} | {p.mean:+.2f} | [{p.low:+.2f}, {p.high:+.2f}] | {clear} "
        f"| {need} | {100 * s.gin:.1f} % | {100 * s.undercut:.1f} % | {100 * s.knock:.1f} % "
        f"| {s.mean_deadwood_at_knock:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="strength-2026")
    parser.add_argument("--json", default="strength.json")
    parser.add_argument("--presets", default="classic,tournament")
    parser.add_argument(
        "--only",
        default="",
        help="play only the pairings with this level (after a change to it alone, the other "
        "rows reproduce exactly)",
    )
    args = parser.parse_args()
    results = []
    lines = [
        "| preset | pairing | points/hand | 95 % CI | CI clear of 0 | needed | gin | undercut "
        "| knock | dw at knock |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for preset in args.presets.split(","):
        rules = ginrummy.Rules.preset(preset)
        for a, b in PAIRINGS:
            if args.only and args.only not in (a, b):
                continue
            start = time.time()
            r = run_arena(a, b, rules, deals=args.deals, seed=args.seed, workers=args.workers)
            results.append(r.to_dict())
            lines.append(row(r))
            print(lines[-1], f"({time.time() - start:.0f} s)", flush=True)
    games = [("master", "baseline"), ("master", "master-2026-11")]
    for a, b in games if args.games else []:
        if args.only and args.only not in (a, b):
            continue
        start = time.time()
        g = run_arena(
            a,
            b,
            ginrummy.Rules.preset("classic"),
            games=args.games,
            seed=args.seed,
            workers=args.workers,
        )
        results.append(g.to_dict())
        w = g.game_win_rate
        assert w is not None
        print(
            f"{a} vs {b}, classic, {2 * args.games} games to 100: {a} wins "
            f"{100 * w.mean:.1f} % [{100 * w.low:.1f}, {100 * w.high:.1f}], "
            f"{g.points_per_hand} points a hand ({time.time() - start:.0f} s)",
            flush=True,
        )
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1, default=str)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
