"""Master's knocks in whole games, measured from the true state: collect, then score rules.

    python bench/knock_games.py collect --seed kG --games 250 --workers 2 kG.jsonl.gz
    python bench/knock_games.py score kG.jsonl.gz

The shipped learned knock was fitted on single hands at 0-0 and is carried to other scores
by a slope (``MasterPlayer.knocks``). ``collect`` plays games to the target, master against
itself, and at every chance to knock (as :mod:`ginrummy.learn.knock` defines one) plays both
choices from the true state to the end of the hand, valuing each by master's utility at the
game's real score; the game then goes on as master chose. ``score`` splits the positions into
halves (by game), fits on one and scores on the other, both ways: rules are master's own
(the gain is zero by definition), the simulations alone, the 0-0 correction without the
slope, and least-squares refits of the true edge on the shipped edge's parts and the score.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.actions import DISCARD_TEXT
from ginrummy.ai import player
from ginrummy.ai.master import MasterPlayer, at_even_score, knock_features, quadratic
from ginrummy.arena import run_tasks
from ginrummy.engine.game import GameState, cut_for_deal
from ginrummy.engine.hand import HandState
from ginrummy.learn.knock import (
    MAX_ACTIONS,
    knock_chance,
    mean_and_error,
    play_out,
    ridge_fit,
    seat_points,
)
from ginrummy.rules import Rules

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameKnocks:
    seed: str
    preset: str = "classic"
    level: str = "master"


def chance_row(job: GameKnocks, state: HandState, seat: int, tag: str, n: int) -> Row | None:
    chance = knock_chance(state.view(seat))
    if chance is None:
        return None
    k, options = chance
    probe = player(job.level, f"{tag}/probe/{n}")
    assert isinstance(probe, MasterPlayer)
    model = probe.model(k)
    assert model is not None
    est = probe.knock_estimate(k, options, model)
    even = at_even_score(k, est)
    knocked = seat_points(state.apply(est.ending, seat), seat)
    branch = {s: player(job.level, f"{tag}/branch/{n}/{s}") for s in (0, 1)}
    on = seat_points(play_out(state.apply(DISCARD_TEXT[est.play_on], seat), branch), seat)
    return {
        "f0": list(knock_features(k, even)),
        "sim_knock": est.knock_value,
        "sim_on": est.on_value,
        "knock0": even.knock_value,
        "on0": even.on_value,
        "learned0": probe.learned_edge(k, even),
        "slope": probe.point_worth(k),
        "mine": k.my_points,
        "theirs": k.opp_points,
        "target": k.rules.target,
        "knock_points": knocked,
        "on_points": on,
        "knock": probe.utility(k, knocked),
        "on": probe.utility(k, on),
    }


def positions_of_game(task: tuple[GameKnocks, int]) -> list[Row]:
    """Every chance to knock in self-play game ``j``, with both choices' true values."""
    job, j = task
    rules = Rules.preset(job.preset)
    tag = f"{job.seed}/game/{j}"
    players = {s: player(job.level, f"{tag}/{s}") for s in (0, 1)}
    game = GameState.new(rules, cut_for_deal(tag))
    out: list[Row] = []
    n = 0
    while not game.is_over and game.hand_number < 200:
        if game.needs_deal:
            game = game.deal_seeded(f"{tag}/hand/{game.hand_number}")
            continue
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        if hand.action_count > MAX_ACTIONS:
            raise RuntimeError(f"game {tag}: a hand ran over {MAX_ACTIONS} actions")
        row = chance_row(job, hand, seat, tag, n)
        action = players[seat].choose(hand.view(seat))
        if row is not None:
            row["game"] = j
            row["chose_knock"] = action.startswith("knock")
            out.append(row)
            n += 1
        game = game.apply(action, seat)
    return out


