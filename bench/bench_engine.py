"""Benchmark the ginrummy engine, and the peer engines OpenSpiel and RLCard when installed.

Run: ``.venv/bin/python bench/bench_engine.py [--quick] [--runs N] [--seconds S] [--data DIR]``

Workloads, on the two fixed hand sets of ``bench/data`` (its README.md: ``uniform`` is generated
from its seed, ``play`` is stored; both are checked against the published sets' fingerprints):

* ``10``: minimal deadwood of a 10-card hand (ours: ``melds.deadwood_mask``);
* ``11``: best discard of an 11-card hand (ours: ``melds.best_discard_mask``; the peers: the
  best of eleven 10-card evaluations, as bench/data/README.md defines it);
* ``random play``: whole hands of uniformly random legal play, shuffle and deal included.

Hands are converted to each engine's encoding before timing. The CPU speed of the benchmark
machines drifts a lot, so each cell (engine x workload) runs once per round, round-robin,
for ``--runs`` rounds; the tables give the median and the best. Every value timed is also
checked: ours against OpenSpiel on every hand, against RLCard on its subset. The exit status
is 1 if any value disagrees or a hand set is not the published one. The peers' published
figures on these sets (``bench/data/peer_figures.json``) are printed beside ours.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import ginrummy
from ginrummy.cards import mask_of
from ginrummy.melds import best_discard_mask, deadwood_mask

RANKS = "A23456789TJQK"
SETS = ("uniform", "play")
DATA = Path(__file__).resolve().parent / "data"
DECK = [r + s for s in "shdc" for r in RANKS]
FINGERPRINTS = {
    "uniform": "5332024ad60758a728e149b28c4065ab68d225cb7adfb76d776f077944ec7260",
    "play": "5917c98e29caaf86451e173c0f6d41b398132138d394e177fa9fcb560ba52ebd",
}
"""SHA-256 of ``json.dumps([hands10, hands11], separators=(",", ":"))`` of the published sets."""
# The published mean minimal deadwood of each set and size (bench/data/README.md).
README_MEANS = {"uniform 10": 56.6, "uniform 11": 50.4, "play 10": 39.3, "play 11": 30.3}
# Targets: least acceptable speed-up (peer time / our time), and our least hands per second.
TARGETS = {("OpenSpiel", "10"): 1.0, ("OpenSpiel", "11"): 3.0, ("RLCard", "11"): 30.0}
TARGET_HANDS_PER_S = 1000.0
INSTALL_HINT = "install with: pip install open-spiel rlcard"

HandSet = dict[str, list[list[str]]]
"""``{"hands10": [...], "hands11": [...]}``, each hand a list of card strings."""
Timer = Callable[[], tuple[int, float]]
"""Runs a workload once and returns (items done, seconds taken)."""
Key = tuple[str, str, int]
"""A cell: (engine, workload, hands per loop); workloads "uniform 10", ..., "random play"."""


@dataclass
class Engine:
    """How one engine encodes a hand and runs each workload."""

    name: str
    encode: Callable[[list[str]], Any]
    """Converts a hand of card strings to the engine's argument."""
    dw10: Callable[[Any], Any]
    best11: Callable[[Any], Any]
    play_one: Callable[[int], object]
    """Plays one whole random hand; the argument numbers the hand (0, 1, 2, ...)."""
    limit: int | None = None
    """Timed hands per set (None: all)."""


def uniform_hands() -> HandSet:
    """The ``uniform`` set, generated exactly as it was made (bench/data/README.md)."""
    rng = random.Random(12345)
    hands10 = [rng.sample(DECK, 10) for _ in range(20000)]
    hands11 = [rng.sample(DECK, 11) for _ in range(20000)]
    return {"hands10": hands10, "hands11": hands11}


def read_hands(path: Path) -> HandSet:
    """A set stored as text: ``#`` comments, then one hand a line, cards separated by spaces."""
    hands: HandSet = {"hands10": [], "hands11": []}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            cards = line.split()
            hands[f"hands{len(cards)}"].append(cards)
    return hands


