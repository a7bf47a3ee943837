"""When should master take its opponent for a knocker? Other triggers for the adaptation.

Master (``MasterPlayer.opponent_kind``) takes the opponent for a knocker once the game's
finished hands show it ending the hand at two chances of two (a Beta(1, 1) mean of 0.75 or
more, gins counted with the knocks), and then knocks by the knock learned against knockers.
A master that ends its first two chances is taken for one too, and that costs. Two commands:

* ``rates OPPONENT --games N``: the opponent's chances in whole games against
  ``master-no-adapt`` (classic), and the share it ended, by its discard of the hand (turn)
  and by the deadwood it could knock with;
* ``play OPPONENT VARIANT... --games N``: variants of master paired with it per game pair
  (``bench/knocker_signals.py play``; its variants and ``ATTR=VALUE`` of
  ``bench/knock_playouts.py`` are not here):

  - ``nogin``: the same rule with gin chances left out (every style goes gin);
  - ``lr-T``: the odds of a knocker against a considered player, the product over the
    opponent's knock chances (gins left out) of 0.98 / q(turn) for a knock and 0.02 / (1 -
    q(turn)) for playing on, q the share of its chances ``master-2026-11`` ended by its turn
    (``rates``, rounded: :data:`CONSIDERED`); a knocker once the odds reach ``T``.

    python bench/knocker_trigger.py rates master-2026-11 --games 100
    python bench/knocker_trigger.py play baseline nogin lr-8 --games 300 --seed gs-3

The figures are in docs/ai.md ("Adapting to the opponent", the trigger against masters).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from typing import Any

import knocker_signals  # a sibling script: bench/ is on the path when this one runs
from ginrummy import Rules
from ginrummy.ai import TEST_LEVELS
from ginrummy.ai.adapt import Chance, chances_in
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.arena import Job, play_game

CONSIDERED = {1: 0.95, 2: 0.95, 3: 0.8, 4: 0.65, 5: 0.5, 6: 0.25}
"""The share of its knock chances a considered player (``master-2026-11`` against master)
ends, by its discard of the hand; 0.15 from the seventh on."""


def chances_of(past: Sequence[Any], seat: int, rules: Rules) -> list[Chance]:
    """``seat``'s chances in the finished hands ``past`` (:func:`ginrummy.ai.adapt.chances_in`)."""
    return [chance for hand in past for chance in chances_in(hand, seat, rules)]


def knocker_odds(chances: Sequence[Chance]) -> float:
    """The odds of a knocker (ending 98 % of its chances) against a considered player
    (ending a share :data:`CONSIDERED` by turn) over ``chances``, gins left out."""
    odds = 1.0
    for turn, deadwood, knocked in chances:
        if deadwood:
            q = CONSIDERED.get(turn, 0.15)
            odds *= 0.98 / q if knocked else 0.02 / (1 - q)
    return odds


class Trigger(MasterPlayer):
    """Master with another knocker trigger (:attr:`mode`: ``nogin`` or ``lr``)."""

    level = "v-trigger"
    mode = "nogin"
    threshold = 8.0

    def opponent_kind(self, k: Knowledge) -> str | None:
        past = k.view.past_hands
        if not past:
            return None
        rows = [c for c in chances_of(past, 1 - k.view.seat, k.view.rules) if c.deadwood > 0]
        if self.mode == "nogin":
            n, ended = len(rows), sum(c.ended for c in rows)
            return "knocker" if n >= 2 and (ended + 1) / (n + 2) >= 0.75 else None
        return "knocker" if knocker_odds(rows) >= self.threshold else None


def variant(name: str, weights: Sequence[float]) -> str:
    """Register ``nogin`` or ``lr-T`` as a test level (else ``knocker_signals``'s)."""
    level = f"v-{name}"
    if name == "nogin":
        TEST_LEVELS[level] = type(name, (Trigger,), {"level": level, "mode": "nogin"})
    elif name.startswith("lr-"):
        attrs = {"level": level, "mode": "lr", "threshold": float(name[len("lr-") :])}
        TEST_LEVELS[level] = type(name, (Trigger,), attrs)
    else:
        return knocker_signals.variant(name, weights)
    return level


def game_chances(task: tuple[str, str, int]) -> list[Chance]:
    """The opponent's chances in game pair ``j`` against ``master-no-adapt`` (in every hand
    of each game but its last)."""
    opponent, seed, j = task
    job = Job("master-no-adapt", opponent, Rules.preset("classic"), seed)
    rows = []
    for a_seat in (0, 1):
        finished = play_game(job, j, a_seat).finished_hands
        if finished:
            rows += chances_of(finished[-1].context.past, 1 - a_seat, job.rules)
    return rows


def rates(args: argparse.Namespace) -> None:
    with Pool(args.workers) as pool:
        found = pool.map(game_chances, [(args.against, args.seed, j) for j in range(args.games)])
    rows = [chance for part in found for chance in part]
    ended = sum(c.ended for c in rows)
    print(f"{args.against}: {len(rows)} chances, {ended / max(1, len(rows)):.2f} ended")
    keys: dict[str, Callable[[Chance], int]] = {
        "turn": lambda c: min(c.turn, 12),
        "deadwood": lambda c: c.deadwood,
    }
    for name, key in keys.items():
        counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for chance in rows:
            cell = counts[key(chance)]
            cell[0] += 1
            cell[1] += chance.ended
        cells = [f"{v}: {s / n:.2f} ({n})" for v, (n, s) in sorted(counts.items())]
        print(f"  ended by {name}: " + ", ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    knocker_signals.add_play_arguments(commands.add_parser("play"))
    counted = commands.add_parser("rates")
    counted.add_argument("against")
    counted.add_argument("--games", type=int, default=100)
    counted.add_argument("--seed", default="ch-1")
    counted.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.command == "rates":
        rates(args)
    else:
        knocker_signals.play(args, variant)


if __name__ == "__main__":
    main()
