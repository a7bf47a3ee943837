"""An HTTP request that failed is logged once, by the server.

Starlette hands an exception to the app's own handler (a 500 ``server/internal`` answer and
a log line: the traceback at most every 10 s, see :func:`ginrummy.server.app.create_app`)
and then raises it again, so that uvicorn logs it too: the whole traceback, "Exception in
ASGI application", for every failing request. A request that fails would then fill the log
however the server limits its own tracebacks. :class:`HandledErrors`, outermost, lets an
HTTP request's exception stop once its answer was sent (the server logged it); anything
else (a WebSocket's, or one no answer was sent for) goes on to uvicorn as before.

uvicorn's own lines (:data:`UVICORN_LOGGING`) go to the server's log, in its format (with
the time), and :class:`Repeats` keeps each of them to one every :data:`REPEAT_SECONDS`: a
client sending malformed requests as fast as it can ("Invalid HTTP request received.", a
line each, never reaching the rate limits) cannot fill the log.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from .limits import ASGIApp, Message, Receive, Scope, Send


class HandledErrors:
    """See the module's notes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answered = False

        async def watch(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            if not answered:
                raise


def app_from_environment() -> HandledErrors:
    """The app of one worker process of ``serve --workers N``
    (:func:`ginrummy.server.app.app_from_environment`), its errors logged once."""
    from .app import app_from_environment as build

    return HandledErrors(build())


REPEAT_SECONDS = 10.0
"""The same line of uvicorn's is logged at most this often."""


class Repeats(logging.Filter):
    """Lets a message through at most every :data:`REPEAT_SECONDS`; the next one to pass
    says how many like it were left out meanwhile."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}
        """(logger, message) -> (when it was last let through, how many left out since)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
            # a request cut at a stop (after "Cancel N running task(s), ..."): no traceback
            return False
        key = (record.name, str(record.msg))
        now = time.monotonic()
        with self._lock:
            last, left_out = self._seen.get(key, (-REPEAT_SECONDS, 0))
            if now - last < REPEAT_SECONDS:
                self._seen[key] = (last, left_out + 1)
                return False
            if len(self._seen) > 1000:  # bounded, whatever the messages
                self._seen.clear()
            self._seen[key] = (now, 0)
        if left_out:
            record.msg = f"{record.getMessage()} ({left_out} more like it not logged)"
            record.args = ()
        return True


class Warnings(logging.Filter):
    """uvicorn's warnings and errors, and of its news one that matters: with ``--workers
    N``, a worker that died or stopped answering (it is killed) and was replaced, which
    uvicorn tells only as news ("Child process [PID] died") and the server's log, kept to
    warnings, left out."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        if str(record.msg).startswith("Child process [") and str(record.msg).endswith("] died"):
            record.msg = f"{record.getMessage()} (or stopped answering); another was started"
            record.args = ()
            record.levelno = logging.WARNING
            record.levelname = "WARNING"
            return True
        return False


UVICORN_LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"warnings": {"()": Warnings}, "repeats": {"()": Repeats}},
    "loggers": {
        # no handler of their own: to the server's log (the root's), in its format; its
        # news (INFO) reaches the filters, which keep only a worker's death of it
        "uvicorn": {"handlers": [], "level": "INFO", "propagate": True},
        "uvicorn.error": {"level": "INFO", "filters": ["warnings", "repeats"]},
        "uvicorn.access": {"handlers": [], "level": "INFO", "propagate": False},
    },
}
"""``uvicorn.run(log_config=..., log_level=None)`` for ``serve``; see the module's notes."""
