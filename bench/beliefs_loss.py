"""How well each opponent model predicts the opponent's hidden cards, on fresh self-play.

For every position kept by the self-play of :mod:`ginrummy.learn.beliefs` (a seed other
than the training run's), each unseen card is scored by the mean log-loss (nats per card;
lower is better) and the Brier score of: the base rate (hidden cards / unseen cards), the
expert's hand-set model (:class:`ginrummy.ai.evaluate.OpponentModel`) and the learned one
(:class:`ginrummy.ai.beliefs.LearnedOpponentModel`, the shipped weights), both as the
players use them (scaled to the number of hidden cards).

    python bench/beliefs_loss.py --hands 1000 --level expert --workers 2
"""

from __future__ import annotations

import argparse
import math
import random

from ginrummy.ai import player
from ginrummy.ai.beliefs import LearnedOpponentModel
from ginrummy.ai.evaluate import OpponentModel
from ginrummy.ai.knowledge import Knowledge
from ginrummy.arena import run_tasks
from ginrummy.cards import cards_of, shuffled_deck
from ginrummy.engine.hand import deal
from ginrummy.learn.beliefs import PICK, SelfPlay
from ginrummy.rules import Rules

MODELS = ("base rate", "hand-set", "learned")


def scores_of_hand(task: tuple[SelfPlay, int]) -> list[tuple[int, tuple[float, ...]]]:
    """(label, each model's chance) per unseen card of the hand's kept positions."""
    job, i = task
    tag = f"{job.seed}/hand/{i}"
    players = {seat: player(job.level, f"{tag}/{seat}") for seat in (0, 1)}
    pick = random.Random(f"{tag}/pick")
    state = deal(Rules.preset(job.preset), i % 2, shuffled_deck(tag))
    out = []
    while not state.is_over and state.action_count < 400:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if pick.random() < PICK:
            k = Knowledge(view)
            held = state.hand_mask(1 - seat) & ~state.known_mask(1 - seat)
            hand_set = OpponentModel(k).probability
            learned = LearnedOpponentModel(k).probability
            base = k.opp_hidden / max(1, k.unseen.bit_count())
            for c in cards_of(k.unseen):
                out.append((held >> c & 1, (base, hand_set[c], learned[c])))
        state = state.apply(players[seat].choose(view), seat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", default="beliefs-check")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    job = SelfPlay(args.seed, args.level)
    rows = [r for rs in run_tasks(scores_of_hand, job, args.hands, args.workers) for r in rs]
    print(f"{len(rows)} unseen cards in the kept positions of {args.hands} hands ({args.level})")
    for m, name in enumerate(MODELS):
        loss = brier = 0.0
        for y, ps in rows:
            p = min(max(ps[m], 1e-6), 1 - 1e-6)
            loss -= math.log(p if y else 1 - p)
            brier += (p - y) ** 2
        print(f"  {name:<10} log-loss {loss / len(rows):.4f}   Brier {brier / len(rows):.4f}")


if __name__ == "__main__":
    main()
