"""Master's ordinary discards: an evaluation learned from playouts of real positions, and
the two-draw search that is kept.

Run: ``.venv/bin/python bench/learn_discards.py collect --hands 20000 --seed learn1 --out
/tmp/d.jsonl``, then ``fit /tmp/d.jsonl --features expected,danger,deadwood,deadwood_late``,
then ``play "expected=-1.51,danger=-2.03,deadwood=1.08,deadwood_late=-2.73" --seed L3``;
and ``two-step --seed T1`` for the search ``master`` plays.

``collect`` plays hands of ``--policy`` (``expert``) against itself on random decks, classic
rules. At up to two ordinary discards per hand (a discard that does not end the hand, about
one in four picked) it branches: each of the expert ranking's best few discards (within
``--margin`` points of the best, at most ``--candidates``) is played, and the hand is played
out to its end by the same level on both sides, the same player seeds in every branch, from
the true state (the real opponent hand, the real stock order). The hand's points for the
deciding seat are the value of that discard under the players' own policy: no sampled
beliefs and no stand-in playout policy, the two faults of the live searches in
``bench/discard_search.py``. Each candidate's features (from the seat's own knowledge only)
are written with its value, one decision per line.

``fit`` regresses, within each decision, the value difference of every candidate from the
expert's choice on the difference of their features (least squares, no intercept), prints
the weights with their standard errors, and the gain per decision of choosing by them on one
half of the hands when fitted on the other.

``play`` plays ``master`` choosing among the same candidates by given weights against
``master`` with the expert's discards, both against ``expert`` on the same duplicate deal
pairs; ``two-step`` does the same for ``master`` as it plays (its two-draw discard search).
The figures are in docs/ai.md.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from typing import Any, ClassVar

import ginrummy
from ginrummy.ai import player
from ginrummy.ai.base import discard_options
from ginrummy.ai.evaluate import draw_weights, expected_after_draw
from ginrummy.ai.knowledge import Knowledge, meld_outs
from ginrummy.ai.master import MasterPlayer
from ginrummy.cards import POINTS, shuffled_deck
from ginrummy.engine.hand import HandState, deal
from ginrummy.melds import deadwood_mask

BASE = ("expected", "danger", "points", "deadwood", "live_outs")
FEATURES = BASE + tuple(f"{name}_late" for name in BASE)
"""The base features, then each times how far the hand has gone (0 at the deal, 1 with the
stock empty)."""


def base_features(k: Knowledge, me: MasterPlayer, card: int, draws: Any, model: Any) -> list[float]:
    """What the seat knows about discarding ``card``: the expert's two terms (expected
    deadwood after the next draw, knock bonus included; the chance the card melds for the
    opponent), the card's points, the deadwood kept, and the live cards that would join a
    meld of the kept hand."""
    kept = k.hand & ~(1 << card)
    expected = expected_after_draw(kept, draws, k.knock_limit, me.knock_bonus)
    danger = model.usefulness(card)
    points = POINTS[card % 13]
    live = (meld_outs(kept) & k.unseen).bit_count()
    return [expected, danger, points, deadwood_mask(kept), live]


def expand(base: list[float], stock: int) -> list[float]:
    late = 1.0 - stock / 31.0
    return base[: len(BASE)] + [x * late for x in base[: len(BASE)]]


def features(k: Knowledge, me: MasterPlayer, card: int, draws: Any, model: Any) -> list[float]:
    return expand(base_features(k, me, card, draws, model), k.stock_size)


def _finish(state: HandState, seed: str, seat: int, policy: str) -> int:
    players = {s: player(policy, f"{seed}/{s}") for s in (0, 1)}
    while not state.is_over:
        to_act = state.to_act
        assert to_act is not None
        state = state.apply(players[to_act].choose(state.view(to_act)), to_act)
        if state.action_count > 2000:
            return 0
    r = state.result
    assert r is not None
    return 0 if r.winner is None else (r.points if r.winner == seat else -r.points)


def collect_hand(args: tuple[str, int, float, int, str]) -> list[dict[str, Any]]:
    seed, candidates, margin, per_hand, policy = args
    rules = ginrummy.Rules.preset("classic")
    rng = random.Random(seed)
    state = deal(rules, rng.randrange(2), shuffled_deck(seed))
    players = {s: player(policy, f"{seed}/p{s}") for s in (0, 1)}
    analyst = MasterPlayer(f"{seed}/analyst")
    out: list[dict[str, Any]] = []
    while not state.is_over and len(out) < per_hand:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if view.phase == "discard" and rng.random() < 0.25:
            k = Knowledge(view)
            options = discard_options(k)
            model = analyst.model(k)
            assert model is not None
            if len(view.legal_actions) == len(options):  # no knock or gin possible
                draws = draw_weights(k, model.probability)
                scored = analyst.scored_discards(k, k.hand, options, draws, model)
                best = scored[0][0]
                chosen = [c for s, c in scored if s <= best + margin][:candidates]
                if len(chosen) >= 2:
                    tag = f"{seed}/branch/{state.action_count}"
                    rows = [
                        {
                            "card": c,
                            "score": s,
                            "x": base_features(k, analyst, c, draws, model),
                            "value": _finish(
                                state.apply(f"discard {ginrummy.Card(c)}"), tag, seat, policy
                            ),
                        }
                        for s, c in scored
                        if c in chosen
                    ]
                    out.append(
                        {
                            "seed": seed,
                            "at": state.action_count,
                            "stock": k.stock_size,
                            "rows": rows,
                        }
                    )
        state = state.apply(players[seat].choose(view), seat)
    return out


def collect(
    hands: int, seed: str, out: str, workers: int, candidates: int, margin: float, policy: str
) -> None:
    jobs = [(f"{seed}/{i}", candidates, margin, 2, policy) for i in range(hands)]
    done = 0
    with open(out, "w") as f, multiprocessing.Pool(workers) as pool:
        for decisions in pool.imap_unordered(collect_hand, jobs, chunksize=4):
            for d in decisions:
                f.write(json.dumps(d) + "\n")
            done += 1
            if done % 200 == 0:
                print(f"{done} hands", file=sys.stderr, flush=True)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _load(path: str) -> list[dict[str, Any]]:
    with open(path) as f:
        return [json.loads(line) for line in f]


def _weights(decisions: list[dict[str, Any]], idx: list[int]) -> tuple[list[float], list[float]]:
    """Least squares of value differences on feature differences within each decision:
    the weights and their standard errors."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for d in decisions:
        rows = d["rows"]
        xb = expand(rows[0]["x"], d["stock"])
        for r in rows[1:]:
            xr = expand(r["x"], d["stock"])
            xs.append([xr[i] - xb[i] for i in idx])
            ys.append(r["value"] - rows[0]["value"])
    n, p = len(ys), len(idx)
    xtx = [[sum(x[i] * x[j] for x in xs) for j in range(p)] for i in range(p)]
    xty = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(p)]
    w = solve(xtx, xty)
    resid = [
        y - sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x, y in zip(xs, ys, strict=True)
    ]
    s2 = sum(r * r for r in resid) / max(1, n - p)
    inv = [solve(xtx, [1.0 if i == j else 0.0 for i in range(p)]) for j in range(p)]
    return w, [math.sqrt(s2 * inv[j][j]) for j in range(p)]