def load_sets(data: Path | None) -> tuple[dict[str, HandSet], str]:
    """The hand sets by name, and where they came from: ``bench/data`` (``uniform`` generated,
    ``play`` read), or the ``hands_<set>.json`` files of the directory ``data``."""
    if data is not None:
        sets = {s: json.loads((data / f"hands_{s}.json").read_text()) for s in SETS}
        return sets, str(data.resolve())
    sets = {"uniform": uniform_hands(), "play": read_hands(DATA / "hands_play.txt")}
    return sets, "uniform generated from random.Random(12345), play from bench/data/hands_play.txt"


def fingerprint(hands: HandSet) -> str:
    """The SHA-256 a set is checked by (:data:`FINGERPRINTS`)."""
    text = json.dumps([hands["hands10"], hands["hands11"]], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def loop_timer(fn: Callable[[Any], Any], items: Sequence[Any]) -> Timer:
    """A timer calling ``fn`` once on each item, in a plain Python loop."""

    def run() -> tuple[int, float]:
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        return len(items), time.perf_counter() - t0

    return run


def play_timer(play_one: Callable[[int], object], seconds: float) -> Timer:
    """A timer playing whole hands for ``seconds``; hand numbers continue across runs."""
    counter = itertools.count()

    def run() -> tuple[int, float]:
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            play_one(next(counter))
            n += 1
        return n, time.perf_counter() - t0

    return run


def ours() -> Engine:
    """The ginrummy engine."""
    rules = ginrummy.Rules.preset("tournament")
    rng = random.Random(0)

    def play_one(i: int) -> object:
        state = ginrummy.deal(rules, i % 2, ginrummy.shuffled_deck(f"bench-{i}"))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        return state

    def encode(hand: list[str]) -> int:
        return mask_of(ginrummy.parse_cards(hand))

    return Engine("ginrummy", encode, deadwood_mask, best_discard_mask, play_one)


def open_spiel() -> list[Engine]:
    """OpenSpiel's C++ gin_rummy utilities (pybind), and its single-call 11-card heuristic."""
    try:
        import pyspiel  # type: ignore
    except ImportError:
        return []
    # card int = suit * 13 + rank, suits "scdh", ranks A..K = 0..12
    enc = {r + s: "scdh".index(s) * 13 + RANKS.index(r) for r in RANKS for s in "scdh"}
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    min_deadwood: Callable[[list[int]], int] = utils.min_deadwood

    def best11(h: list[int]) -> int:
        return min(min_deadwood(h[:i] + h[i + 1 :]) for i in range(11))

    root = pyspiel.load_game("gin_rummy").new_initial_state()  # ~3 ms: clone it instead
    rng = random.Random(0)

    def play_one(_i: int) -> object:
        state = root.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state

    # "OS 1-call": one min_deadwood call on the 11 cards, a heuristic that can miss the best
    # discard on meld-dense hands; timed as an extra, never compared.
    return [
        Engine("OpenSpiel", lambda h: [enc[c] for c in h], min_deadwood, best11, play_one),
        Engine("OS 1-call", lambda h: [enc[c] for c in h], min_deadwood, min_deadwood, play_one),
    ]


def rlcard_engine(limit: int) -> Engine | None:
    """RLCard's pure-Python gin_rummy melding code and game."""
    try:
        import numpy as np
        from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore
        from rlcard.games.gin_rummy.utils import melding, utils  # type: ignore
    except ImportError:
        return None
    # Card(rank, suit); card_id = rank + 13 * suit, suits in the order S, H, D, C
    enc = {
        r + s: utils.get_card(RANKS.index(r) + 13 * "shdc".index(s)) for r in RANKS for s in "shdc"
    }

    def dw10(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand)
        if not clusters:  # no meld at all: every card is deadwood
            return sum(utils.get_deadwood_value(c) for c in hand)
        return int(utils.get_deadwood_count(hand, clusters[0]))

    def best11(h: list[Any]) -> int:
        return min(dw10(h[:i] + h[i + 1 :]) for i in range(11))

    game = GinRummyGame()
    game.np_random = np.random.RandomState(0)
    rng = random.Random(0)

    def play_one(_i: int) -> object:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
        return game

    return Engine("RLCard", lambda h: [enc[c] for c in h], dw10, best11, play_one, limit)


def fmt(x: float) -> str:
    """A number with about three significant digits."""
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def make_cells(
    engines: list[Engine], hands: dict[str, list[list[str]]], seconds: float
) -> tuple[dict[Key, Timer], dict[Key, list[Any]]]:
    """The timers and the values they compute, keyed by (engine, workload, hands per loop).

    The keys are ordered so that the cells compared with each other run next to each other.
    Ours gets a cell per hand count the peers use, so every ratio compares the same hands.
    The untimed pass computing the values doubles as the warm-up; random play has ``0`` hands.
    """
    timers: dict[Key, Timer] = {}
    values: dict[Key, list[Any]] = {}
    for w, strings in hands.items():
        counts = sorted({len(strings[: e.limit]) for e in engines}, reverse=True)
        for e in engines:
            for k in counts if e is engines[0] else [len(strings[: e.limit])]:
                if e.name == "OS 1-call" and w.endswith("10"):
                    continue
                items = [e.encode(h) for h in strings[:k]]
                fn = e.dw10 if w.endswith("10") else e.best11
                values[e.name, w, k] = [fn(h) for h in items]
                timers[e.name, w, k] = loop_timer(fn, items)
    for e in engines:
        if e.name != "OS 1-call":
            e.play_one(-1)
            timers[e.name, "random play", 0] = play_timer(e.play_one, seconds)
    return timers, values


def check(hands: dict[str, list[list[str]]], values: dict[Key, list[Any]]) -> bool:
    """Print the mean minimal deadwood and the disagreements; True if there are none."""
    print("\n== correctness: mean minimal deadwood; disagreements with ours / hands compared ==")
    ok = True
    for w, strings in hands.items():
        mine = values["ginrummy", w, len(strings)]
        dws = [v if w.endswith("10") else v[0] for v in mine]
        line = f"{w:10s}  ginrummy {statistics.mean(dws):.2f} (published: {README_MEANS[w]})"
        if w.endswith("11"):  # the discard we name must leave the deadwood we report
            masks = [mask_of(ginrummy.parse_cards(h)) for h in strings]
            bad = sum(
                deadwood_mask(m ^ (1 << c)) != d for m, (d, c) in zip(masks, mine, strict=True)
            )
            line += f"; our discard wrong {bad}"
            ok &= bad == 0
        examples = []
        for (name, w2, k), theirs in values.items():
            if name != "ginrummy" and w2 == w:
                bad_at = [i for i in range(k) if dws[i] != theirs[i]]
                line += f"; {name} {len(bad_at)}/{k}"
                if name != "OS 1-call":
                    ok &= not bad_at
                    examples += [(name, i, theirs[i]) for i in bad_at[:3]]
        print(line)
        for name, i, theirs in examples:
            print(f"    {' '.join(strings[i])}: ginrummy {dws[i]}, {name} {theirs}")
    return ok


def report(times: dict[Key, list[float]], runs: int) -> None:
    """Print the time table, the speed-ups and the targets."""
    names = list(dict.fromkeys(name for name, _w, _k in times))
    print(f"\n== time per hand: median (best) of {runs} interleaved rounds ==")
    print(f"{'':24s}" + "".join(f"{n:>17s}" for n in names))
    for w, k in dict.fromkeys((w, k) for _n, w, k in times):
        row = f"{w:11s} {'hands/s' if k == 0 else f'µs, {k} hands':>12s}"
        for n in names:
            ts = times.get((n, w, k))
            if ts is None:
                row += f"{'-':>17s}"
                continue
            med, best = statistics.median(ts), min(ts)
            med, best = (1 / med, 1 / best) if k == 0 else (med * 1e6, best * 1e6)
            row += f"{fmt(med) + ' (' + fmt(best) + ')':>17s}"
        print(row)
    peers = {key: ts for key, ts in times.items() if key[0] not in ("ginrummy", "OS 1-call")}
    if peers:
        print(
            "\n== speed-up: peer time / our time; median of the per-round ratios (best / best) =="
        )
        print("(random play: our hands/s / theirs)")
    for (name, w, k), ts in peers.items():
        mine = times["ginrummy", w, k]
        med = statistics.median(t / m for t, m in zip(ts, mine, strict=True))
        best = min(ts) / min(mine)
        line = f"{w:11s} vs {name:9s} {fmt(med):>6s}x ({fmt(best)}x)"
        target = TARGETS.get((name, w[-2:]))
        if target:
            line += f"  target >= {target:g}x: {verdict(med, best, target)}"
        print(line)
    ts = times["ginrummy", "random play", 0]
    med, best = 1 / statistics.median(ts), 1 / min(ts)
    print(
        f"ginrummy random play {med:.0f} hands/s median ({best:.0f} best), "
        f"target >= {TARGET_HANDS_PER_S:.0f}: {verdict(med, best, TARGET_HANDS_PER_S)}"
    )


def report_published(times: dict[Key, list[float]]) -> None:
    """Print the peers' published figures on these hand sets beside our median."""
    published = json.loads((DATA / "peer_figures.json").read_text())["engines"]
    print("\n== the peers' published figures on these sets (bench/data/peer_figures.json) ==")
    print("(quoted, not measured in this run: another machine and day; µs per hand)")
    print(f"{'':11s}{'ginrummy now':>14s}" + "".join(f"{n + ' published':>22s}" for n in published))
    for w in dict.fromkeys(w for n, w, _k in times if n == "ginrummy" and w != "random play"):
        k = max(k for n, w2, k in times if n == "ginrummy" and w2 == w)
        mine = statistics.median(times["ginrummy", w, k]) * 1e6
        row = f"{w:11s}{fmt(mine):>14s}"
        for figures in published.values():
            theirs = figures.get(w)
            row += (
                f"{'-':>22s}"
                if theirs is None
                else f"{f'{fmt(theirs)} ({fmt(theirs / mine)}x)':>22s}"
            )
        print(row)


def verdict(median: float, best: float, target: float) -> str:
    """Whether the median and the best figure reach ``target``."""
    m, b = ("ok" if x >= target else "MISSED" for x in (median, best))
    return m if m == b else f"{m} on the median, {b} on the best"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="DIR",
        help="read hands_uniform.json and hands_play.json from DIR (default: bench/data)",
    )
    ap.add_argument("--runs", type=int, help="interleaved rounds (default 5, quick 1)")
    ap.add_argument("--seconds", type=float, help="random play per engine and round (5, quick 1)")
    ap.add_argument("--limit", type=int, default=None, help="hands per set (default all)")
    ap.add_argument("--rl-limit", type=int, default=2000, help="RLCard hands per set (2000)")
    ap.add_argument("--quick", action="store_true", help="smoke run: 2000 hands, 1 round, 1 s")
    args = ap.parse_args()
    if args.quick:
        args.limit = args.limit or 2000
    args.runs = args.runs or (1 if args.quick else 5)
    args.seconds = args.seconds or (1.0 if args.quick else 5.0)

    os_engines, rl = open_spiel(), rlcard_engine(args.rl_limit)
    engines = [ours(), *os_engines, *([rl] if rl else [])]
    about = [f"ginrummy {ginrummy.__version__}", f"Python {platform.python_version()}"]
    about += [
        f"{p} {version(p)}" for p, there in (("open-spiel", os_engines), ("rlcard", rl)) if there
    ]
    print(" | ".join(about))
    for peer, there in (("OpenSpiel (pyspiel)", os_engines), ("RLCard (rlcard)", rl)):
        if not there:
            print(f"{peer} is not installed, so not compared; {INSTALL_HINT}")

    data, source = load_sets(args.data)
    published = {s: fingerprint(data[s]) == FINGERPRINTS[s] for s in SETS}
    hands = {f"{s} {n}": data[s][f"hands{n}"][: args.limit] for n in (10, 11) for s in SETS}
    print(f"data: {source}; {len(hands['play 10'])} hands per set and size")
    for s, same in published.items():
        if not same:
            print(f"the {s} hands are NOT the published set (fingerprint differs)")
    if rl:
        k = len(hands["play 10"][: args.rl_limit])
        print(f"RLCard is slow: timed and checked on the first {k} hands per set (--rl-limit)")
    if os_engines:
        print("OS 1-call: one OpenSpiel min_deadwood call on 11 cards (a heuristic; not compared)")
    timers, values = make_cells(engines, hands, args.seconds)
    ok = check(hands, values) and all(published.values())

    print(f"\ntiming {args.runs} interleaved rounds ...", flush=True)
    times: dict[Key, list[float]] = {key: [] for key in timers}
    for _ in range(args.runs):
        for key, timer in timers.items():
            count, secs = timer()
            times[key].append(secs / count)
    report(times, args.runs)
    report_published(times)
    if not ok:
        print("DISAGREEMENTS: see the correctness table and the data line")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
