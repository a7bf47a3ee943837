"""Fitting the learned opponent model (:mod:`ginrummy.ai.beliefs`) on self-play.

Self-play: hand ``i`` of a run with seed ``S`` is dealt from ``shuffled_deck(f"{S}/hand/
{i}")`` (dealer ``i % 2``, classic rules) and played by two players of one level seeded
``f"{S}/hand/{i}/{seat}"``. At each decision a seat makes, with chance :data:`PICK`
(drawn from ``f"{S}/hand/{i}/pick"``), the position is kept: every card unseen by that seat,
with its features (read off the seat's view, as the player would) and whether the opponent
holds it (read off the true state). Hands are independent tasks, so the data are the same on
one process, several, or a cluster (the arena's runner: :func:`ginrummy.arena.run_tasks`).

The fit is a logistic regression by Newton's method from zero weights, with a small ridge
(:data:`RIDGE`) so that a feature the data never vary keeps a zero weight; it is
deterministic for the same data (the weights are rounded to :data:`DIGITS` decimals, which
absorbs the last-bit differences of floating-point sums between machines).

numpy is needed here (the ``train`` extra), not to play: the AI computes the model in plain
Python.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ai import player
from ..ai.beliefs import FEATURES, card_features
from ..ai.knowledge import Knowledge
from ..arena import run_tasks
from ..cards import shuffled_deck
from ..engine.hand import HandState, deal
from ..rules import Rules

PICK = 0.2
"""The chance that a decision's position is kept (neighbouring positions are much alike)."""
RIDGE = 1.0
"""The ridge penalty (on every weight but the bias), in units of one position's log-loss."""
DIGITS = 5
"""Decimals kept of each weight."""
MAX_ACTIONS = 400
"""A self-play hand stops being sampled after this many actions (players cycling through
the pile)."""

Row = tuple[tuple[float, ...], int]
"""One unseen card of one position: its features and 1 if the opponent holds it."""


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """A self-play run's settings: every position it yields follows from these."""

    seed: str
    level: str = "expert"
    preset: str = "classic"


SHIPPED = SelfPlay("beliefs-2026")
"""The run that made the shipped ``ginrummy/ai/params/beliefs.json``."""
SHIPPED_HANDS = 2000
"""Its number of hands."""


def positions_of_hand(task: tuple[SelfPlay, int]) -> list[Row]:
    """The rows of self-play hand ``i`` (one task of a run)."""
    job, i = task
    rules = Rules.preset(job.preset)
    tag = f"{job.seed}/hand/{i}"
    players = {seat: player(job.level, f"{tag}/{seat}") for seat in (0, 1)}
    pick = random.Random(f"{tag}/pick")
    state: HandState = deal(rules, i % 2, shuffled_deck(tag))
    rows: list[Row] = []
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if pick.random() < PICK:
            k = Knowledge(view)
            held = state.hand_mask(1 - seat) & ~state.known_mask(1 - seat)
            for c, x in card_features(k):
                rows.append((tuple(x), held >> c & 1))
        state = state.apply(players[seat].choose(view), seat)
    return rows


def collect(
    job: SelfPlay,
    hands: int,
    workers: int = 1,
    cluster: str | None = None,
    progress: bool = False,
) -> list[Row]:
    """Every row of hands ``0 .. hands-1`` of ``job``, in hand order."""
    out: list[Row] = []
    for rows in run_tasks(positions_of_hand, job, hands, workers, progress, "hand", cluster):
        out.extend(rows)
    return out


def digest(rows: Sequence[Row]) -> str:
    """A SHA-256 of the rows (features as doubles, labels as bytes): the data's identity."""
    h = hashlib.sha256()
    for x, y in rows:
        h.update(struct.pack(f"<{len(x)}dB", *x, y))
    return h.hexdigest()


def fit(rows: Sequence[Row], iterations: int = 30) -> list[float]:
    """Logistic regression weights (in :data:`FEATURES` order) fitted to ``rows``."""
    import numpy as np

    x = np.array([r[0] for r in rows], dtype=np.float64)
    y = np.array([r[1] for r in rows], dtype=np.float64)
    m = x.shape[1]
    penalty = np.full(m, RIDGE)
    penalty[0] = 0.0
    w = np.zeros(m)
    for _ in range(iterations):
        z = np.clip(x @ w, -30.0, 30.0)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(m)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return [round(float(v), DIGITS) for v in w]


def log_loss(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """The mean log-loss of ``weights`` on ``rows`` (nats per card)."""
    import math

    total = 0.0
    for x, y in rows:
        z = max(-30.0, min(30.0, sum(w * v for w, v in zip(weights, x, strict=True))))
        p = 1.0 / (1.0 + math.exp(-z))
        total -= math.log(p if y else 1.0 - p)
    return total / max(1, len(rows))


def train(
    job: SelfPlay,
    hands: int,
    workers: int = 1,
    cluster: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """The parameter file's contents: the weights fitted on ``hands`` hands of ``job``, and
    how to make them again."""
    rows = collect(job, hands, workers, cluster, progress)
    weights = fit(rows)
    return {
        "model": "ginrummy opponent beliefs: logistic regression per unseen card",
        "features": list(FEATURES),
        "weights": weights,
        "trained_on": {
            "seed": job.seed,
            "level": job.level,
            "preset": job.preset,
            "hands": hands,
            "pick": PICK,
            "ridge": RIDGE,
            "rows": len(rows),
            "data_sha256": digest(rows),
        },
        "log_loss": round(log_loss(rows, weights), 6),
    }


def dumps(params: dict[str, Any]) -> str:
    """A parameter file's text (one line per weight, so that diffs read well)."""
    return json.dumps(params, indent=1) + "\n"


def write(params: dict[str, Any], path: Path) -> None:
    """Write a parameter file."""
    path.write_text(dumps(params), encoding="utf-8")
