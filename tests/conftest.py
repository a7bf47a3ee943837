"""Shared fixtures: the database and Redis URLs the server tests run against."""

import contextlib
import os
import secrets
import sys
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

# tests/oracle.py and other helpers are imported as plain modules
sys.path.insert(0, str(Path(__file__).parent))

PG_URL = os.environ.get("GINRUMMY_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("GINRUMMY_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The local Redis (``GINRUMMY_REDIS_URL``): skipped when unreachable, unless CI requires
    it (``GINRUMMY_REQUIRE_REDIS=1``)."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        client.ping()
        client.close()
    except Exception as exc:
        if os.environ.get("GINRUMMY_REQUIRE_REDIS"):
            raise
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {exc}")
    return REDIS_URL


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A PostgreSQL database for the whole test session (made, and dropped after)."""
    with _new_pg_database() as url:
        yield url


@pytest.fixture
def fresh_pg_database() -> Iterator[str]:
    """An empty PostgreSQL database of this test alone (not even migrated)."""
    with _new_pg_database() as url:
        yield url


@contextlib.contextmanager
def _new_pg_database() -> Iterator[str]:
    import sqlalchemy as sa

    admin_url = PG_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            name = f"ginrummy_test_{secrets.token_hex(4)}"
            conn.execute(sa.text(f"CREATE DATABASE {name}"))
    except Exception as exc:  # no server: skip, unless CI requires it
        if os.environ.get("GINRUMMY_REQUIRE_PG"):
            raise
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {exc}")
    base = PG_URL.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with admin.connect() as conn:
        conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store: a SQLite file, or a PostgreSQL database of this test session."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    url: str = request.getfixturevalue("pg_database")
    return url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser or server test reports what its pages showed and its server printed
    (:func:`web_support.failure_context`): a timeout alone says nothing of why."""
    report = yield
    if report.when == "call" and report.failed:
        import web_support

        funcargs = getattr(item, "funcargs", {})
        for title, text in web_support.failure_context(funcargs):
            report.sections.append((title, text))
    return report


@pytest.fixture(autouse=True)
def _close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test opened, failed or not: a page left open on a
    stopped server keeps trying to reconnect for the rest of the session. Contexts that were
    open before the test (a module's shared page) stay open."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(map(id, browser.contexts))
    yield
    for context in list(browser.contexts):
        if id(context) not in before:
            with contextlib.suppress(Exception):
                context.close()
