"""Running the server as an operator does: the options of ``ginrummy serve`` as its --help and
the README describe them, its start, its logs and its stop.

Most cases run ``serve`` in-process through click's CliRunner with ``uvicorn.run`` replaced
(what it would have been given is checked); a few start the real program on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ginrummy.cli import main
from ginrummy.server.security import LOOPBACK_NAMES, default_hosts, origin_pattern
from web_support import Server


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    """``uvicorn.run`` replaced: each call's arguments are recorded and nothing is served
    (the data folder is a temporary one)."""
    import uvicorn

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    calls: list[dict[str, Any]] = []

    def record(app: Any, **kwargs: Any) -> None:
        calls.append({"app": app, **kwargs})

    monkeypatch.setattr(uvicorn, "run", record)
    return calls


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(*args: str) -> Any:
    return CliRunner().invoke(main, ["serve", "--port", str(free_port()), *args])


# --- limits -----------------------------------------------------------------------------------


def test_http_rate_counts_api_requests_only_as_its_help_says(tmp_path: Path) -> None:
    # before: the help said "HTTP requests a second each client address may make", but the
    # table's pages and files were never counted, only /api/...
    help_text = " ".join(CliRunner().invoke(main, ["serve", "--help"]).output.split())
    assert (
        "--http-rate FLOAT RANGE Requests a second to the API (/api/...) each client address "
        "may make (bursts of three times that); the table's pages and files are not counted."
    ) in help_text
    with (
        Server(str(tmp_path / "g.db"), extra_args=["--http-rate", "1"]) as srv,
        httpx.Client(base_url=srv.base, timeout=10) as client,
    ):
        time.sleep(3)  # the bucket full again after the start's health checks
        assert [client.get("/api/health").status_code for _ in range(4)] == [
            200,
            200,
            200,
            429,
        ]
        assert [client.get("/static/style.css").status_code for _ in range(5)] == [200] * 5
        assert client.get("/", headers={"Accept": "text/html"}).status_code == 200


# --- hosts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("*foo.org", "'*foo.org': a wildcard is * alone or a leading *. (*.example.org)"),
        ("a*.org", "'a*.org': a wildcard is * alone or a leading *. (*.example.org)"),
        ("example.org:8000", "'example.org:8000': give the name without a port"),
        ("https://example.org", "'https://example.org' is not a host name"),
        ("", "the name is empty"),
    ],
)
def test_an_allowed_host_that_could_never_match_is_a_usage_error(
    started: list[dict[str, Any]], name: str, why: str
) -> None:
    # before: the server started; a misplaced * then failed every request with a 500 (and
    # a traceback in the log each time), the others refused every request
    result = serve("--allowed-host", name)
    assert result.exit_code == 2, result.output
    assert f"Error: Invalid value for '--allowed-host': {why}" in result.stderr
    assert started == []


def test_allowed_hosts_are_compared_as_a_host_header_writes_them(
    started: list[dict[str, Any]],
) -> None:
    # an IPv6 address given bare never matched: a Host header writes it in brackets
    assert default_hosts("0.0.0.0", ["::1", "Example.ORG", "*.example.org"]) == [
        "[::1]",
        "example.org",
        "*.example.org",
    ]
    result = serve("--allowed-host", "Games.Example.org")
    assert result.exit_code == 0, result.output
    assert hosts_of(started[0]["app"].app) == ["games.example.org", "127.0.0.1"]
    assert default_hosts("0.0.0.0", ["*"]) == ["*"]


def hosts_of(app: Any) -> list[str]:
    """The Host names the app's TrustedHostMiddleware answers to."""
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    for middleware in app.user_middleware:
        if middleware.cls is TrustedHostMiddleware:
            return list(middleware.kwargs["allowed_hosts"])
    raise AssertionError("no host check")