def _gain(decisions: list[dict[str, Any]], idx: list[int], w: list[float]) -> tuple[float, float]:
    """Mean value of the candidate the weights choose minus the expert's choice, per decision,
    with its standard error."""
    gains = []
    for d in decisions:
        rows = d["rows"]

        values = [expand(r["x"], d["stock"]) for r in rows]
        scores = [sum(wi * x[i] for wi, i in zip(w, idx, strict=True)) for x in values]
        best = max(range(len(rows)), key=lambda j: (scores[j], -j))
        gains.append(rows[best]["value"] - rows[0]["value"])
    mean = sum(gains) / len(gains)
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
    return mean, sd / math.sqrt(len(gains))


def fit(path: str, names: list[str]) -> None:
    idx = [FEATURES.index(n) for n in names]
    decisions = _load(path)
    w, se = _weights(decisions, idx)
    print(f"{len(decisions)} decisions")
    for name, wi, e in zip(names, w, se, strict=True):
        print(f"  {name:16s} {wi:+.3f} ± {e:.3f}")
    print("  as an argument: " + ",".join(f"{n}={wi:.4g}" for n, wi in zip(names, w, strict=True)))
    # two-fold cross-validation by hand: fit on one half, choose on the other
    halves = [[d for d in decisions if hash_half(d["seed"]) == h] for h in (0, 1)]
    for h in (0, 1):
        wh, _ = _weights(halves[h], idx)
        mean, err = _gain(halves[1 - h], idx, wh)
        print(f"  held-out gain per decision (fit on half {h}): {mean:+.3f} ± {err:.3f}")


