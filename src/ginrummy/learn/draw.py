"""Pile or stock, measured on self-play from the true state (data for a learned draw).

An experiment, not shipped: fitted like the knock (:mod:`.knock`), the correction of the
draw search gained too little to tell from noise, on 4,926 draws (seed ``dA``) and again on
15,630 with three more features (``dC``, :class:`DrawSelfPlay`; docs/ai.md, "Learned
play"). ``bench/draw_fit.py`` collects and scores.

Like :mod:`.knock`, for master's close draws: at every draw where :class:`SearchedDrawMaster`
(``master``, settling close draws by its playouts alone) would search (the pile's top card
not its own discard, more than four stock cards, the expert's estimates within
``draw_margin``), both draws are played from the true state to the end of the hand by the
same players (seeded by the position), and the position's public estimates kept
(:func:`ginrummy.ai.master.draw_features`). The hand then goes on as the player chose.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ai.knowledge import Knowledge, joins_meld
from ..ai.master import MasterPlayer
from ..arena import run_tasks
from ..cards import POINTS, shuffled_deck
from ..engine.hand import deal
from ..melds import best_discard_mask, deadwood_after_discards_mask, deadwood_mask
from ..rules import Rules
from .knock import MAX_ACTIONS, hand_utility, play_out, ridge_fit, seat_points

RIDGE = 100.0

DRAW_FEATURES = (
    "bias",
    "expert_edge",
    "search_edge",
    "stock",
    "pile_melds",
    "pile_points",
    "opp_took",
    "deadwood",
    "pile_knocks",
    "pile_gin",
    "stock_knocks",
)
"""The features of a close choice between the pile and the stock (:func:`draw_features`)."""


def draw_features(
    k: Knowledge, expert_edge: float, search_edge: float, draws: Sequence[tuple[int, float]]
) -> tuple[float, ...]:
    """A close draw described for the learned draw: the expert's estimate of the pile's edge
    (deadwood points, in threes), the playouts' (utility, in tens), how much stock is left,
    whether the pile card joins a meld and its points, what the opponent has taken, the
    hand's deadwood now (in tens); whether the pile card lets it knock at once, or go gin,
    and the chance (by ``draws``, the stock draw's weights) that the stock card lets it knock
    (the searches score a knock at once; master's learned knock often plays on)."""
    after = deadwood_after_discards_mask(k.hand | 1 << k.top)
    after.pop(k.top)  # the card taken from the pile may not go back at once
    pile_least = min(after.values())
    total = sum(w for _, w in draws) or 1.0
    limit = k.knock_limit
    stock_knocks = sum(w for c, w in draws if best_discard_mask(k.hand | 1 << c)[0] <= limit)
    return (
        1.0,
        expert_edge / 3.0,
        search_edge / 10.0,
        k.stock_size / 31.0,
        1.0 if joins_meld(k.top, k.hand) else 0.0,
        POINTS[k.top % 13] / 10.0,
        k.opp_took.bit_count() / 3.0,
        deadwood_mask(k.hand) / 10.0,
        1.0 if pile_least <= k.knock_limit else 0.0,
        1.0 if pile_least == 0 else 0.0,
        stock_knocks / total,
    )


class SearchedDrawMaster(MasterPlayer):
    """``master``, which settles close draws by its playouts alone: the players whose
    draws the data measure."""

    level = "master-searched-draw"
    last_chance_search = False  # knocks at its last chance whenever it can, as before
    pile_depth = 1  # its draws as they were before 2026-12-05, evening (one draw deep)
    # master's two-draw discard search as it was before 2026-12-05 (no gin bonus)
    discard_knock_bonus = 10.0
    gin_bonus = 0.0
    estimate_gin_bonus = 0.0
    knocker_prior = 0.0  # its knock as before 2026-12-06 (no hedge before a style shows)
    hedge_params = None  # (the fixed prior above, not the hedge read from the hand)
    threat_weight = 0.0  # no threat to knock in its discards (master's since 2026-12-07)


@dataclass(frozen=True, slots=True)
class DrawSelfPlay:
    """A run of draw data: self-play by :class:`SearchedDrawMaster`, keeping every draw
    whose expert pile edge is within ``margin`` (master searches those within its own
    ``draw_margin``; a wider margin also measures the expert's rule just outside it)."""

    seed: str
    preset: str = "classic"
    margin: float = MasterPlayer.draw_margin


@dataclass(frozen=True, slots=True)
class DrawPosition:
    """One close draw: the public features, and both draws' true values."""

    features: tuple[float, ...]
    pile: float
    stock: float
    chose_pile: bool


def positions_of_hand(task: tuple[DrawSelfPlay, int]) -> list[DrawPosition]:
    """The close draws of self-play hand ``i``."""
    job, i = task
    rules = Rules.preset(job.preset)
    tag = f"{job.seed}/hand/{i}"
    players = {seat: SearchedDrawMaster(f"{tag}/{seat}") for seat in (0, 1)}
    state = deal(rules, i % 2, shuffled_deck(tag))
    out: list[DrawPosition] = []
    while not state.is_over and state.action_count < MAX_ACTIONS:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat].choose(view)
        if view.phase == "draw":
            n = state.action_count  # seeds by the position: any margin's draws, the same
            probe = SearchedDrawMaster(f"{tag}/probe/{n}")
            probe.draw_margin = job.margin
            k = Knowledge(view)
            close = probe.close_draw(k, view)
            if close is not None:
                expert_edge, draws, model = close
                search_edge = probe.pile_search_edge(k, draws, model)
                branch = {s: SearchedDrawMaster(f"{tag}/branch/{n}/{s}") for s in (0, 1)}
                pile = play_out(state.apply("pile", seat), branch)
                branch = {s: SearchedDrawMaster(f"{tag}/branch/{n}/{s}") for s in (0, 1)}
                stock = play_out(state.apply("stock", seat), branch)
                out.append(
                    DrawPosition(
                        draw_features(k, expert_edge, search_edge, draws),
                        hand_utility(seat_points(pile, seat)),
                        hand_utility(seat_points(stock, seat)),
                        action == "pile",
                    )
                )
        state = state.apply(action, seat)
    return out


def collect(
    job: DrawSelfPlay,
    hands: int,
    workers: int = 1,
    cluster: str | None = None,
    progress: bool = False,
) -> list[DrawPosition]:
    """Every close draw of hands ``0 .. hands-1`` of ``job``, in hand order."""
    out: list[DrawPosition] = []
    for rows in run_tasks(positions_of_hand, job, hands, workers, progress, "hand", cluster):
        out.extend(rows)
    return out


def fit(positions: Sequence[DrawPosition], ridge: float = RIDGE) -> list[float]:
    """Least-squares weights of the pile's true edge (its value minus the stock's) on the
    features and their products."""
    return ridge_fit([p.features for p in positions], [p.pile - p.stock for p in positions], ridge)


def digest(positions: Sequence[DrawPosition]) -> str:
    h = hashlib.sha256()
    for p in positions:
        h.update(struct.pack(f"<{len(p.features)}dddB", *p.features, p.pile, p.stock, p.chose_pile))
    return h.hexdigest()


def params_of(job: DrawSelfPlay, hands: int, positions: Sequence[DrawPosition]) -> dict[str, Any]:
    return {
        "model": "ginrummy learned draw: least squares of the pile's edge, quadratic",
        "features": list(DRAW_FEATURES),
        "weights": fit(positions),
        "trained_on": {
            "seed": job.seed,
            "preset": job.preset,
            "hands": hands,
            "positions": len(positions),
            "ridge": RIDGE,
            "data_sha256": digest(positions),
        },
    }


def write_data(positions: Sequence[DrawPosition], path: Path) -> None:
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        for p in positions:
            f.write(json.dumps([list(p.features), p.pile, p.stock, p.chose_pile]) + "\n")


def read_data(path: Path) -> list[DrawPosition]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [DrawPosition(tuple(x), a, b, c) for x, a, b, c in map(json.loads, f)]