def test_the_address_the_server_prints_answers(tmp_path: Path) -> None:
    # before: on a loopback address other than 127.0.0.1 the server answered only to the
    # Host names 127.0.0.1, localhost and ::1, so the address it printed refused every
    # request (400 "Invalid host header"); the same with --allowed-host on any address
    assert default_hosts("127.0.0.2") == [*LOOPBACK_NAMES, "127.0.0.2"]
    assert default_hosts("::1") == LOOPBACK_NAMES
    assert default_hosts("127.0.0.1", ["example.org"]) == ["example.org", "127.0.0.1"]
    assert default_hosts("::1", ["example.org"]) == ["example.org", "[::1]"]
    assert default_hosts("0.0.0.0", ["example.org"]) == ["example.org"]
    assert default_hosts("10.1.2.3") == ["*"]
    # live, on 127.0.0.1 (the tests' servers bind nowhere else): with --allowed-host
    with Server(str(tmp_path / "g.db"), extra_args=["--allowed-host", "example.org"]) as srv:
        assert f"ginrummy server on {srv.base}," in srv.output()
        reply = httpx.get(f"{srv.base}/api/health", timeout=10)
        assert (reply.status_code, reply.json()) == (200, {"status": "ok"})
        named = httpx.get(f"{srv.base}/api/health", headers={"Host": "example.org"}, timeout=10)
        assert named.status_code == 200
        evil = httpx.get(f"{srv.base}/api/health", headers={"Host": "evil.example"}, timeout=10)
        assert evil.status_code == 400


# --- request heads ----------------------------------------------------------------------------


