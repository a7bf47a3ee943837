"""Helpers and fixtures for tests that drive the real server and a real browser.

* :class:`Server`: ``ginrummy serve`` as a child process on 127.0.0.1 (start, kill, stop,
  restart); :func:`free_port`.
* :class:`StaticServer`: a directory served over HTTP on 127.0.0.1, in a thread.
* :func:`launch_browser`: Debian's Chromium (``/usr/bin/chromium``, or ``GINRUMMY_CHROMIUM``)
  through Playwright, with no network chatter of its own; :func:`require_browser` skips a test
  when Playwright or Chromium is missing, or fails it when ``GINRUMMY_REQUIRE_BROWSER=1``.
* :data:`ARTIFACTS`: where screenshots go (``GINRUMMY_ARTIFACTS``, default ``artifacts/``).

Fixtures: ``browser`` (one Chromium for the session), ``page`` (a fresh context and page per
test; a screenshot goes to :data:`ARTIFACTS` when the test fails), ``server`` (a
:class:`Server` shared by a module's tests), ``live_server`` (a :class:`Server` of the test's
own, on a fresh SQLite file) and ``static_server`` (the web client's static files).
A test module takes the ones it uses by name (``from web_support import browser`` would trip
ruff's F401/F811 on every test that takes it as an argument)::

    import web_support

    browser = web_support.browser
    page = web_support.page
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright
    from websockets.sync.client import ClientConnection

REPO = Path(__file__).resolve().parent.parent
STATIC = REPO / "src" / "ginrummy" / "web" / "static"
ARTIFACTS = Path(os.environ.get("GINRUMMY_ARTIFACTS", str(REPO / "artifacts")))
"""Where screenshots and other browser artifacts go; created on demand (:func:`artifact`)."""
CHROMIUM = os.environ.get("GINRUMMY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def artifact(name: str) -> Path:
    """A path for an artifact file named ``name`` under :data:`ARTIFACTS` (created)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- the browser --------------------------------------------------------------------------


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install playwright)"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(
        CHROMIUM
    ):
        return f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)"
    return None


def require_browser() -> None:
    """Skip the calling test when there is no browser; fail it if GINRUMMY_REQUIRE_BROWSER=1."""
    why = browser_missing()
    if why is None:
        return
    if os.environ.get("GINRUMMY_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required (GINRUMMY_REQUIRE_BROWSER=1): {why}", pytrace=False)
    pytest.skip(f"no browser: {why}")


