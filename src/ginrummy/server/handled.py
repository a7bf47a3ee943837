"""An HTTP request that failed is logged once, by the server.

Starlette hands an exception to the app's own handler (a 500 ``server/internal`` answer and
a log line: the traceback at most every 10 s, see :func:`ginrummy.server.app.create_app`)
and then raises it again, so that uvicorn logs it too: the whole traceback, "Exception in
ASGI application", for every failing request. A request that fails would then fill the log
however the server limits its own tracebacks. :class:`HandledErrors`, outermost, lets an
HTTP request's exception stop once its answer was sent (the server logged it); anything
else (a WebSocket's, or one no answer was sent for) goes on to uvicorn as before.
"""

from __future__ import annotations

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