def big_head(port: int, megabytes: int) -> tuple[int, bytes]:
    """Send a request whose headers hold ``megabytes`` MB, a megabyte at a time, and read the
    answer: how much was sent before the server stopped reading, and what it said."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sent = 0
        answer = b""
        try:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for _ in range(megabytes):
                sock.sendall(b"X-Pad: " + b"a" * 1_000_000 + b"\r\n")
                sent += 1
            sock.sendall(b"\r\n")
            answer = sock.recv(65536)
        except (BrokenPipeError, ConnectionResetError):
            with contextlib.suppress(OSError):
                answer = sock.recv(65536)
        return sent, answer


def test_a_request_head_over_16_kib_is_refused(tmp_path: Path) -> None:
    # before: with httptools installed (uvicorn's choice then) the 16 KiB cap on a request
    # head, given to h11 only, did not apply: each request's headers were read whole, any
    # size (4 requests of 100 MB of headers each were answered 200, the server's memory
    # going from 84 MB to 505 MB)
    with Server(str(tmp_path / "g.db")) as srv:
        sent, answer = big_head(srv.port, 30)
        assert sent < 30 and not answer.startswith(b"HTTP/1.1 200"), (sent, answer[:100])
        padded = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 15_000
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
            sock.sendall(padded + b"\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 OK\r\n")


# --- origins ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "why"),
    [
        ("example.net", "'example.net' is not a web origin; write it as https://example.org"),
        (
            "https://example.org/games",
            "'https://example.org/games': an origin is the scheme, host and port alone "
            "(https://example.org)",
        ),
        ("ftp://example.org", "'ftp://example.org' is not a web origin"),
    ],
)
def test_an_allowed_origin_that_could_never_match_is_a_usage_error(
    started: list[dict[str, Any]], origin: str, why: str
) -> None:
    result = serve("--allowed-origin", origin)
    assert result.exit_code == 2, result.output
    assert f"Error: Invalid value for '--allowed-origin': {why}" in result.stderr
    assert started == []


def test_an_allowed_origin_is_compared_as_a_browser_writes_it(tmp_path: Path) -> None:
    # before: "https://example.org/" (a slash at the end), "https://Example.org" or
    # "https://example.org:443" were taken and matched no browser's Origin, so every page of
    # that site was refused (403) at the WebSocket handshake
    assert origin_pattern("https://Games.Example.org/") == "https://games.example.org"
    assert origin_pattern("https://example.org:443") == "https://example.org"
    assert origin_pattern("http://example.org:8080") == "http://example.org:8080"
    assert origin_pattern("http://[::1]:8080") == "http://[::1]:8080"
    extra = ["--allowed-origin", "https://example.org/", "--allowed-origin", "https://Example.NET"]
    with Server(str(tmp_path / "g.db"), extra_args=extra) as srv:
        from websockets.sync.client import connect

        def handshake(origin: str) -> int:
            url = f"ws://127.0.0.1:{srv.port}/ws/games/nosuchgame"
            try:
                with connect(url, origin=origin, open_timeout=10):  # type: ignore[arg-type]
                    return 101
            except InvalidStatus as exc:
                return exc.response.status_code

        assert handshake("https://example.org") == 101
        assert handshake("https://example.net") == 101
        assert handshake("https://evil.example") == 403


# --- the database -----------------------------------------------------------------------------


def test_a_postgresql_url_is_taken_with_its_scheme_in_any_case(
    started: list[dict[str, Any]], pg_database: str
) -> None:
    # before: the check took "PostgreSQL://" (it compared the scheme in lower case), then
    # SQLAlchemy refused it: "cannot open the database at ...: Can't load plugin:
    # sqlalchemy.dialects:PostgreSQL"
    url = "PostgreSQL://" + pg_database.split("://", 1)[1]
    result = serve("--db", url)
    assert result.exit_code == 0, result.output
    shown = "postgresql://" + pg_database.split("@", 1)[1]
    assert f"games stored in {shown}\n" in result.stdout
    assert len(started) == 1


def test_a_postgres_scheme_is_told_to_write_postgresql(started: list[dict[str, Any]]) -> None:
    # before: "unsupported database postgres://...: SQLite and PostgreSQL are supported"
    result = serve("--db", "postgres://ann:secret@127.0.0.1/games")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: --db postgres://127.0.0.1/games: write postgresql:// for PostgreSQL "
        "(postgres:// is not taken)\n"
    )
    assert started == []


@pytest.mark.parametrize(
    ("url", "message"),
    [
        # before: "failed to resolve host 'pw@127.0.0.1'": the end of the password, shown
        (
            "postgresql://ann:s3cret@pw@127.0.0.1/games",
            "--db postgresql://127.0.0.1/games: write an @ in the user or password as %40 "
            "(the URL has more than one)",
        ),
        # before: "invalid literal for int() with base 10: 'notaport'"
        (
            "postgresql://ann:s3cret@127.0.0.1:notaport/games",
            "--db postgresql://127.0.0.1:notaport/games is not a valid URL: Port could not be "
            "cast to integer value as 'notaport'",
        ),
        (
            "postgresql://ann:s3cret@[::1/games",
            "--db postgresql://[::1/games is not a valid URL: Invalid IPv6 URL",
        ),
    ],
)
def test_a_malformed_postgresql_url_is_a_clear_error_that_shows_no_password(
    started: list[dict[str, Any]], url: str, message: str
) -> None:
    result = serve("--db", url)
    assert result.exit_code == 1
    assert result.stderr == f"error: {message}\n"
    assert "s3cret" not in result.output and "pw@" not in result.output
    assert started == []


def test_a_database_a_newer_version_migrated_says_so(
    started: list[dict[str, Any]], tmp_path: Path
) -> None:
    # before: "cannot open the database at ...: Can't locate revision identified by
    # 'ffff0000aaaa'" (a rollback to an older version after an upgrade had migrated)
    import sqlite3

    from ginrummy.server.store import open_store

    db = tmp_path / "g.db"
    open_store(str(db)).engine.dispose()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'ffff0000aaaa'")
    result = serve("--db", str(db))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: cannot open the database at {db}: its schema is at migration "
        "'ffff0000aaaa', which this version of ginrummy does not have: a newer version made "
        "it; run that one (or newer) on it\n"
    )
    assert started == []


# --- several processes ------------------------------------------------------------------------


def other_spelling(url: str) -> str:
    """The same PostgreSQL database under another URL: localhost for 127.0.0.1, the default
    port written out or left out."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.host == "127.0.0.1":
        parsed = parsed.set(host="localhost")
    parsed = parsed.set(port=None if parsed.port == 5432 else (parsed.port or 5432))
    return parsed.render_as_string(hide_password=False)


