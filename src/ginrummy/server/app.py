"""The web app: the HTTP API, a WebSocket per game seat, over :class:`GameService`, and the
browser table's own files (``ginrummy/web/static``, see ``docs/web.md``).

The server is the only authority; a client sends actions in the engine's notation and
receives its own seat's view (a spectator: the public view). Every message to a client is
built from that client's view, so hidden cards and the deck order never leave the server
before the reveal. Bad input (malformed or oversized messages, unknown or illegal actions,
wrong tokens, floods) gets an error to that client only and changes nothing.

The rooms of the house:

* :mod:`.routes`: the HTTP API;
* :mod:`.websocket`: the WebSocket of a game;
* :mod:`.hub`: this process's connections, their send queues, presence and the fan-out of
  new versions (:class:`~.hub.FanOut`);
* :mod:`.timers`: the turn timers (an absent seat's turn played once its deadline passes);
* :mod:`.limits`: sizes, rates and strict JSON; :mod:`.security`: headers, hosts, origins.

Protocol: ``docs/protocol.md``; the HTTP part is described by OpenAPI at ``/openapi.json``
(the interactive ``/docs`` pages would load scripts from a CDN, so they are not served).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path as Path_
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from .hub import FanOut, Hub, LocalFanOut
from .limits import Limits, RequestLimits, excerpt
from .routes import api_routes
from .security import LOOPBACK_NAMES, SecurityHeaders
from .service import GameService
from .timers import TurnTimers
from .websocket import SocketHandler, SocketRoutes

log = logging.getLogger("ginrummy.server")

STATIC = Path_(__file__).resolve().parent.parent / "web" / "static"
"""The browser table: plain HTML, CSS and JavaScript, served as they are (no build step)."""

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Gin Rummy: no such page</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body data-page="not-found">
<header class="topbar"><a class="brand" href="/">Gin&nbsp;Rummy</a></header>
<main>
<section id="not-found" class="page" aria-labelledby="not-found-title">
  <div class="panel join-panel">
    <h1 id="not-found-title">No such page</h1>
    <p id="not-found-text">There is nothing at this address. Check that the link was copied \
whole, or start again from the lobby.</p>
    <p><a href="/" id="not-found-lobby" class="button primary">Back to the lobby</a></p>
  </div>
</section>
</main>
</body>
</html>
"""
"""What a browser is shown for an address that leads nowhere (see :func:`_page_address`):
no script and no inline style, so the Content-Security-Policy lets it be; the table's own
stylesheet dresses it."""

_NOT_PAGES = ("/api/", "/static/", "/ws/")
"""Paths whose answers are for programs (or files): a 404 there stays the JSON error."""


def _page_address(request: Request) -> bool:
    """Whether ``request`` asks for what may be a page: a GET (or HEAD) for an address outside
    the API, the static files and the WebSockets (a browser's, if it accepts HTML)."""
    path = request.url.path
    return request.method in ("GET", "HEAD") and path != "/api" and not path.startswith(_NOT_PAGES)


