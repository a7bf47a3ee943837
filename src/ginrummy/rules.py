"""Rules: one frozen value holding every number and choice of the rules we play
(docs/rules.md), and the presets.

>>> Rules.preset("classic").big_gin_bonus is None
True
>>> import dataclasses
>>> dataclasses.replace(Rules.preset("tournament"), target=250).target
250
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, ClassVar

from .errors import RulesError


class Shutout(StrEnum):
    """The shutout rule at the end of a game."""

    NONE = "none"
    """No shutout bonus (``classic``)."""
    DOUBLE_HAND_POINTS = "double-hand-points"
    """The crosser won every scored hand: the crosser's hand points are doubled (``tournament``)."""
    DOUBLE_BONUSES = "double-bonuses"
    """The loser scored no points: the winner's line and game bonuses are doubled (``app``)."""
    DOUBLE_GAME_BONUS = "double-game-bonus"
    """The loser won no hand: the game bonus is doubled, 200 by default (``parlor``)."""


class WinnerRule(StrEnum):
    """Who wins the game."""

    GRAND_TOTAL = "grand-total"
    """The higher grand total after the bonuses (equal totals: a drawn game)."""
    FIRST_TO_TARGET = "first-to-target"
    """The player whose hand points reach the target first."""


_DICTS: dict[Rules, dict[str, Any]] = {}
"""``Rules.to_dict`` of the rules seen lately (a few: presets and their variations)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A whole ruleset. Change options with :func:`dataclasses.replace`.

    ``name`` is informational (the preset it came from); everything that matters is in the
    other fields, and records store all of them.
    """

    name: str = "tournament"
    knock_limit: int = 10
    """Most deadwood (of the ten kept cards) with which one may knock."""
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int | None = 31
    """Bonus for Big Gin; ``None`` means Big Gin is not played."""
    target: int = 100
    """Hand points that end the game."""
    line_bonus: int = 25
    """Bonus per hand won, added at the end of the game (0: off)."""
    game_bonus: int = 100
    """Bonus to the crosser (``GRAND_TOTAL``) or the winner (``FIRST_TO_TARGET``); 0: off."""
    shutout: Shutout = Shutout.DOUBLE_HAND_POINTS
    winner: WinnerRule = WinnerRule.GRAND_TOTAL
    oklahoma: bool = False
    """The first upcard sets the hand's knock limit (its points; an ace: gin only) and a
    spade upcard doubles the hand's score."""

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("tournament", "classic", "app", "parlor")

    def __post_init__(self) -> None:
        def check(ok: bool, what: str) -> None:
            if not ok:
                raise RulesError(f"rules option out of range: {what}")

        check(0 <= self.knock_limit <= 100, f"knock_limit={self.knock_limit} (0..100)")
        check(self.gin_bonus >= 0, f"gin_bonus={self.gin_bonus} (>= 0)")
        check(self.undercut_bonus >= 0, f"undercut_bonus={self.undercut_bonus} (>= 0)")
        check(
            self.big_gin_bonus is None or self.big_gin_bonus >= 0,
            f"big_gin_bonus={self.big_gin_bonus} (None or >= 0)",
        )
        check(self.target >= 1, f"target={self.target} (>= 1)")
        check(self.line_bonus >= 0, f"line_bonus={self.line_bonus} (>= 0)")
        check(self.game_bonus >= 0, f"game_bonus={self.game_bonus} (>= 0)")
        check(isinstance(self.shutout, Shutout), f"shutout={self.shutout!r}")
        check(isinstance(self.winner, WinnerRule), f"winner={self.winner!r}")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset: ``tournament`` (the default), ``classic``, ``app`` or ``parlor``."""
        if not isinstance(name, str):
            raise RulesError(
                f"a preset is named by text, not {type(name).__name__}; presets are "
                f"{', '.join(cls.PRESET_NAMES)}",
                code="rules/unknown-preset",
            )
        key = name.strip().lower()
        if not key:
            raise RulesError(
                f"no preset named; presets are {', '.join(cls.PRESET_NAMES)}",
                code="rules/unknown-preset",
            )
        if key == "default":
            key = "tournament"
        if key not in _PRESETS:
            raise RulesError(
                f"unknown preset {name!r}; presets are {', '.join(cls.PRESET_NAMES)}",
                code="rules/unknown-preset",
            )
        return _PRESETS[key]

    @property
    def big_gin(self) -> bool:
        """Whether Big Gin is played."""
        return self.big_gin_bonus is not None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form (every option)."""
        cached = _DICTS.get(self)
        if cached is None:
            cached = {}
            for f in dataclasses.fields(self):
                value = getattr(self, f.name)
                cached[f.name] = value.value if isinstance(value, Enum) else value
            if len(_DICTS) < 256:  # every view names its rules: build each form once
                _DICTS[self] = cached
        return dict(cached)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Read :meth:`to_dict` output back; unknown or bad options raise :class:`RulesError`."""
        if not isinstance(data, dict):
            raise RulesError("rules must be an object of options")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        try:
            if "shutout" in kwargs:
                kwargs["shutout"] = Shutout(kwargs["shutout"])
            if "winner" in kwargs:
                kwargs["winner"] = WinnerRule(kwargs["winner"])
        except ValueError as exc:
            raise RulesError(f"bad rules option: {exc}") from None
        for key, value in kwargs.items():
            expected: tuple[type, ...] = {
                "name": (str,),
                "oklahoma": (bool,),
                "shutout": (Shutout,),
                "winner": (WinnerRule,),
                "big_gin_bonus": (int, type(None)),
            }.get(key, (int,))
            if not isinstance(value, expected) or (
                isinstance(value, bool) and bool not in expected
            ):
                raise RulesError(f"bad rules option {key}={value!r}")
        return cls(**kwargs)

    def describe(self) -> str:
        """A few lines a person reads: every option of this ruleset."""
        shutout_text = {
            Shutout.NONE: "none",
            Shutout.DOUBLE_HAND_POINTS: "crosser won every scored hand: crosser's hand points x2",
            Shutout.DOUBLE_BONUSES: "loser scored no points: winner's bonuses x2",
            Shutout.DOUBLE_GAME_BONUS: "loser won no hand: game bonus x2",
        }[self.shutout]
        bonus_to = "crosser" if self.winner is WinnerRule.GRAND_TOTAL else "winner"
        lines = [
            f"rules: {self.name}",
            f"  knock limit      {self.knock_limit}"
            + ("  (Oklahoma: set by the upcard)" if self.oklahoma else ""),
            f"  gin bonus        {self.gin_bonus}",
            f"  undercut bonus   {self.undercut_bonus}",
            f"  Big Gin bonus    {'off' if self.big_gin_bonus is None else self.big_gin_bonus}",
            f"  target           {self.target}",
            f"  line bonus       {self.line_bonus or 'off'}"
            + (" per hand won" if self.line_bonus else ""),
            f"  game bonus       {self.game_bonus or 'off'}"
            + (f" to the {bonus_to}" if self.game_bonus else ""),
            f"  shutout          {shutout_text}",
            "  winner           "
            + (
                "higher grand total"
                if self.winner is WinnerRule.GRAND_TOTAL
                else "first to the target"
            ),
            f"  Oklahoma         {'on' if self.oklahoma else 'off'}",
        ]
        return "\n".join(lines)


_PRESETS: dict[str, Rules] = {
    "tournament": Rules(),
    "classic": Rules(
        name="classic",
        big_gin_bonus=None,
        line_bonus=0,
        game_bonus=0,
        shutout=Shutout.NONE,
        winner=WinnerRule.FIRST_TO_TARGET,
    ),
    "app": Rules(
        name="app",
        shutout=Shutout.DOUBLE_BONUSES,
        winner=WinnerRule.FIRST_TO_TARGET,
    ),
    "parlor": Rules(
        name="parlor",
        big_gin_bonus=None,
        shutout=Shutout.DOUBLE_GAME_BONUS,
        winner=WinnerRule.FIRST_TO_TARGET,
    ),
}