def hash_half(seed: str) -> int:
    return int(seed.rsplit("/", 1)[1]) % 2


class LearnedMaster(MasterPlayer):
    """``master`` whose ordinary discard is the candidate (as in ``collect``) with the best
    learned value."""

    level = "master-learned"
    weights: ClassVar[dict[str, float]] = {}

    def best_discard(self, k: Knowledge, options: dict[int, int], model: Any) -> int:
        draws, chosen = self.discard_choices(k, options, model)
        if len(chosen) < 2:
            return chosen[0]
        w = [self.weights.get(name, 0.0) for name in FEATURES]

        def value(card: int) -> float:
            x = features(k, self, card, draws, model)
            return sum(a * b for a, b in zip(w, x, strict=True))

        return max(chosen, key=lambda c: (value(c), -chosen.index(c)))


class OneDrawMaster(MasterPlayer):
    """``master`` as it was before its two-draw discard search: the expert's discards."""

    level = "master-one-draw"
    discard_search = False


def play_two_step(deals: int, seed: str, workers: int, preset: str) -> None:
    """``master`` (two-draw discard search) against ``master`` with the expert's discards."""
    from ginrummy.ai import LEVELS
    from master_search import compare

    LEVELS["master-one-draw"] = OneDrawMaster
    levels = {"one-draw": "master-one-draw", "two-draw": "master"}
    compare(levels, "expert", ginrummy.Rules.preset(preset), seed, deals, workers)


def play(weights: str, deals: int, seed: str, workers: int, preset: str) -> None:
    from ginrummy.ai import LEVELS
    from master_search import compare

    LearnedMaster.weights = {
        name: float(v) for name, _, v in (item.partition("=") for item in weights.split(","))
    }
    assert set(LearnedMaster.weights) <= set(FEATURES), LearnedMaster.weights
    LEVELS["master-learned"] = LearnedMaster
    LEVELS["master-one-draw"] = OneDrawMaster
    levels = {"one-draw": "master-one-draw", "learned": "master-learned"}
    compare(levels, "expert", ginrummy.Rules.preset(preset), seed, deals, workers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--hands", type=int, default=1000)
    c.add_argument("--seed", default="learn")
    c.add_argument("--out", required=True)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--candidates", type=int, default=3)
    c.add_argument("--margin", type=float, default=4.0)
    c.add_argument("--policy", default="expert", help="the level playing every hand out")
    f = sub.add_parser("fit")
    f.add_argument("path")
    f.add_argument("--features", default=",".join(FEATURES))
    g = sub.add_parser("play")
    g.add_argument("weights", help="e.g. expected=-0.6,danger_late=-20")
    g.add_argument("--deals", type=int, default=2000)
    g.add_argument("--seed", default="learned")
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--preset", default="classic")
    t = sub.add_parser("two-step")
    t.add_argument("--deals", type=int, default=2000)
    t.add_argument("--seed", default="two-step")
    t.add_argument("--workers", type=int, default=2)
    t.add_argument("--preset", default="classic")
    a = ap.parse_args()
    if a.cmd == "collect":
        collect(a.hands, a.seed, a.out, a.workers, a.candidates, a.margin, a.policy)
    elif a.cmd == "fit":
        fit(a.path, a.features.split(","))
    elif a.cmd == "two-step":
        play_two_step(a.deals, a.seed, a.workers, a.preset)
    else:
        play(a.weights, a.deals, a.seed, a.workers, a.preset)


if __name__ == "__main__":
    main()