def create_app(
    service: GameService,
    limits: Limits | None = None,
    *,
    allowed_hosts: Sequence[str] = LOOPBACK_NAMES,
    allowed_origins: Sequence[str] = (),
    fanout: FanOut | None = None,
    redis_url: str | None = None,
    settle_on_start: bool = True,
) -> FastAPI:
    """The ASGI app serving ``service`` within ``limits``.

    ``allowed_hosts``: the ``Host`` names answered (``["*"]``: any);
    ``allowed_origins``: web origins besides the server's own whose pages may open its
    WebSockets; ``fanout``: how news of a stored change reaches the connections (default:
    this process's own; ``redis_url``: Redis, for several processes on one database);
    ``settle_on_start``: do, in the background at start, every step
    the server owes a game (a deal, an AI turn) left undone by a crash.
    """
    limits = limits or Limits()
    hub = Hub(service, limits)
    if fanout is None and redis_url is not None:
        from .redis_fanout import RedisFanOut

        fanout = RedisFanOut(hub, service, redis_url)
    fanout = fanout or LocalFanOut(hub)
    timers = TurnTimers(service, fanout)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await fanout.start()
        if settle_on_start:
            threading.Thread(target=_settle, args=(service,), daemon=True).start()
        await timers.start()
        yield
        await timers.close()
        await fanout.close()

    app = FastAPI(
        title="ginrummy",
        description="Gin Rummy game server: create and join games, act, watch.",
        version="1",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.include_router(api_routes(service, fanout))
    _errors(app)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    # The browser table is one page; these paths open it at a game, an invite or a replay.
    for path in ("/", "/history", "/game/{game_id}", "/join/{game_id}", "/replay/{game_id}"):
        app.add_api_route(path, page, include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # outermost first: headers on every answer, the host check, the limits, the WebSockets
    sockets = SocketHandler(service, hub, fanout, limits, list(allowed_origins))
    app.add_middleware(SocketRoutes, handler=sockets)
    app.add_middleware(RequestLimits, limits=limits)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app.add_middleware(SecurityHeaders)
    app.state.hub = hub
    app.state.limits = limits
    app.state.timers = timers
    return app


class _OneLineDatabaseFaults(logging.Filter):
    """SQLAlchemy's pool logs a connection that failed to reset (the database dropped it)
    with its whole traceback: a fault of the database, already handled (the connection is
    thrown away). One line says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("sqlalchemy") and record.exc_info:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {type(exc).__name__}: {str(exc)[:200]}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def configure_logging(level: int = logging.WARNING) -> None:
    """The server's log: warnings and errors to standard error, one line each for the
    database's faults (a bug in the server still shows its traceback, at most every 10 s)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(_OneLineDatabaseFaults())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)


SERVE_SETTINGS = "GINRUMMY_SERVE"
"""The environment variable through which ``serve --workers N`` gives each worker process
its settings (JSON: ``db``, ``limits``, ``allowed_hosts``, ``allowed_origins``,
``redis_url``)."""


def app_from_environment() -> FastAPI:
    """The app of one worker process of ``serve --workers N``: uvicorn starts each worker
    and calls this by name; the settings come from :data:`SERVE_SETTINGS`."""
    import dataclasses
    import gc
    import json
    import os

    from .store import open_store

    settings = json.loads(os.environ[SERVE_SETTINGS])
    configure_logging()
    fields = {f.name for f in dataclasses.fields(Limits)}
    limits = Limits(**{k: v for k, v in settings["limits"].items() if k in fields})
    app = create_app(
        GameService(open_store(settings["db"])),
        limits,
        allowed_hosts=settings["allowed_hosts"],
        allowed_origins=settings["allowed_origins"],
        redis_url=settings["redis_url"],
    )
    gc.freeze()  # as serve does (see there)
    gc.set_threshold(20_000, 20, 50)
    return app


def _settle(service: GameService) -> None:
    try:
        owed = service.settle_all()
    except Exception as exc:  # the store is down at start: games settle on their next use
        log.warning("could not check games for owed steps at start: %s", type(exc).__name__)
        return
    if owed:
        log.warning("did the steps owed to %d game(s) left unfinished by a fault", owed)


def _errors(app: FastAPI) -> None:
    """Refusals as JSON with a stable code, never echoing more than a short excerpt; a bug
    as a 500 with one log line (a traceback at most every 10 s, so bad input cannot fill
    the log). A browser asking for a page at an address that leads nowhere gets a small
    HTML page instead (:data:`NOT_FOUND_PAGE`); programs still get the JSON."""

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for item in exc.errors()[:3]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{excerpt(where, 30)[1:-1] or 'body'}: {item.get('msg', 'invalid')}")
        message = "; ".join(problems) or "invalid request"
        return JSONResponse(
            {"detail": {"code": "request/invalid", "message": message[:300]}}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        page = exc.status_code == 404 and _page_address(request)
        if page and "text/html" in request.headers.get("accept", ""):  # a mistyped address
            return HTMLResponse(
                NOT_FOUND_PAGE,
                status_code=404,
                headers={"Cache-Control": "no-cache", "Vary": "Accept"},
            )
        detail: Any = exc.detail  # ours carry {"code", "message"}; the framework's a string
        if not isinstance(detail, dict):  # the framework's own (no such path, method): coded
            code = {404: "http/not-found", 405: "http/method-not-allowed"}.get(
                exc.status_code, f"http/{exc.status_code}"
            )
            detail = {"code": code, "message": str(detail)[:200]}
        headers = dict(exc.headers or {})
        if page:
            headers["Vary"] = "Accept"  # the same address answers a browser with HTML
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)

    last = [0.0]

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        now = time.monotonic()
        if now - last[0] > 10:
            last[0] = now
            log.error("%s %s failed", request.method, request.url.path[:80], exc_info=exc)
        else:
            log.error("%s %s failed: %s", request.method, request.url.path[:80], type(exc).__name__)
        return JSONResponse(
            {"detail": {"code": "server/internal", "message": "the server failed; try again"}},
            status_code=500,
        )
