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
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

import knocker_signals  # a sibling script: bench/ is on the path when this one runs
from ginrummy import GameState, Rules
from ginrummy.ai import TEST_LEVELS, player
from ginrummy.ai.adapt import _DISCARDS, _ENDING, _card, _limit
from ginrummy.ai.knowledge import Knowledge
from ginrummy.ai.master import MasterPlayer
from ginrummy.arena import cut_for_deal
from ginrummy.melds import best_discard_mask

CONSIDERED = {1: 0.95, 2: 0.95, 3: 0.8, 4: 0.65, 5: 0.5, 6: 0.25}
"""The share of its knock chances a considered player (``master-2026-11`` against master)
ends, by its discard of the hand; 0.15 from the seventh on."""


def chances_of(past: Sequence[Any], seat: int, rules: Rules) -> list[tuple[int, int, bool]]:
    """``seat``'s chances in the finished hands ``past``: (its discard of the hand, the least
    deadwood it could keep, whether it ended the hand there)."""
    rows = []
    for hand in past:
        limit = _limit(rules, int(hand.upcard))
        held = 0
        for c in hand.dealt[seat]:
            held |= 1 << int(c)
        turn = 0
        for event in hand.history:
            if event.seat != seat:
                continue
            kind, _, named = event.action.partition(" ")
            if event.card is not None:
                held |= 1 << int(event.card)
            elif kind in _DISCARDS:
                turn += 1
                if held.bit_count() == 11:
                    least, _ = best_discard_mask(held)
                    if least <= limit:
                        rows.append((turn, least, kind in _ENDING))
                held &= ~(1 << _card(named))
    return rows


class Trigger(MasterPlayer):
    """Master with another knocker trigger (:attr:`mode`: ``nogin`` or ``lr``)."""

    level = "v-trigger"
    mode = "nogin"
    threshold = 8.0

    def opponent_kind(self, k: Knowledge) -> str | None:
        past = k.view.past_hands
        if not past:
            return None
        rows = [r for r in chances_of(past, 1 - k.view.seat, k.view.rules) if r[1] > 0]
        if self.mode == "nogin":
            n, ended = len(rows), sum(r[2] for r in rows)
            return "knocker" if n >= 2 and (ended + 1) / (n + 2) >= 0.75 else None
        odds = 1.0
        for turn, _, knocked in rows:
            q = CONSIDERED.get(turn, 0.15)
            odds *= 0.98 / q if knocked else 0.02 / (1 - q)
        return "knocker" if odds >= self.threshold else None


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


def game_chances(task: tuple[str, str, int]) -> list[tuple[int, int, bool]]:
    """The opponent's chances in game pair ``j`` against ``master-no-adapt`` (in every hand
    of each game but its last)."""
    opponent, seed, j = task
    rules = Rules.preset("classic")
    tag = f"{seed}/game/{j}"
    rows = []
    for a_seat in (0, 1):
        players = {
            a_seat: player("master-no-adapt", f"{tag}/{a_seat}/a"),
            1 - a_seat: player(opponent, f"{tag}/{a_seat}/b"),
        }
        game = GameState.new(rules, cut_for_deal(tag))
        while True:
            if game.needs_deal:
                if game.is_over:
                    break
                game = game.deal_seeded(f"{tag}/hand/{game.hand_number}")
                continue
            hand = game.hand
            assert hand is not None and hand.to_act is not None
            seat = hand.to_act
            game = game.apply(players[seat].choose(hand.view(seat)), seat)
            if game.is_over:
                break
        finished = game.finished_hands
        if finished:
            past = finished[-1].context.past
            rows += chances_of(past, 1 - a_seat, rules)
    return rows


def rates(args: argparse.Namespace) -> None:
    with Pool(args.workers) as pool:
        found = pool.map(game_chances, [(args.against, args.seed, j) for j in range(args.games)])
    rows = [r for part in found for r in part]
    ended = sum(r[2] for r in rows)
    print(f"{args.against}: {len(rows)} chances, {ended / max(1, len(rows)):.2f} ended")
    for name, key in (("turn", 0), ("deadwood", 1)):
        counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for row in rows:
            cell = counts[min(row[key], 12) if key == 0 else row[key]]
            cell[0] += 1
            cell[1] += row[2]
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
