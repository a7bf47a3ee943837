"""The Redis channel of a game space when the database cannot be reached at a process's start.

The channel is named after the database as the database names itself
(``redis_fanout.space_name``), so processes that spell its URL differently still share it. A
process that starts while PostgreSQL is down must not fall back to a name of its own (the
URL's): it would never hear the processes that named the channel from the database, nor they
it, until it restarted. It asks again until the database answers.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
import sqlalchemy as sa

from ginrummy.server import redis_fanout
from ginrummy.server.hub import Hub
from ginrummy.server.limits import Limits
from ginrummy.server.service import GameService
from ginrummy.server.store import open_store


def test_a_database_that_cannot_be_reached_has_no_name_yet() -> None:
    # nothing listens on port 1: the connection is refused at once
    engine = sa.create_engine(
        "postgresql+psycopg://postgres@127.0.0.1:1/games", connect_args={"connect_timeout": 5}
    )
    try:
        assert redis_fanout.space_name(engine) is None
    finally:
        engine.dispose()


def test_a_sqlite_file_is_named_by_its_real_path(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'games.db'}")
    assert redis_fanout.space_name(engine) == f"sqlite:{(tmp_path / 'games.db').resolve()}"


def test_the_channel_is_named_when_the_database_answers_and_not_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("redis")
    answers: list[str | None] = [None, None, "ginrummy:versions:0123456789abcdef"]
    asked: list[int] = []

    def channel_for(_service: GameService) -> str | None:
        asked.append(1)
        return answers.pop(0)

    monkeypatch.setattr(redis_fanout, "channel_for", channel_for)
    monkeypatch.setattr(redis_fanout, "RETRY_SECONDS", 0.01)
    service = GameService(open_store(str(tmp_path / "games.db")))
    hub = Hub(service, Limits())

    async def scenario() -> None:
        # the Redis client connects only when used; nothing here reaches Redis
        fanout = redis_fanout.RedisFanOut(hub, service, "redis://127.0.0.1:1/0")
        assert len(asked) == 1  # asked once at the start: the database did not answer
        with pytest.raises(redis_fanout._SpaceUnknown):
            _ = fanout.channel
        # news meanwhile is lost, as with Redis away: a warning, no exception, no wrong name
        with caplog.at_level(logging.WARNING, logger="ginrummy.server"):
            await fanout.publish("0" * 32, 3)
        assert "could not publish on Redis: _SpaceUnknown" in caplog.text
        await fanout._name_channel()  # what the listener does before it subscribes
        assert fanout.channel == "ginrummy:versions:0123456789abcdef"
        assert len(asked) == 3 and not answers
        await fanout.redis.aclose()

    asyncio.run(scenario())
