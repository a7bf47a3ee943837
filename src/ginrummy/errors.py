"""The error family. Every error is a ``ValueError`` with a stable ``code``.

Codes are part of the public API (the server sends them to clients): they never change
meaning. The message is for a person and may be reworded.

==========================  ===========================================================
code                        meaning
==========================  ===========================================================
``card/parse``              a token is not a card, or a card is given twice
``action/syntax``           the text is not an action of the notation
``action/hand-over``        the hand has ended; no action is possible
``action/not-your-turn``    the seat named is not the seat to act
``action/wrong-phase``      this kind of action is not possible now (draw vs discard)
``action/not-in-hand``      the card named is not in the hand
``action/discard-taken``    discarding the card just taken from the pile
``action/first-draw-stock`` after both passed the upcard, the first draw is from stock
``action/knock-too-high``   knocking with more deadwood than the knock limit
``action/not-gin``          claiming gin with deadwood left
``action/is-gin``           knocking with zero deadwood: that is gin
``action/big-gin-off``      Big Gin is not part of these rules
``action/not-big-gin``      claiming Big Gin without all eleven cards melded
``rules/unknown-preset``    no preset of that name
``rules/invalid``           a rules option out of range
``setup/invalid``           a hand set up with wrong or overlapping cards
``record/invalid``          a game record that is malformed, corrupt or tampered with
``game/over``               the game has ended
==========================  ===========================================================
"""

from __future__ import annotations


class GinRummyError(ValueError):
    """Base of all ginrummy errors: a ``ValueError`` with a stable ``code``."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        """The human message."""
        return str(self.args[0])


class CardParseError(GinRummyError):
    """A token that is not a card (the message names the token)."""

    code = "card/parse"

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"bad card {token!r}: {reason}")
        self.token = token


class IllegalActionError(GinRummyError):
    """An action that is not legal in this state; the state is unchanged.

    ``code`` is one of the ``action/...`` codes in the table of :mod:`ginrummy.errors`.
    """

    code = "action/illegal"


class ActionSyntaxError(IllegalActionError):
    """Text that is not an action of the notation at all."""

    code = "action/syntax"


class RulesError(GinRummyError):
    """An unknown preset or a rules option out of range."""

    code = "rules/invalid"


class SetupError(GinRummyError):
    """A hand set up with missing, extra or repeated cards."""

    code = "setup/invalid"


class RecordError(GinRummyError):
    """A game record that is malformed, corrupt or tampered with."""

    code = "record/invalid"


class GameOverError(GinRummyError):
    """An action sent to a game that has ended."""

    code = "game/over"