def collect(args: argparse.Namespace) -> None:
    job = GameKnocks(args.seed, args.preset, args.level)
    rows: list[Row] = []
    for got in run_tasks(positions_of_game, job, args.games, args.workers, True, "game"):
        rows.extend(got)
    with gzip.open(args.out, "wt", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    knocked = sum(r["chose_knock"] for r in rows) / max(1, len(rows))
    print(f"{len(rows)} chances in {args.games} games; master knocked at {knocked:.1%}")


# --- scoring ------------------------------------------------------------------------------

Rule = Callable[[Row], bool]


def shipped_edge(r: Row) -> float:
    correction = r["learned0"] - (r["on0"] - r["knock0"])
    return float(r["sim_on"] - r["sim_knock"] + r["slope"] * correction)


def gain(rows: Sequence[Row], knocks: Rule) -> tuple[float, float]:
    """The mean true value of the rule's choices minus master's own, and its standard error."""
    return mean_and_error(
        [
            (r["knock"] if knocks(r) else r["on"]) - (r["knock"] if r["chose_knock"] else r["on"])
            for r in rows
        ]
    )


def parts(r: Row) -> tuple[float, ...]:
    """The refit's features: the shipped edge's parts, and the score."""
    need_mine = max(0, r["target"] - r["mine"]) / r["target"]
    need_theirs = max(0, r["target"] - r["theirs"]) / r["target"]
    sim = (r["sim_on"] - r["sim_knock"]) / 10.0
    corr = (r["learned0"] - (r["on0"] - r["knock0"])) / 10.0
    return (1.0, sim, corr, r["slope"] * corr, need_mine, need_theirs, r["slope"])


def refit(train: Sequence[Row], products: bool, ridge: float) -> Rule:
    w = ridge_fit([parts(r) for r in train], [r["on"] - r["knock"] for r in train], ridge, products)

    def knocks(r: Row) -> bool:
        x = quadratic(parts(r)) if products else parts(r)
        return sum(a * b for a, b in zip(w, x, strict=True)) <= 0

    return knocks


def score(args: argparse.Namespace) -> None:
    rows: list[Row] = []
    for path in args.data:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    games = sorted({r["game"] for r in rows})
    cut = games[len(games) // 2]
    halves = ([r for r in rows if r["game"] < cut], [r for r in rows if r["game"] >= cut])
    at00 = sum(r["mine"] == 0 and r["theirs"] == 0 for r in rows)
    print(
        f"{len(rows)} chances in {len(games)} games ({at00} at 0-0); "
        f"master knocked at {sum(r['chose_knock'] for r in rows) / len(rows):.1%}"
    )
    fixed: dict[str, Rule] = {
        "master (shipped; its own choice re-estimated)": lambda r: shipped_edge(r) <= 0,
        "the simulations alone": lambda r: r["sim_on"] - r["sim_knock"] <= 0,
        "the correction without the slope": lambda r: (
            r["sim_on"] - r["sim_knock"] + r["learned0"] - (r["on0"] - r["knock0"]) <= 0
        ),
        "the 0-0 learned edge alone": lambda r: r["learned0"] <= 0,
    }
    for name, rule in fixed.items():
        cells = [gain(h, rule) for h in halves]
        print(f"{name:55s}" + "".join(f"  {m:+.2f} ± {s:.2f}" for m, s in cells))
    for products in (False, True):
        cells = []
        for i in (0, 1):
            rule = refit(halves[1 - i], products, args.ridge)
            cells.append(gain(halves[i], rule))
        name = f"refit on the other half{' with products' if products else ''}"
        print(f"{name:55s}" + "".join(f"  {m:+.2f} ± {s:.2f}" for m, s in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--seed", default="kG")
    c.add_argument("--preset", default="classic")
    c.add_argument("--level", default="master")
    c.add_argument("--games", type=int, default=250)
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("out", type=Path)
    s = sub.add_parser("score")
    s.add_argument("--ridge", type=float, default=100.0)
    s.add_argument("data", type=Path, nargs="+")
    args = parser.parse_args()
    collect(args) if args.command == "collect" else score(args)


if __name__ == "__main__":
    main()
