"""The action notation, used everywhere (engine, records, CLI, server, AI).

============  =========================================================
``take``      opening: take the upcard
``pass``      opening: pass the upcard
``stock``     draw the top of the stock
``pile``      draw the top of the discard pile
``discard C`` discard card C
``knock C``   discard C and knock
``gin C``     discard C with no deadwood left: gin
``big-gin``   all eleven cards melded right after the draw (where played)
============  =========================================================

Canonical text is lower-case with the card in its two-character form (``discard 7h``). On
input, case, extra spaces and any card form :func:`~ginrummy.cards.parse_card` accepts are
tolerated (``Discard 10♥``).

>>> parse_action("Knock 10h")
Action(kind='knock', card=Card('Th'))
>>> str(Action("discard", Card("7h")))
'discard 7h'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import DECK, NAMES, Card, parse_card
from .errors import ActionSyntaxError, CardParseError

TAKE: Final = "take"
PASS: Final = "pass"
STOCK: Final = "stock"
PILE: Final = "pile"
DISCARD: Final = "discard"
KNOCK: Final = "knock"
GIN: Final = "gin"
BIG_GIN: Final = "big-gin"

KINDS_WITH_CARD: Final = (DISCARD, KNOCK, GIN)
KINDS_WITHOUT_CARD: Final = (TAKE, PASS, STOCK, PILE, BIG_GIN)
KINDS: Final = KINDS_WITHOUT_CARD + KINDS_WITH_CARD


@dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind and, for discard / knock / gin, the card."""

    kind: str
    card: Card | None = None

    def __str__(self) -> str:
        if self.card is None:
            return self.kind
        return f"{self.kind} {NAMES[self.card]}"


# Every canonical action string, parsed once: parsing a canonical string is a dict lookup.
ACTIONS: Final[dict[str, Action]] = {k: Action(k) for k in KINDS_WITHOUT_CARD}
for _kind in KINDS_WITH_CARD:
    for _card in DECK:
        ACTIONS[f"{_kind} {NAMES[_card]}"] = Action(_kind, _card)

DISCARD_TEXT: Final = tuple(f"discard {n}" for n in NAMES)
KNOCK_TEXT: Final = tuple(f"knock {n}" for n in NAMES)
GIN_TEXT: Final = tuple(f"gin {n}" for n in NAMES)


def parse_action(text: str) -> Action:
    """Parse action text; raise :class:`~ginrummy.errors.ActionSyntaxError` if it is not one."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is text, not {type(text).__name__}")
    found = ACTIONS.get(text)
    if found is not None:
        return found
    shown = text if len(text) <= 40 else text[:40] + "..."
    typed = text.strip().split()  # the card is quoted as typed in any message
    words = [word.lower().replace("_", "-") for word in typed]
    if not words:
        raise ActionSyntaxError("empty action; actions are: " + ", ".join(KINDS))
    kind = words[0]
    if kind == "biggin" or words[:2] == ["big", "gin"]:
        kind, words = BIG_GIN, [BIG_GIN, *words[2 if words[:2] == ["big", "gin"] else 1 :]]
    if kind in KINDS_WITHOUT_CARD:
        if len(words) != 1:
            raise ActionSyntaxError(f"{kind!r} takes no card: {shown!r}")
        return ACTIONS[kind]
    if kind in KINDS_WITH_CARD:
        if len(words) != 2:
            raise ActionSyntaxError(f"{kind!r} needs exactly one card, e.g. '{kind} 7h': {shown!r}")
        try:
            card = parse_card(typed[-1])
        except CardParseError as exc:
            raise ActionSyntaxError(f"{kind}: {exc}") from None
        return ACTIONS[f"{kind} {NAMES[card]}"]
    raise ActionSyntaxError(f"unknown action {shown!r}; actions are: {', '.join(KINDS)}")
