"""The server's limits: how big, how many and how often, and strict reading of JSON.

Every number a client can push on is bounded here (:class:`Limits`); the defaults suit a
table of people and are what ``ginrummy serve`` uses unless told otherwise.

* :func:`parse_json`: JSON as the server accepts it - no ``NaN`` or ``Infinity``, no lone
  surrogates or NUL characters in any string, no number of more than 20 digits, at most 16
  levels deep. Anything else is a :class:`BadInput` that names what was wrong (never
  echoing more than a short excerpt).
* :class:`TokenBucket` and :class:`RateTable`: sustained rates with bursts, per client, in a
  table of bounded size.
* :class:`RequestLimits`: an ASGI middleware in front of every HTTP route: the body-size limit
  (by ``Content-Length`` before anything is read, and while reading a body sent in chunks),
  strict JSON for bodies, the request rate per client and the rate of game creation per
  client. Refusals are JSON errors like every other: ``{"detail": {"code", "message"}}``.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound the server keeps. Rates are per client (its address, as the server sees
    it: behind a proxy, ``serve --forwarded-allow-ips`` makes that the person's)."""

    max_body_bytes: int = 16 * 1024
    """Largest HTTP request body (every route's largest real body is under 1 KB)."""
    body_seconds: float = 10.0
    """How long a request's body may take to arrive whole (``request/timeout``, 408): one
    sent a byte at a time would otherwise hold its connection for ever."""
    ws_max_message_bytes: int = 2048
    """Largest WebSocket message the server reads; larger ones get ``ws/too-large``."""
    ws_max_frame_bytes: int = 64 * 1024
    """Largest WebSocket message the transport reads at all (uvicorn's ``ws_max_size``);
    a larger frame closes the connection (code 1009) before it is read."""
    ws_rate: float = 10.0
    """Sustained WebSocket messages per second a connection may send..."""
    ws_burst: float = 20.0
    """... in bursts of up to this many."""
    http_rate: float = 20.0
    """Sustained HTTP requests per second per client..."""
    http_burst: float = 60.0
    """... in bursts of up to this many."""
    create_per_minute: float = 20.0
    """Games and players a client may create per minute, sustained..."""
    create_burst: float = 30.0
    """... in bursts of up to this many."""
    connections_per_game: int = 64
    """WebSocket connections one game may have (its two seats and spectators)."""
    connections_per_client: int = 32
    """WebSocket connections one client may hold at once, over all games."""
    send_queue: int = 64
    """Messages waiting for one connection; a connection further behind is dropped (it
    reconnects and syncs) instead of holding anyone else up."""
    send_timeout: float = 10.0
    """Seconds one message may take to reach a connection before it is dropped."""
    auth_seconds: float = 10.0
    """How long a new WebSocket has to send its auth message."""
    clients_tracked: int = 100_000
    """Clients whose rates are remembered (least recently seen forgotten first)."""

    def unlimited_rates(self) -> Limits:
        """These limits with every rate lifted (benchmarks, tests of other things)."""
        import dataclasses

        big = 1e9
        return dataclasses.replace(
            self,
            ws_rate=big,
            ws_burst=big,
            http_rate=big,
            http_burst=big,
            create_per_minute=big,
            create_burst=big,
        )