def launch_browser(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, through Playwright."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


class _Shared:
    """The one Playwright and Chromium of this process: Playwright's sync API cannot run two
    at once in a thread, and every test module that takes ``browser`` gets its own copy of the
    fixture, so the copies share this, counted, and the last one out closes it."""

    users = 0
    playwright: Playwright | None = None
    browser: Browser | None = None


@contextlib.contextmanager
def browser_session() -> Iterator[Browser]:
    """The shared Chromium for a ``with`` block; started on first use, closed when the last
    block ends (skips or fails via :func:`require_browser` when there is no browser)."""
    require_browser()
    if _Shared.browser is None:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        try:
            _Shared.browser = launch_browser(playwright)
        except BaseException:
            playwright.stop()
            raise
        _Shared.playwright = playwright
    _Shared.users += 1
    try:
        yield _Shared.browser
    finally:
        _Shared.users -= 1
        if _Shared.users == 0:
            browser, playwright = _Shared.browser, _Shared.playwright
            _Shared.browser = _Shared.playwright = None
            with contextlib.suppress(Exception):
                browser.close()
            if playwright is not None:
                playwright.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for the whole session (shared by every module that takes it)."""
    with browser_session() as b:
        yield b


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser context and page; on a failed test a full-page screenshot is saved to
    ``ARTIFACTS/<test name>.png``. Console errors are collected in ``page.console_errors``."""
    # bypass_csp: Playwright evaluates wait_for_function's predicates with eval, which the
    # table's Content-Security-Policy forbids (test_web_table checks the table under it)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    new_page.on("pageerror", lambda e: errors.append(str(e)))
    new_page.console_errors = errors  # type: ignore[attr-defined]
    failed_before = request.session.testsfailed
    yield new_page
    # the test's own failure is counted before its teardown runs
    if request.session.testsfailed > failed_before:
        with contextlib.suppress(Exception):
            new_page.screenshot(path=str(artifact(f"{request.node.name}.png")), full_page=True)
    context.close()


# --- a static directory over HTTP ---------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".css": "text/css",
        ".svg": "image/svg+xml",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class StaticServer:
    """``directory`` served over HTTP on 127.0.0.1 by a thread; use as a context manager."""

    def __init__(self, directory: Path | str = STATIC) -> None:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = int(self.httpd.server_address[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> StaticServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def static_server() -> Iterator[StaticServer]:
    """The web client's static files (src/ginrummy/web/static) on 127.0.0.1."""
    with StaticServer(STATIC) as srv:
        yield srv


# --- the real server ----------------------------------------------------------------------


class Server:
    """``ginrummy serve`` in a child process on 127.0.0.1.

    Its output goes to a temporary file (a pipe nobody reads would fill up and stall the
    server); :meth:`output` reads it.
    """

    def __init__(self, db: str, port: int | None = None, extra_args: Sequence[str] = ()) -> None:
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.extra_args = list(extra_args)
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self, timeout: float = 30) -> None:
        """Start the server and wait until /api/health answers."""
        if self._log is None:
            self._log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ginrummy.cli",
                "serve",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                *self.extra_args,
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"the server exited with code {self.proc.returncode}:\n{self.output()}"
                )
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start in {timeout} s:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no chance to clean up (a crash)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Terminate gracefully (SIGTERM; SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def restart(self) -> None:
        """Stop gracefully and start again on the same port and database."""
        self.stop()
        self.start()

    def output(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0)
        text = self._log.read().decode(errors="replace")
        self._log.seek(0, os.SEEK_END)
        return text

    def close(self) -> None:
        """Stop the server and drop its output."""
        self.stop()
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def ws(self, game_id: str, token: str | None) -> Iterator[ClientConnection]:
        """A WebSocket to a game, authenticated with ``token`` (None: a spectator)."""
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{self.port}/ws/games/{game_id}", open_timeout=10) as conn:
            conn.send(json.dumps({"type": "auth", "token": token}))
            yield conn


def polite(method: str, url: str, **kwargs: Any) -> httpx.Response:
    """An HTTP request from a test's own helper (not the page) that waits out the server's
    rate limit as a well-behaved client does: on 429 it sleeps the ``Retry-After`` seconds
    and asks again, for up to 20 s. A helper that polls a game's view while a browser plays
    makes more requests a second than a person's page would, and the test servers run with
    the default limits (20 a second, bursts of 60), which such polling can reach."""
    deadline = time.monotonic() + 20
    while True:
        response = httpx.request(method, url, timeout=10, **kwargs)
        if response.status_code != 429 or time.monotonic() > deadline:
            return response
        time.sleep(min(2.0, float(response.headers.get("Retry-After", "0.5") or 0.5)))


LIFTED_RATES = ("--http-rate", "10000", "--create-rate", "10000")
"""``serve`` options that lift the HTTP and game-creation rate limits (not the WebSocket's)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``ginrummy serve`` for the tests of a module: a fresh SQLite file, the rate limits
    lifted (:data:`LIFTED_RATES`). Starting a server takes over a second, and the browser
    tests are most of CI's time; each test plays its own games with its own players (a new
    browser context is a new player), so the tests do not meet on it, and the rates of a
    whole module of tests from one address would otherwise add up. A test that stops, kills
    or freezes its server, or leaves a turn timer running, takes ``live_server`` (its own,
    with the default limits)."""
    with Server(
        str(tmp_path_factory.mktemp("shared") / "games.db"), extra_args=LIFTED_RATES
    ) as srv:
        yield srv


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Server]:
    """A ``ginrummy serve`` process on a fresh SQLite file."""
    with Server(str(tmp_path / "games.db")) as srv:
        yield srv


# --- what a failed browser test leaves behind -----------------------------------------------

_PAGE_STATE = """() => {
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
  const conn = document.querySelector('#conn');
  return JSON.stringify({
    url: location.href,
    page: document.body.dataset.page,
    staging: document.body.dataset.staging,
    lobby_error: text('#lobby-error'),
    status: text('#status'),
    conn: conn && !conn.hidden ? conn.textContent : null,
    hand_cards: document.querySelectorAll('#hand .card').length,
    version: document.body.dataset.version,
    dialogs: [...document.querySelectorAll('[role=dialog]:not([hidden]), dialog[open]')]
      .map((d) => d.id),
  });
}"""


def failure_context(funcargs: dict[str, Any]) -> list[tuple[str, str]]:
    """Report sections for a failed test: the tail of every :class:`Server`'s output and the
    state of every page open in a Playwright ``Browser`` among the test's fixtures (its address,
    page, status and connection lines, cards in hand), so a browser test that timed out says
    what the table was showing and what the server saw."""
    sections: list[tuple[str, str]] = []
    for name, value in funcargs.items():
        if isinstance(value, Server):
            sections.append((f"{name}: the server's last output", value.output()[-6000:]))
        contexts = getattr(value, "contexts", None)
        if contexts is None or not hasattr(value, "new_context"):
            continue
        for i, context in enumerate(contexts):
            for j, open_page in enumerate(context.pages):
                try:
                    state = str(open_page.evaluate(_PAGE_STATE))
                except Exception as exc:  # a closed or crashed page says so
                    state = f"(no state: {exc})"
                sections.append((f"{name}: context {i} page {j}", state))
    return sections