def test_the_channel_is_named_after_the_database_however_its_url_is_spelled(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ginrummy.server.redis_fanout import channel_for
    from ginrummy.server.service import GameService
    from ginrummy.server.store import open_store

    def channel(url: str) -> str:
        store = open_store(url)
        try:
            return channel_for(GameService(store))
        finally:
            store.engine.dispose()

    assert other_spelling(pg_database) != pg_database
    assert channel(other_spelling(pg_database)) == channel(pg_database)
    monkeypatch.chdir(tmp_path)
    assert channel("games.db") == channel(str(tmp_path / "games.db"))
    assert channel("other.db") != channel("games.db")


def test_processes_on_one_database_spelled_differently_hear_each_other(
    pg_database: str, redis_url: str
) -> None:
    # before: the Redis channel was named after the URL as written, so two processes given
    # the same database as 127.0.0.1 and as localhost:5432 never heard each other's moves
    # (a person on one saw nothing the other stored until they reloaded)
    with (
        Server(pg_database, extra_args=["--redis", redis_url]) as a,
        Server(other_spelling(pg_database), extra_args=["--redis", redis_url]) as b,
    ):
        made = httpx.post(f"{a.base}/api/games", json={"opponent": "human"}, timeout=10).json()
        joined = httpx.post(
            f"{b.base}/api/games/{made['game_id']}/join",
            json={"invite": made["invite"]},
            timeout=10,
        ).json()
        tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
        with b.ws(made["game_id"], joined["token"]) as conn:
            hello = json.loads(conn.recv(timeout=10))
            assert hello["type"] == "hello"
            version = hello["view"]["version"]
            mover = hello["view"]["hand"]["to_act"]
            headers = {"Authorization": f"Bearer {tokens[mover]}"}
            view = httpx.get(f"{a.base}/api/games/{made['game_id']}", headers=headers).json()
            action = view["hand"]["legal_actions"][0]
            stored = httpx.post(
                f"{a.base}/api/games/{made['game_id']}/actions",
                json={"action": action, "version": version},
                headers=headers,
                timeout=10,
            )
            assert stored.status_code == 200, stored.text
            seen = None
            for _ in range(20):
                message = json.loads(conn.recv(timeout=10))
                if message["type"] == "view":
                    seen = message["view"]["version"]
                    break
            assert seen == version + 1


def test_redis_away_is_a_few_lines_in_the_log_not_one_a_move(tmp_path: Path) -> None:
    # before: "could not publish on Redis" for every move stored and "Redis listener lost
    # its connection" every second while Redis was away (a night: 86,400 lines of the
    # listener's alone)
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(binary, os.X_OK):
        if os.environ.get("GINRUMMY_REQUIRE_REDIS"):
            raise AssertionError(f"no redis-server at {binary}")
        pytest.skip("no redis-server to start and stop")
    port = free_port()
    redis_proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)
        redis_url = f"redis://127.0.0.1:{port}/0"
        with Server(str(tmp_path / "g.db"), extra_args=["--redis", redis_url]) as srv:
            ticket = httpx.post(f"{srv.base}/api/games", json={"opponent": "ai"}, timeout=10)
            game = ticket.json()
            headers = {"Authorization": f"Bearer {game['token']}"}
            redis_proc.kill()
            redis_proc.wait(timeout=10)
            url = f"{srv.base}/api/games/{game['game_id']}"
            view = httpx.get(url, headers=headers, timeout=10).json()
            moves = 0
            while moves < 8 and not view["is_over"]:
                reply = httpx.post(
                    f"{url}/actions",
                    json={"action": view["hand"]["legal_actions"][0]},
                    headers=headers,
                    timeout=10,
                )
                assert reply.status_code == 200, reply.text  # stored all the same
                view = reply.json()["view"]
                moves += 1
                time.sleep(0.5)
            assert moves == 8
            srv.stop()
            log = srv.output()
    finally:
        redis_proc.kill()
        redis_proc.wait(timeout=10)
    warnings = [line for line in log.splitlines() if "Redis" in line]
    assert sorted(line.split("ginrummy.server: ")[1] for line in warnings) == [
        "Redis listener lost its connection: ConnectionError",
        "could not publish on Redis: ConnectionError",
    ], log


# --- the log ----------------------------------------------------------------------------------


def test_a_failing_request_is_logged_once_and_its_traceback_at_most_every_10_s(
    tmp_path: Path,
) -> None:
    # before: uvicorn logged the whole traceback again ("Exception in ASGI application")
    # after the server's own line, for every failing request, so a request that fails
    # could fill the log however the server limited its own tracebacks
    import sqlite3

    db = tmp_path / "g.db"
    with Server(str(db)) as srv:
        with sqlite3.connect(db) as conn:  # a database fault no retry mends
            conn.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON players "
                "BEGIN SELECT RAISE(FAIL, 'refused by the test'); END"
            )
        for _ in range(4):
            reply = httpx.post(f"{srv.base}/api/players", json={"name": "Ann"}, timeout=10)
            assert reply.status_code == 500
            assert reply.json() == {
                "detail": {"code": "server/internal", "message": "the server failed; try again"}
            }
        srv.stop()
        log = srv.output()
    # the first failure with its traceback, the others a line each; uvicorn says nothing
    assert log.count("ERROR ginrummy.server: POST /api/players failed\nTraceback") == 1, log
    assert log.count("ERROR ginrummy.server: POST /api/players failed: IntegrityError\n") == 3
    assert "Exception in ASGI application" not in log
    assert log.count("Traceback (most recent call last)") == 2  # the error and its cause


