"""``master``: expert plus search, valuing outcomes by the chance of winning the game."""

from __future__ import annotations

from functools import lru_cache

from .knowledge import Knowledge
from .strong import ExpertPlayer

# Points the winner of a hand scores, as a coarse distribution (knocks are mostly 5-30, gins
# and undercuts 25-60); used only to turn a score into a chance of winning the game.
_HAND_POINTS = (
    (5, 0.2),
    (10, 0.2),
    (15, 0.15),
    (20, 0.15),
    (25, 0.1),
    (30, 0.08),
    (40, 0.07),
    (55, 0.05),
)


@lru_cache(maxsize=8)
def win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance of reaching the target first when needing ``a`` more points
    against an opponent needing ``b``, if every later hand is a coin flip scoring the points
    above (a model for valuing scores, not a rule)."""
    table = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(target + 1):
        for b in range(target + 1):
            if a == 0 or b == 0:
                table[a][b] = 1.0 if a == 0 and b > 0 else 0.0
                continue
            table[a][b] = sum(
                p * 0.5 * (table[max(0, a - pts)][b] + table[a][max(0, b - pts)])
                for pts, p in _HAND_POINTS
            )
    return tuple(tuple(row) for row in table)


class MasterPlayer(ExpertPlayer):
    """Expert plus search: it deals plausible full states from its beliefs and plays them out
    (more of them, and trusting them fully when deciding to knock), and it values the outcomes
    by the chance of winning the game: near the target a safe small win can be worth more than
    a risky big one, far behind the opposite."""

    level = "master"
    knock_samples = 128
    play_on_margin = 0.0

    def utility(self, k: Knowledge, points: int) -> float:
        target = k.rules.target
        if target > 400:
            return float(points)
        table = win_table(target)
        mine = max(0, target - k.my_points)
        theirs = max(0, target - k.opp_points)
        if points >= 0:
            mine = max(0, mine - points)
        else:
            theirs = max(0, theirs + points)
        if mine == 0:
            return 100.0
        if theirs == 0:
            return -100.0
        # scaled so that a coin flip at the start is worth about as much as its points
        return 100.0 * (2.0 * table[mine][theirs] - 1.0)
