"""Fuzzing the server: every HTTP endpoint from its own OpenAPI description (schemathesis),
and every WebSocket message type with generated frames (hypothesis), in process.

Each request must end in a success or a clear JSON error - never a 500 - and each frame in an
answer on a connection that stays open; nothing a refused input touched may change a game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.server.app import create_app
from ginrummy.server.limits import Limits
from ginrummy.server.service import GameService
from ginrummy.server.store import open_store


def make_app(db: Path) -> Any:
    service = GameService(open_store(str(db)))
    return create_app(
        service, Limits().unlimited_rates(), allowed_hosts=["*"], settle_on_start=False
    )


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("fuzz") / "games.db")


def operations() -> list[Any]:
    """Every operation of the server's own OpenAPI description (built on a throwaway app)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        described = schemathesis.openapi.from_asgi("/openapi.json", make_app(Path(tmp) / "x.db"))
        return [result.ok() for result in described.get_all_operations()]


OPERATIONS = operations()


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
def test_every_endpoint_answers_without_a_server_error(app: Any, operation: Any) -> None:
    """Generated paths, queries, headers and bodies, valid and not: never a 500, and every
    refusal is our JSON error with a code and a short message."""
    described = schemathesis.openapi.from_asgi("/openapi.json", app)
    live = described[operation.path][operation.method.upper()]

    @given(case=live.as_strategy())
    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def check(case: Any) -> None:
        response = case.call()
        assert response.status_code < 500, (case.method, case.path, response.text[:300])
        if response.status_code >= 400:
            detail = response.json()["detail"]
            assert isinstance(detail, dict) and set(detail) >= {"code", "message"}, detail
            assert len(detail["message"]) <= 400

    check()


# --- WebSocket frames ------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(["type", "action", "since", "version", "token", "x"])
TYPES = st.sampled_from(["action", "sync", "ping", "auth", "dance", "", "ACTION"])
MESSAGES = st.fixed_dictionaries(
    {"type": TYPES | JSON_VALUES},
    optional={
        "action": st.sampled_from(["stock", "pile", "pass", "take", "discard 7h", "knock As"])
        | JSON_VALUES,
        "since": JSON_VALUES,
        "version": JSON_VALUES,
    },
).map(json.dumps)
RAW = (
    st.text(max_size=300)
    | st.binary(max_size=300)
    | st.just("[" * 3000 + "]" * 3000)
    | st.just('{"type": "sync", "since": NaN}')
    | st.just('{"type": "action", "action": "\\ud800"}')
    | st.just('{"type": "action", "action": "discard \\u0000"}')
    | st.just('{"type": "ping", "x": 1' + "0" * 40 + "}")
    | st.dictionaries(FIELDS, JSON_VALUES, max_size=4).map(json.dumps)
)


@pytest.fixture(scope="module")
def table(app: Any) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/games", json={"opponent": "human", "preset": "classic"})
        assert made.status_code == 200, made.text
        ticket = made.json()
        joined = client.post(
            f"/api/games/{ticket['game_id']}/join", json={"invite": ticket["invite"]}
        )
        assert joined.status_code == 200, joined.text
        yield client, ticket


@given(frame=MESSAGES | RAW)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_frame_is_answered_and_the_connection_stays(
    table: tuple[TestClient, dict[str, Any]], frame: str | bytes
) -> None:
    client, ticket = table
    game_id = ticket["game_id"]
    before = client.get(f"/api/games/{game_id}").json()
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_text(json.dumps({"type": "auth", "token": ticket["token"]}))
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        assert ws.receive_json()["type"] == "presence"
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        ws.send_text(json.dumps({"type": "ping"}))
        replies = []
        for _ in range(4):  # the frame's answer (if any), views, then the pong
            reply = ws.receive_json()
            replies.append(reply)
            if reply["type"] == "pong":
                break
        assert replies[-1]["type"] == "pong", replies
        for reply in replies:
            assert reply["type"] in ("error", "view", "sync", "pong", "presence"), reply
            if reply["type"] == "error":
                assert reply["code"] and len(reply["message"]) <= 400, reply
    after = client.get(f"/api/games/{game_id}").json()
    if any(r["type"] == "view" for r in replies):
        assert after["version"] == before["version"] + 1  # a legal action: one move stored
    else:
        assert after == before  # refused: the game is exactly as it was