def test_a_database_error_in_the_log_shows_no_values_such_as_a_new_deals_seed(
    tmp_path: Path,
) -> None:
    # before: the traceback ended with the statement's values, "[parameters: (game id, 1,
    # '<the deal's secret seed>', '<its commitment>')]" (and elsewhere players' names and
    # token hashes)
    import sqlite3

    db = tmp_path / "g.db"
    with Server(str(db)) as srv:
        with sqlite3.connect(db) as conn:
            conn.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON deals "
                "BEGIN SELECT RAISE(FAIL, 'refused by the test'); END"
            )
        reply = httpx.post(f"{srv.base}/api/games", json={"opponent": "ai"}, timeout=10)
        assert reply.status_code == 500
        srv.stop()
        log = srv.output()
    assert "ERROR ginrummy.server: POST /api/games failed\nTraceback" in log
    assert "[SQL: INSERT INTO deals" in log
    assert "[SQL parameters hidden due to hide_parameters=True]" in log
    assert "[parameters:" not in log


def test_malformed_requests_cannot_fill_the_log(tmp_path: Path) -> None:
    # before: uvicorn wrote "WARNING:  Invalid HTTP request received." (with no time) for
    # every malformed request, which never reaches the rate limits: a client could fill
    # the disk with them
    def garbage() -> None:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
            sock.sendall(b"GARBAGE /\x01 HTTP/9\r\n\r\n")
            assert sock.recv(200).startswith(b"HTTP/1.1 400 Bad Request\r\n")

    with Server(str(tmp_path / "g.db")) as srv:
        for _ in range(30):
            garbage()
        time.sleep(10.5)
        garbage()
        srv.stop()
        log = srv.output()
    lines = [line for line in log.splitlines() if "Invalid HTTP request" in line]
    assert len(lines) == 2, log
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING uvicorn.error: "
    assert re.fullmatch(stamp + r"Invalid HTTP request received\.", lines[0])
    assert re.fullmatch(
        stamp + r"Invalid HTTP request received\. \(29 more like it not logged\)", lines[1]
    )


# --- stopping ---------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_sigterm_stops_the_server_gracefully_with_status_0_as_ctrl_c_does(
    tmp_path: Path, sig: signal.Signals
) -> None:
    # before: SIGTERM (systemd's stop, docker stop) stopped one process gracefully and
    # then killed it with the signal (status 143); Ctrl-C, and --workers N, give 0
    with Server(str(tmp_path / "g.db")) as srv:
        ticket = httpx.post(f"{srv.base}/api/games", json={"opponent": "ai"}, timeout=10).json()
        with srv.ws(ticket["game_id"], ticket["token"]) as conn:
            assert json.loads(conn.recv(timeout=10))["type"] == "hello"
            assert srv.proc is not None
            srv.proc.send_signal(sig)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(100):
                    conn.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            assert srv.proc.wait(timeout=20) == 0
        assert "Traceback" not in srv.output() and "error" not in srv.output().lower()


def test_a_request_in_progress_holds_up_a_stop_for_at_most_15_s(tmp_path: Path) -> None:
    # before: a stop waited for every request in progress, however long (a client sending
    # its body a byte a second, before bodies were timed; a request waiting for a database
    # held by someone else)
    import sqlite3

    db = tmp_path / "g.db"
    with Server(str(db)) as srv:
        assert srv.proc is not None
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # a request's write now waits up to 30 s

        def create() -> None:
            with contextlib.suppress(httpx.HTTPError):
                httpx.post(f"{srv.base}/api/players", json={"name": "Ann"}, timeout=60)

        client = threading.Thread(target=create)
        client.start()
        try:
            time.sleep(1.5)
            started = time.monotonic()
            srv.proc.send_signal(signal.SIGTERM)
            assert srv.proc.wait(timeout=25) == 0
            # 10 s for the request, then 5 s for its thread still waiting for the database
            assert 14 < time.monotonic() - started < 19
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            client.join(timeout=30)
        log = srv.output()
    cut = "ERROR uvicorn.error: Cancel 1 running task(s), timeout graceful shutdown exceeded"
    assert cut in log
    left = "WARNING ginrummy.server: stopped with 1 request(s) still waiting for the database"
    assert left in log
    assert "Traceback" not in log


