"""Where the gins come from: the card the loser just discarded, or the stock.

``ends``: duplicate deal pairs of A against B (the arena's deals and player seeds); every hand
that ended by a knock or gin counted by who ended it, how, and the ender's last draw (the
pile's card, which the other side had just discarded, or the stock), with A's points::

    python bench/gin_feeds.py ends master master-2026-11 --deals 600 --seed fd-1

``calibration``: the same deals with master as A; at each of its ordinary discards (not
ending the hand), for each card its two-draw search compares, the share of 64 plausible
opposing hands (its beliefs) that go gin at once with the card, against whether the real
opposing hand does; and how many gins master fed that another of its candidates would not
have, or that the candidate least likely to feed gin by its beliefs would not have::

    python bench/gin_feeds.py calibration master-2026-11 --deals 300 --seed fc-1

The figures are in docs/ai.md ("Feeding gin", 2026-12-06, an eighth session).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass

from ginrummy import Rules
from ginrummy.ai.evaluate import OpponentModel
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.ai.sim import greedy_discard
from ginrummy.arena import Job, deal_pair_states, dealt_hand, run_tasks, seated_players

FEED_HANDS = 64
"""Plausible opposing hands behind the estimated chance that a discard feeds gin."""
BUCKETS = (0.0, 0.05, 0.1, 0.2, 0.4, 1.0)
"""The upper ends of the calibration's buckets of the estimated chance."""


def gins_with(opposing: int, card: int) -> bool:
    """Whether an opposing hand that takes ``card`` from the pile can go gin at once."""
    return greedy_discard(opposing | 1 << card, card)[0] == 0


def ends_of_pair(task: tuple[Job, int]) -> Counter[str]:
    job, i = task
    out: Counter[str] = Counter()
    for a_seat, state in enumerate(deal_pair_states(job, i)):
        r = state.result
        assert r is not None
        out["hands"] += 1
        if r.winner is None or r.knocker is None:
            continue
        side = "A" if r.knocker == a_seat else "B"
        draws = [e for e in state.history if e.seat == r.knocker and e.action != "discard"]
        last = next((e.action for e in reversed(draws) if e.action in ("stock", "pile")), "-")
        key = f"{side} {r.kind} after {last}"
        out[key] += 1
        out[f"{key}/points"] += r.points if r.winner == a_seat else -r.points
    return out


def ends(args: argparse.Namespace) -> None:
    job = Job(args.a, args.b, Rules.preset(args.preset), args.seed)
    total: Counter[str] = Counter()
    for counts in run_tasks(ends_of_pair, job, args.deals, args.workers):
        total.update(counts)
    hands = total.pop("hands")
    print(f"{args.a} (A) against {args.b} (B), {args.deals} deal pairs, seed {args.seed}")
    print(f"{'ended by, how, after':<26} {'hands':>6} {'share':>7} {'points':>8} {'a hand':>7}")
    for key in sorted(k for k in total if "/" not in k):
        n, points = total[key], total[f"{key}/points"]
        print(f"{key:<26} {n:>6} {n / hands:>7.1%} {points:>+8} {points / hands:>+7.3f}")


@dataclass(slots=True)
class Discard:
    """One of master's ordinary discards: its candidates (the chosen one first), each one's
    estimated chance of feeding gin, and whether it truly would have."""

    candidates: list[int]
    estimated: dict[int, float]
    feeds: dict[int, bool]


class FeedWatcher(MasterPlayer):
    """Master noting, at each ordinary discard, its candidates and each one's estimated
    chance of feeding gin (a random source of its own: its play is master's)."""

    noted: tuple[list[int], dict[int, float]] | None = None

    def best_discard(
        self, k: Knowledge, options: dict[int, int], model: OpponentModel | None
    ) -> int:
        chosen = super().best_discard(k, options, model)
        self.noted = None
        if model is not None:
            _, candidates = self.discard_choices(k, options, model)
            rng = random.Random(f"{self.seed}/feeds/{k.turn}/{k.hand}")
            hands = [o for o, _ in model.deals(rng, FEED_HANDS, self.belief_sharpness(k))]
            cards = [chosen, *(c for c in candidates if c != chosen)]
            estimated = {c: sum(gins_with(o, c) for o in hands) / len(hands) for c in cards}
            self.noted = (cards, estimated)
        return chosen


def discards_of_pair(task: tuple[Job, int]) -> list[Discard]:
    job, i = task
    out = []
    for a_seat in (0, 1):
        players = seated_players(job, i, a_seat, FeedWatcher)
        master = players[a_seat]
        assert isinstance(master, FeedWatcher)
        state = dealt_hand(job, i)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            master.noted = None
            action = players[seat].choose(state.view(seat))
            if seat == a_seat and master.noted is not None and action.startswith("discard"):
                cards, estimated = master.noted
                opposing = state.hand_mask(1 - a_seat)
                feeds = {c: gins_with(opposing, c) for c in cards}
                out.append(Discard(cards, estimated, feeds))
            state = state.apply(action, seat)
    return out


def calibration(args: argparse.Namespace) -> None:
    job = Job("master", args.b, Rules.preset(args.preset), args.seed)
    rows = [d for ds in run_tasks(discards_of_pair, job, args.deals, args.workers) for d in ds]
    print(f"master against {args.b}, {args.deals} deal pairs, seed {args.seed}:")
    print(f"{len(rows)} ordinary discards, {sum(len(d.candidates) > 1 for d in rows)} searched")
    buckets: dict[float, list[float]] = {top: [0, 0.0, 0] for top in BUCKETS}
    for d in rows:
        for c in d.candidates:
            e = d.estimated[c]
            top = next(t for t in BUCKETS if e <= t)
            buckets[top][0] += 1
            buckets[top][1] += e
            buckets[top][2] += d.feeds[c]
    print(f"{'estimated chance':<18} {'cards':>6} {'estimated':>10} {'fed gin':>8}")
    low = -1.0
    for top, (n, e, fed) in buckets.items():
        name = "0" if top == 0 else f"{low:.2f} to {top:.2f}"
        if n:
            print(f"{name:<18} {n:>6} {e / n:>10.3f} {fed / n:>8.3f}")
        low = top
    fed = [d for d in rows if d.feeds[d.candidates[0]]]
    avoidable = sum(any(not d.feeds[c] for c in d.candidates[1:]) for d in fed)
    safest = sum(
        d.feeds[min(d.candidates, key=lambda c: (d.estimated[c], d.candidates.index(c)))]
        for d in rows
    )
    print(f"the chosen card fed gin: {len(fed)} ({avoidable} of them another candidate would not)")
    print(f"the candidate least likely to feed gin by the beliefs would have fed: {safest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("ends", help="how the hands end, by the ender's last draw")
    e.add_argument("a")
    e.add_argument("b")
    c = sub.add_parser("calibration", help="master's estimated chance of feeding gin")
    c.add_argument("b")
    for p in (e, c):
        p.add_argument("--deals", type=int, default=600)
        p.add_argument("--preset", default="classic")
        p.add_argument("--seed", default="fd-1")
        p.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    ends(args) if args.command == "ends" else calibration(args)


if __name__ == "__main__":
    main()