# --- strict JSON -----------------------------------------------------------------------------

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects accepted in a message or a body."""
MAX_DIGITS = 20
"""Longest number accepted, in characters."""


class BadInput(ValueError):
    """Input the server refuses to read; ``code`` is stable, the message says why."""

    def __init__(self, message: str, code: str = "request/malformed") -> None:
        super().__init__(message)
        self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


def excerpt(text: str | bytes, limit: int = 40) -> str:
    """At most ``limit`` characters of ``text``, printable and safe to send back or log."""
    if isinstance(text, bytes):
        text = text[: limit * 4].decode("utf-8", "replace")
    shown = repr(text[:limit])
    return shown + ("..." if len(text) > limit else "")


def _refuse_constant(name: str) -> Any:
    raise BadInput(f"{name} is not a JSON number")


def _parse_number(text: str) -> Any:
    if len(text) > MAX_DIGITS:
        raise BadInput(f"numbers are at most {MAX_DIGITS} characters")
    return json.loads(text)


def _bad_string(s: str) -> str | None:
    if s.isascii():
        return "NUL characters are not accepted" if "\x00" in s else None
    if "\x00" in s:
        return "NUL characters are not accepted"
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return "lone surrogates are not accepted"
    return None


def _check(value: Any, depth: int) -> None:
    if isinstance(value, str):
        problem = _bad_string(value)
        if problem is not None:
            raise BadInput(problem)
    elif isinstance(value, dict | list):
        if depth > MAX_DEPTH:
            raise BadInput(f"JSON nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check(key, depth + 1)
                _check(item, depth + 1)
        else:
            for item in value:
                _check(item, depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        raise BadInput("numbers must be finite")


def parse_json(data: str | bytes) -> Any:
    """``data`` read as strict JSON (see the module's notes), or :class:`BadInput`."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("JSON must be UTF-8") from None
    try:
        value = json.loads(
            data,
            parse_constant=_refuse_constant,
            parse_int=_parse_number,
            parse_float=_parse_number,
        )
    except BadInput:
        raise
    except RecursionError:
        raise BadInput(f"JSON nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # json.JSONDecodeError included
        where = f" at character {exc.pos}" if isinstance(exc, json.JSONDecodeError) else ""
        raise BadInput(f"not valid JSON{where}") from None
    _check(value, 1)
    return value


# --- rates -----------------------------------------------------------------------------------


class TokenBucket:
    """A sustained ``rate`` per second with bursts of up to ``burst``; one token per event."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self, now: float | None = None) -> bool:
        """Take a token if there is one."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def retry_after(self) -> float:
        """Seconds until a token is there."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate > 0 else 60.0


class RateTable:
    """A :class:`TokenBucket` per client key, for at most ``size`` keys (the least recently
    seen are forgotten: they come back with a full bucket, which is what a quiet client has)."""

    def __init__(self, rate: float, burst: float, size: int) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst)
            self._buckets[key] = bucket
            if len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def __len__(self) -> int:
        return len(self._buckets)


def client_key(scope: Scope) -> str:
    """Who is asking: the peer's address as the server sees it."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


# --- the HTTP middleware ---------------------------------------------------------------------


async def send_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    headers: Sequence[tuple[bytes, bytes]] = (),
) -> None:
    """Answer an HTTP request with our JSON error."""
    body = json.dumps({"detail": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


_CREATING = {("POST", "/api/games"), ("POST", "/api/players")}


class RequestLimits:
    """Bounds every HTTP request before the app sees it (see the module's notes)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.requests = RateTable(limits.http_rate, limits.http_burst, limits.clients_tracked)
        self.creations = RateTable(
            limits.create_per_minute / 60, limits.create_burst, limits.clients_tracked
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        api = path.startswith("/api/")
        key = client_key(scope)
        if api and not await self._rates_allow(scope, key, path, send):
            return
        declared = _content_length(scope)
        limit = self.limits.max_body_bytes
        if declared is not None and declared > limit:
            await send_error(
                send, 413, "request/too-large", f"request bodies are at most {limit} bytes"
            )
            return
        if scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        try:
            async with asyncio.timeout(self.limits.body_seconds):
                body = await _read_body(receive, limit)
        except TimeoutError:
            seconds = f"{self.limits.body_seconds:g}"
            await send_error(
                send,
                408,
                "request/timeout",
                f"the request's body did not come within {seconds} s",
                [(b"connection", b"close")],
            )
            return
        if body is None:
            await send_error(
                send, 413, "request/too-large", f"request bodies are at most {limit} bytes"
            )
            return
        if api and body:
            try:
                parse_json(body)
            except BadInput as exc:
                await send_error(send, 400, exc.code, exc.message)
                return
        await self.app(scope, _replay(body, receive), send)

    async def _rates_allow(self, scope: Scope, key: str, path: str, send: Send) -> bool:
        now = time.monotonic()
        bucket = self.requests.bucket(key)
        if not bucket.allow(now):
            await _too_many(send, "too many requests; slow down", bucket)
            return False
        if (scope.get("method"), path) in _CREATING:
            bucket = self.creations.bucket(key)
            if not bucket.allow(now):
                await _too_many(send, "too many games or players created; wait a little", bucket)
                return False
        return True


async def _too_many(send: Send, message: str, bucket: TokenBucket) -> None:
    wait = max(1, math.ceil(bucket.retry_after()))
    await send_error(
        send, 429, "request/rate-limited", message, [(b"retry-after", str(wait).encode())]
    )


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes ``limit`` bytes (the rest unread)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body already read, then the client's own
    messages (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
