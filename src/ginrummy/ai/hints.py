"""Hints for people: the recommended action and a one-line reason a person understands."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import parse_action
from ..cards import format_cards
from ..melds import arrange_mask, deadwood_mask
from ..views import PlayerView
from .base import discard_options, least_deadwood_discard
from .evaluate import OpponentModel, knock_value
from .knowledge import Knowledge, joins_meld
from .strong import ExpertPlayer


@dataclass(frozen=True, slots=True)
class Hint:
    """A recommended action (engine notation) and why."""

    action: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """Plain JSON-able form."""
        return {"action": self.action, "reason": self.reason}


class HintPlayer(ExpertPlayer):
    """The adviser behind :func:`hint`: the ``expert``, except at the last chance to knock
    (two cards left in the stock, where a discard that does not end the hand makes it void),
    where it advises a knock only if the knock's simulated deals value it at least as a void
    hand, as ``master`` plays (:attr:`HardPlayer.last_chance_search`): there the expert
    itself knocks whenever it can, and is undercut more often than not. The ``expert`` level
    keeps its own play so the strength table stays as measured."""

    last_chance_search = True


def _melds_text(mask: int) -> str:
    melds = arrange_mask(mask).melds
    return ", ".join(format_cards(m) for m in melds)


def hint(view: PlayerView, seed: int | str = 0) -> Hint:
    """What the ``expert`` level would play in ``view`` (at the last chance to knock, only a
    knock worth more than a void hand: :class:`HintPlayer`), with a reason.

    >>> from ginrummy import Rules, new_hand
    >>> state = new_hand(Rules.preset("classic"), 0,
    ...     hands=("As 2s 3s 7h 7d 7c Kd Qd Jd 5c", "Ah 2h 3h 4c 5d 6s 8c 9d Tc Jh"),
    ...     upcard="4s", stock="Jc 2d 8h 6h 6c 7s Js Kc Ks Ad 5h 4d Qc Th 8d")
    >>> state = state.apply("pass")
    >>> hint(state.view(0))
    Hint(action='take', reason='take 4s: it joins As 2s 3s')
    """
    if not view.legal_actions:
        raise ValueError("no hint: it is not this seat's turn")
    action = HintPlayer(seed).choose(view)
    return Hint(action, _reason(view, action, seed))


def _reason(view: PlayerView, action: str, seed: int | str) -> str:
    k = Knowledge(view)
    parsed = parse_action(action)
    kind = parsed.kind
    if kind == "big-gin":
        return "Big Gin: all eleven cards are melded"
    if kind in ("take", "pile"):
        top = k.top
        name = format_cards([top])
        what = f"take {name}" if kind == "take" else f"take {name} from the pile"
        with_top = k.hand | 1 << top
        if joins_meld(top, k.hand):
            arrangement = arrange_mask(with_top)
            for meld in arrangement.melds:
                if top in meld:
                    others = format_cards(c for c in meld if c != top)
                    return f"{what}: it joins {others}"
        return f"{what}: it lowers your deadwood more than a stock card would, on average"
    if kind in ("pass", "stock"):
        if k.top < 0 or view.phase == "first-draw":
            return "draw from the stock: the first draw after both passed must come from it"
        name = format_cards([k.top])
        verb = "pass" if kind == "pass" else "draw from the stock"
        return f"{verb}: {name} does not help your hand enough"
    assert parsed.card is not None
    card = int(parsed.card)
    kept = k.hand & ~(1 << card)
    dw = deadwood_mask(kept)
    name = format_cards([card])
    if kind == "gin":
        return f"gin: discard {name} and all ten cards are melded ({_melds_text(kept)})"
    if kind == "knock":
        risk = _undercut_risk(k, kept, seed)
        return f"knock now with {dw} deadwood: about {risk} % undercut risk"
    melds = _melds_text(kept)
    keeps = f"keeps {melds} and " if melds else ""
    reason = f"discard {name}: {keeps}lowers deadwood to {dw}"
    options = discard_options(k)
    knock_card, least = least_deadwood_discard(options)
    if least > k.knock_limit:
        return reason
    if k.stock_size <= 2:
        risk = _undercut_risk(k, k.hand & ~(1 << knock_card), seed)
        return reason + (
            f"; a knock now would lose points on average (about {risk} % "
            "undercut risk), and with two cards left in the stock this discard makes the "
            "hand void: no points to either side"
        )
    reason += "; you could knock, but playing on looks better (undercut risk, gin chances)"
    return reason


def _undercut_risk(k: Knowledge, kept: int, seed: int | str) -> int:
    """The chance, in whole per cent, that a knock keeping ``kept`` is undercut (200
    plausible opposing hands)."""
    _, undercut = knock_value(k, kept, OpponentModel(k), random.Random(seed), 200)
    return round(100 * undercut)
