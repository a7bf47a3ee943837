"""Telling a knocker within one hand: the data and the fit behind master's hedge.

Until a game's finished hands show the opponent's style, master's learned knock mixes the
knock learned against players that knock at once with its own, by the chance that the
opponent is such a player (:meth:`ginrummy.ai.master.MasterPlayer.hedge_chance`). That chance
is a logistic regression on the opponent's public play this hand
(:func:`ginrummy.ai.signals.knocker_chance`), fitted here.

The data: :data:`COLLECTOR` (master as it played with a fixed hedge, frozen so that the data
do not move when master's hedge does) plays ``hands`` hands against each of
:data:`OPPONENTS`, under ``classic``. Hand ``i`` against the opponent labelled ``L`` of a run
with seed ``S`` is dealt from ``shuffled_deck("S/L/i")`` by seat ``i // 2 % 2``, the collector
in seat ``i % 2`` (its randomness seeded ``"S/L/i/m"``, the opponent's ``"S/L/i/o"``); at
each of the collector's chances to knock (:func:`.knock.knock_chance`: it could knock, not
gin, with more than two stock cards left) it notes :func:`~ginrummy.ai.signals.knocker_signals`
of the opponent's play so far. The hand is played to its end (at most
:data:`~.knock.MAX_ACTIONS` actions).

The fit: "the opponent knocks at once" (the :data:`KNOCKERS`) against the rest, on
:data:`~ginrummy.ai.signals.KNOCKER_FEATURES` of every chance, by Newton's method with a
small ridge (:data:`RIDGE`) on every weight; the weights are rounded to six decimals.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ai import player
from ..ai.signals import KNOCKER_FEATURES, KNOCKER_SIGNALS, knocker_features, knocker_signals
from ..arena import run_tasks
from ..cards import shuffled_deck
from ..engine.hand import deal
from ..rules import Rules
from .knock import MAX_ACTIONS, knock_chance

COLLECTOR = "master-2026-12"
"""The level whose chances to knock the data note (frozen: see :mod:`ginrummy.ai.styles`)."""
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("baseline", "baseline"),
    ("style-knock", "style-knock"),
    ("master", "master-2026-12"),
    ("master-2026-11", "master-2026-11"),
    ("expert", "expert"),
)
"""The opponents, each as (its label in the data and in the hands' seeds, its level): the
label ``master`` is master as it was when the data were made, which is :data:`COLLECTOR`."""
KNOCKERS = ("baseline", "style-knock")
"""The labels of the opponents that knock at once (the regression's ones)."""
RIDGE = 1e-3
"""The ridge penalty on every weight (on the mean log-loss)."""
PRESET = "classic"


@dataclass(frozen=True, slots=True)
class KnockerRun:
    """A run: its seed and how many hands against each opponent."""

    seed: str = "signals"
    hands: int = 600

    def arguments(self) -> list[str]:
        """The ``python -m ginrummy.learn knocker`` options that make it."""
        return ["--seed", self.seed, "--hands", str(self.hands)]


SHIPPED = KnockerRun()
"""The run of the shipped ``params/knocker-signals.json`` (4,819 chances; about four
minutes on two processes)."""
SHIPPED_NAME = "knocker-signals"
SHIPPED_DATA = "knocker-signals.json.gz"
"""The shipped run's chances, in ``tests/data``."""

Chances = dict[str, list[list[list[float]]]]
"""The data: per opponent label, per hand, the signals at each of the collector's chances."""


def signals_of_hand(task: tuple[tuple[str, str, str], int]) -> list[list[float]]:
    """The signals at each of the collector's chances in hand ``i`` against one opponent."""
    (seed, label, level), i = task
    tag = f"{seed}/{label}/{i}"
    me = i % 2
    players = {me: player(COLLECTOR, f"{tag}/m"), 1 - me: player(level, f"{tag}/o")}
    state = deal(Rules.preset(PRESET), i // 2 % 2, shuffled_deck(tag))
    rows: list[list[float]] = []
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if seat == me and knock_chance(view) is not None:
            rows.append(list(knocker_signals(view)))
        state = state.apply(players[seat].choose(view), seat)
    return rows


def collect(
    run: KnockerRun, workers: int = 1, cluster: str | None = None, progress: bool = False
) -> Chances:
    """The run's chances, hands played on ``workers`` processes or a ``cluster`` (the
    arena's runner: the same whichever)."""
    return {
        label: list(
            run_tasks(
                signals_of_hand,
                (run.seed, label, level),
                run.hands,
                workers,
                progress,
                f"hand against {label}",
                cluster,
            )
        )
        for label, level in OPPONENTS
    }


def write_data(run: KnockerRun, chances: Chances, path: Path) -> None:
    """Write a run's chances (gzipped JSON)."""
    text = json.dumps({"seed": run.seed, "hands": run.hands, "chances": chances})
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(text)


def read_data(path: Path) -> tuple[KnockerRun, Chances]:
    """A run and its chances as :func:`write_data` wrote them."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return KnockerRun(data["seed"], data["hands"]), data["chances"]


def rows_of(chances: Chances) -> tuple[list[tuple[float, ...]], list[float]]:
    """Every chance's features and whether its opponent knocks at once (1) or not (0)."""
    labels = [label for label, _ in OPPONENTS]
    if sorted(chances) != sorted(labels):
        raise ValueError(f"the data hold {sorted(chances)}, not the opponents {labels}")
    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    for label in labels:
        for hand in chances[label]:
            for signals in hand:
                if len(signals) != len(KNOCKER_SIGNALS):
                    raise ValueError(
                        f"a chance with {len(signals)} signals, not {len(KNOCKER_SIGNALS)}"
                    )
                xs.append(knocker_features(signals))
                ys.append(1.0 if label in KNOCKERS else 0.0)
    return xs, ys


def logistic_fit(
    x: Sequence[Sequence[float]], y: Sequence[float], ridge: float = RIDGE
) -> list[float]:
    """The weights of a logistic regression of ``y`` on ``x`` (mean log-loss plus ``ridge``
    over two times the squared weights), by Newton's method."""
    import numpy as np

    a = np.array(x, dtype=float)
    b = np.array(y, dtype=float)
    w = np.zeros(a.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        grad = a.T @ (p - b) / len(b) + ridge * w
        hess = (a.T * (p * (1 - p))) @ a / len(b) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return [float(v) for v in w]


def log_loss(weights: Sequence[float], x: Sequence[Sequence[float]], y: Sequence[float]) -> float:
    """The mean log-loss (nats a chance) of ``weights`` on ``x`` and ``y``."""
    total = 0.0
    for row, label in zip(x, y, strict=True):
        z = sum(w * v for w, v in zip(weights, row, strict=True))
        p = min(1 - 1e-12, max(1e-12, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        total -= label * math.log(p) + (1 - label) * math.log(1 - p)
    return total / len(y)


def digest(chances: Mapping[str, Any]) -> str:
    """The SHA-256 of the chances as canonical JSON."""
    return hashlib.sha256(json.dumps(chances, sort_keys=True).encode()).hexdigest()


def params_of(run: KnockerRun, chances: Chances) -> dict[str, Any]:
    """The parameter file of the fit on a run's chances."""
    x, y = rows_of(chances)
    weights = [round(w, 6) for w in logistic_fit(x, y)]
    return {
        "model": "ginrummy knocker regression: logistic, the opponent's play this hand",
        "features": list(KNOCKER_FEATURES),
        "weights": weights,
        "log_loss": round(log_loss(weights, x, y), 4),
        "trained_on": {
            "seed": run.seed,
            "preset": PRESET,
            "collector": COLLECTOR,
            "opponents": [list(pair) for pair in OPPONENTS],
            "knockers": list(KNOCKERS),
            "hands": run.hands,
            "chances": len(y),
            "ridge": RIDGE,
            "data_sha256": digest(chances),
        },
    }
