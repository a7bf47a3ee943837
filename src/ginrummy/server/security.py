"""What the server tells browsers, and which pages and hosts may talk to it.

* :class:`SecurityHeaders`: every HTTP answer carries a Content-Security-Policy that fits the
  table (its own scripts, styles and images only, WebSockets to itself, no frames, no
  plug-ins), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and a referrer
  policy that keeps addresses on this site.
* :func:`origin_allowed`: a WebSocket opened by a web page must come from a page this server
  served (its ``Origin`` names the same host and port as its ``Host``), or from an origin
  listed with ``--allowed-origin``. Clients that are not browsers send no ``Origin`` and are
  let in: the token, not the origin, is what opens a seat.
* :func:`default_hosts`: the ``Host`` names accepted (Starlette's ``TrustedHostMiddleware``
  refuses the rest): a server on a loopback address answers only to loopback names, so a page
  elsewhere cannot reach it by DNS rebinding; one on another address answers to any name
  unless ``--allowed-host`` says which (:func:`host_pattern` checks each). The address it
  listens on is always answered.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from .limits import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; media-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds :data:`HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def host_pattern(name: str) -> str:
    """``name`` (an ``--allowed-host``) as the ``Host`` check compares it: lower case, an
    IPv6 address in brackets (as a ``Host`` header writes it). A name that could never match
    a ``Host`` - empty, a URL, with a port, a misplaced ``*`` - raises ``ValueError`` saying
    why (Starlette would take it and then fail every request, or refuse every one)."""
    text = name.strip().lower()
    if not text:
        raise ValueError("the name is empty")
    if "/" in text or "@" in text:
        raise ValueError(f"{name!r} is not a host name; give the name alone, e.g. example.org")
    if "*" in text:
        if text == "*" or (text.startswith("*.") and "*" not in text[1:] and len(text) > 2):
            return text
        raise ValueError(f"{name!r}: a wildcard is * alone or a leading *. (*.example.org)")
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    if ":" in bare:
        try:
            return f"[{ipaddress.IPv6Address(bare)}]"
        except ValueError:
            raise ValueError(
                f"{name!r}: give the name without a port (a Host is matched without it)"
            ) from None
    if bare != text:
        raise ValueError(f"{name!r}: only an IPv6 address goes in brackets")
    return text


def _listen_name(bind_host: str) -> str | None:
    """How a ``Host`` header names the address the server listens on (None for a wildcard
    address such as 0.0.0.0, which no browser is sent to)."""
    bare = bind_host.strip().strip("[]").lower()
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        return bare or None
    if address.is_unspecified:
        return None
    return f"[{address}]" if address.version == 6 else str(address)


def default_hosts(bind_host: str, allowed: Iterable[str] = ()) -> list[str]:
    """The ``Host`` names to accept for a server bound to ``bind_host``: ``allowed`` if
    given (see :func:`host_pattern`); else the loopback names for a loopback address, any
    name otherwise. The address the server listens on (the one ``serve`` prints) is always
    answered: a ``Host`` that names an address, not a name, cannot come from DNS
    rebinding."""
    given = [host_pattern(name) for name in allowed]
    if not given:
        try:
            loopback = ipaddress.ip_address(bind_host.strip("[]")).is_loopback
        except ValueError:
            loopback = bind_host == "localhost"
        if not loopback:
            return ["*"]
        given = list(LOOPBACK_NAMES)
    own = _listen_name(bind_host)
    if own is not None and own not in given and "*" not in given:
        given.append(own)
    return given


def origin_pattern(text: str) -> str:
    """``text`` (an ``--allowed-origin``) as a browser writes an ``Origin``: the scheme and
    host in lower case, no default port, no slash at the end. Anything that could never
    equal an ``Origin`` - no scheme, a path, a query, a user - raises ``ValueError`` saying
    why (it would otherwise be taken and match nothing)."""
    given = text.strip()
    parts = urlsplit(given)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{given!r} is not a web origin; write it as https://example.org")
    if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(
            f"{given!r}: an origin is the scheme, host and port alone (https://example.org)"
        )
    scheme = parts.scheme.lower()
    try:
        port = parts.port
        host = parts.hostname
    except ValueError as exc:
        raise ValueError(f"{given!r}: {exc}") from None
    if not host:
        raise ValueError(f"{given!r} is not a web origin; write it as https://example.org")
    if ":" in host:
        host = f"[{host}]"
    default = 80 if scheme == "http" else 443
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def origin_allowed(headers: Mapping[str, str], allowed_origins: Iterable[str] = ()) -> bool:
    """Whether a WebSocket with these request headers may connect (see the module notes)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in set(allowed_origins):
        return True
    host = headers.get("host")
    if not host or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()
