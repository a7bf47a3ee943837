"""A PostgreSQL that takes no writes for now (a standby during a failover, a database set
read-only): a write is ``service/unavailable`` (503, try again), as a database away is, not
``server/internal`` (a bug), and nothing is stored; reads go on."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import ginrummy
from ginrummy.server.service import GameService, ServiceError
from ginrummy.server.store import open_store

RULES = dataclasses.replace(ginrummy.Rules.preset("classic"), target=250)


def set_read_only(url: str, read_only: bool) -> None:
    """Every new session of the database at ``url`` read-only (or writable again)."""
    base, name = url.rsplit("/", 1)
    # from the server's own database: the read-only one would refuse to be set back
    engine = sa.create_engine(
        base.replace("postgresql://", "postgresql+psycopg://", 1) + "/postgres",
        isolation_level="AUTOCOMMIT",
    )
    with engine.connect() as conn:
        conn.execute(
            sa.text(
                f"ALTER DATABASE {name} SET default_transaction_read_only = "
                + ("on" if read_only else "off")
            )
        )
    engine.dispose()


def test_a_read_only_database_is_unavailable_for_writes_not_a_bug(
    fresh_pg_database: str,
) -> None:
    store = open_store(fresh_pg_database)
    service = GameService(store, retry_delay=0.01)
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    view = service.view(ticket.game_id, ticket.token)
    action = view["hand"]["legal_actions"][0]
    set_read_only(fresh_pg_database, True)
    store.engine.dispose()  # the pool's sessions began writable: new ones are read-only
    try:
        with pytest.raises(ServiceError) as caught:
            service.act(ticket.game_id, ticket.token, action)
        assert caught.value.code == "service/unavailable"
        with pytest.raises(ServiceError) as created:
            service.create_game(RULES, ai_level="normal", seat=0)
        assert created.value.code == "service/unavailable"
        # reads go on, and nothing of the refused move was stored
        fresh = GameService(store)  # no game in memory: read from the database
        assert fresh.view(ticket.game_id, ticket.token)["version"] == view["version"]
    finally:
        set_read_only(fresh_pg_database, False)
        store.engine.dispose()
    # writable again: the same move is taken
    service.act(ticket.game_id, ticket.token, action)
    assert service.view(ticket.game_id, ticket.token)["version"] > view["version"]


def test_ready_says_whether_a_move_could_be_stored(fresh_pg_database: str, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from ginrummy.server.app import create_app

    def answers(url: str) -> list[tuple[int, Any]]:
        store = open_store(url)
        app = create_app(GameService(store, retry_delay=0.01), settle_on_start=False)
        try:
            with TestClient(app, base_url="http://127.0.0.1") as client:
                return [
                    (r.status_code, r.json())
                    for r in (client.get("/api/ready"), client.get("/api/health"))
                ]
        finally:
            store.engine.dispose()

    ok = [(200, {"status": "ready"}), (200, {"status": "ok"})]
    assert answers(str(tmp_path / "games.db")) == ok  # SQLite
    assert answers(fresh_pg_database) == ok
    set_read_only(fresh_pg_database, True)
    try:
        (status, body), health = answers(fresh_pg_database)
    finally:
        set_read_only(fresh_pg_database, False)
    assert status == 503 and body["detail"]["code"] == "service/unavailable"
    assert health == (200, {"status": "ok"})  # the process serves: only ready says no
