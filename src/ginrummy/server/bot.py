"""A quick bot that plays from a view's JSON, as a client of the server would (tests, load
benchmarks): the research baseline's policy on the wire format."""

from __future__ import annotations

from typing import Any

from ..ai.knowledge import joins_meld
from ..cards import DECK, mask_of, parse_card, parse_cards
from ..melds import deadwood_after_discards_mask


def greedy_action(hand: dict[str, Any]) -> str:
    """For the ``hand`` part of a view (the seat to act): draw the pile card when it joins a
    meld, discard to the least deadwood (ties: the higher rank), knock as soon as possible."""
    legal = hand["legal_actions"]
    if len(legal) == 1:
        return str(legal[0])
    mask = mask_of(parse_cards(" ".join(hand["hand"])))
    if hand["phase"] in ("upcard-offer", "upcard-dealer", "draw"):
        wants = joins_meld(int(parse_card(hand["discard_pile"][-1])), mask)
        if "take" in legal:
            return "take" if wants else "pass"
        return "pile" if wants else "stock"
    if "big-gin" in legal:
        return "big-gin"
    options = deadwood_after_discards_mask(mask)
    if hand["taken_from_pile"] is not None:
        options.pop(int(parse_card(hand["taken_from_pile"])))
    name = str(DECK[min(options, key=lambda c: (options[c], -(c % 13)))])
    for kind in ("gin", "knock"):
        if f"{kind} {name}" in legal:
            return f"{kind} {name}"
    return f"discard {name}"