def test_a_slow_request_head_or_body_is_cut_after_10_s_a_websocket_is_not(
    tmp_path: Path,
) -> None:
    # before: nothing was timed before a request was read whole: a connection that sent
    # nothing, a header every few seconds or its body a byte a second was held for ever
    # (enough of them and the server has no file descriptor left to accept anyone)
    def idle(result: dict[str, Any]) -> None:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as sock:
            start = time.monotonic()
            result["idle"] = (sock.recv(100), time.monotonic() - start)

    def slow_head(result: dict[str, Any]) -> None:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as sock:
            start = time.monotonic()
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            with contextlib.suppress(OSError):
                for _ in range(30):
                    sock.sendall(b"X-Slow: 1\r\n")
                    time.sleep(1)
            result["head"] = time.monotonic() - start

    def slow_body(result: dict[str, Any]) -> None:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as sock:
            start = time.monotonic()
            sock.sendall(
                b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            sock.settimeout(1)
            answer = b""
            while time.monotonic() - start < 30:
                with contextlib.suppress(OSError):  # closed: the answer is read below
                    sock.sendall(b" ")
                try:
                    chunk = sock.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not chunk:
                    break
                answer += chunk
            result["body"] = (answer, time.monotonic() - start)

    with Server(str(tmp_path / "g.db")) as srv:
        ticket = httpx.post(f"{srv.base}/api/games", json={"opponent": "ai"}, timeout=10).json()
        result: dict[str, Any] = {}
        clients = [
            threading.Thread(target=work, args=(result,)) for work in (idle, slow_head, slow_body)
        ]
        with srv.ws(ticket["game_id"], ticket["token"]) as conn:
            assert json.loads(conn.recv(timeout=10))["type"] == "hello"
            for client in clients:
                client.start()
            for client in clients:
                client.join(timeout=40)
            # the WebSocket, quiet all this time, is still open
            conn.send(json.dumps({"type": "ping"}))
            for _ in range(5):
                if json.loads(conn.recv(timeout=10))["type"] == "pong":
                    break
            else:
                raise AssertionError("no pong")
    answer, seconds = result["idle"]
    assert answer == b"" and 9.9 < seconds < 12
    assert 9.9 < result["head"] < 13  # cut at 10 s, seen at the next header sent
    answer, seconds = result["body"]
    assert 9.9 < seconds < 12
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert answer.endswith(
        b'{"detail": {"code": "request/timeout", "message": '
        b'"the request\'s body did not come within 10 s"}}'
    )


def worker_pids(parent: int) -> list[int]:
    """The worker processes of ``serve --workers N`` (multiprocessing's spawned children,
    not its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return sorted(found)


def test_a_worker_that_died_is_in_the_log(pg_database: str, redis_url: str) -> None:
    # before: uvicorn replaced a worker that died (or that it killed for not answering)
    # and said so only as news, which the server's log (warnings) left out: nothing
    extra = ["--workers", "2", "--redis", redis_url]
    with Server(pg_database, extra_args=extra) as srv:
        assert srv.proc is not None
        pids = worker_pids(srv.proc.pid)
        assert len(pids) == 2
        os.kill(pids[0], signal.SIGKILL)
        for _ in range(100):
            if len(worker_pids(srv.proc.pid)) == 2 and pids[0] not in worker_pids(srv.proc.pid):
                break
            time.sleep(0.1)
        assert httpx.get(f"{srv.base}/api/health", timeout=10).status_code == 200
        srv.stop()
        log = srv.output()
    lines = log.splitlines()
    assert len(lines) == 2, log
    assert lines[0].startswith("ginrummy server on ")
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING uvicorn\.error: "
        rf"Child process \[{pids[0]}\] died \(or stopped answering\); another was started",
        lines[1],
    )
