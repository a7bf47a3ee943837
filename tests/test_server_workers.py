"""Several server processes on one PostgreSQL database, telling each other over Redis.

Runs against the local PostgreSQL and Redis (``GINRUMMY_REDIS_URL``, default
``redis://127.0.0.1:6379/0``); skipped when Redis is not reachable, unless
``GINRUMMY_REQUIRE_REDIS=1`` (CI sets it) makes that an error.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from ginrummy.server.bot import greedy_action
from web_support import Server, free_port

UNLIMITED = ["--max-rate", "1000", "--http-rate", "100000", "--create-rate", "100000"]


@pytest.fixture
def workers(pg_database: str, redis_url: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh PostgreSQL database and one Redis."""
    with (
        Server(pg_database, extra_args=["--redis", redis_url, *UNLIMITED]) as a,
        Server(pg_database, extra_args=["--redis", redis_url, *UNLIMITED]) as b,
    ):
        yield a, b


def receive(conn: ClientConnection, kind: str) -> tuple[dict[str, Any], str]:
    """The next message of type ``kind`` and its text; an error fails the test."""
    for _ in range(50):
        text = conn.recv(timeout=15)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message, text
    raise AssertionError(f"no {kind} message")


def game_between_people(
    create_on: Server, join_on: Server, **options: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game between two people, to 1,000 (no test's moves can end it): created through
    one server (with ``options`` in the request), joined through the other; the two
    tickets."""
    made: dict[str, Any] = httpx.post(
        f"{create_on.base}/api/games",
        json={"opponent": "human", "target": 1000, **options},
        timeout=30,
    ).json()
    friend: dict[str, Any] = httpx.post(
        f"{join_on.base}/api/games/{made['game_id']}/join",
        json={"invite": made["invite"]},
        timeout=30,
    ).json()
    return made, friend


def hidden_cards(view: dict[str, Any], seat: int) -> set[str]:
    """The cards of ``seat``'s hand (from its own view) that its opponent may not know."""
    hand = view["hand"]
    known = set(hand["known_cards"][seat]) | set(hand["discard_pile"])
    return set(hand["hand"]) - known


def test_a_hand_between_two_people_on_two_workers(workers: tuple[Server, Server]) -> None:
    a, b = workers
    made, friend = game_between_people(a, b)
    game_id = made["game_id"]
    tickets = {made["seat"]: made, friend["seat"]: friend}
    servers = {made["seat"]: a, friend["seat"]: b}  # each person on their own worker
    with (
        servers[0].ws(game_id, tickets[0]["token"]) as zero,
        servers[1].ws(game_id, tickets[1]["token"]) as one,
    ):
        conns = {0: zero, 1: one}
        views = {seat: receive(conns[seat], "hello")[0]["view"] for seat in (0, 1)}
        assert views[0]["names"] == views[1]["names"]
        played = 0
        texts = {0: "", 1: ""}
        while played < 40 and not views[0]["is_over"]:
            seat = views[0]["hand"]["to_act"]
            version = views[seat]["version"]
            action = greedy_action(views[seat]["hand"])
            conns[seat].send(json.dumps({"type": "action", "action": action, "version": version}))
            played += 1
            for who in (0, 1):  # both see the move, whichever worker stored it
                while True:
                    message, text = receive(conns[who], "view")
                    if message["view"]["version"] > version:
                        break
                views[who] = message["view"]
                texts[who] = text
            assert views[0]["version"] == views[1]["version"]
            for who in (0, 1):  # nothing of the other's hidden hand reached this seat
                if views[who]["hand"] is None or views[who]["hand"]["result"] is not None:
                    continue
                # the hand in play as this seat sees it (past hands' results show every
                # card, rightly; the upcard field names the card turned up at the deal)
                shown = dict(json.loads(texts[who])["view"]["hand"])
                shown.pop("upcard")
                seen = json.dumps(shown)
                for card in hidden_cards(views[1 - who], 1 - who):
                    assert f'"{card}"' not in seen, (who, card)
        assert played >= 10
    # both workers tell the same story
    for srv in (a, b):
        events = httpx.get(f"{srv.base}/api/games/{game_id}/events", timeout=30).json()
        assert [e["version"] for e in events] == list(range(1, views[0]["version"] + 1))


def test_a_game_against_the_ai_played_through_both_workers(
    workers: tuple[Server, Server],
) -> None:
    a, b = workers
    made = httpx.post(
        f"{a.base}/api/games", json={"opponent": "ai", "level": "normal"}, timeout=30
    ).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    rng = random.Random(3)
    for turn in range(30):
        srv = (a, b)[turn % 2]  # every move through the other worker
        view = httpx.get(f"{srv.base}/api/games/{made['game_id']}", headers=headers).json()
        if view["is_over"]:
            break
        assert view["hand"]["to_act"] == made["seat"], "the game waits for the server"
        legal = view["hand"]["legal_actions"]
        enders = [x for x in legal if x.split()[0] in ("knock", "gin", "big-gin")]
        r = httpx.post(
            f"{srv.base}/api/games/{made['game_id']}/actions",
            json={"action": rng.choice(enders or legal), "version": view["version"]},
            headers=headers,
            timeout=30,
        )
        assert r.status_code == 200, r.text
    moves = httpx.get(f"{b.base}/api/games/{made['game_id']}/events", timeout=30).json()
    assert [e["version"] for e in moves] == list(range(1, len(moves) + 1))  # no fork


def test_an_unreachable_redis_is_a_clear_error(tmp_path: Any) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy.cli",
            "serve",
            "--db",
            str(tmp_path / "g.db"),
            "--port",
            str(free_port()),
            "--redis",
            "redis://127.0.0.1:1/0",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_serve_with_two_workers_behind_one_port(pg_database: str, redis_url: str) -> None:
    with Server(
        pg_database, extra_args=["--workers", "2", "--redis", redis_url, *UNLIMITED]
    ) as srv:
        made, friend = game_between_people(srv, srv)
        game_id = made["game_id"]
        tokens = {made["seat"]: made["token"], friend["seat"]: friend["token"]}
        # several connections per seat: whichever worker each lands on, all see every move
        with (
            srv.ws(game_id, tokens[0]) as zero,
            srv.ws(game_id, tokens[1]) as one,
            srv.ws(game_id, tokens[1]) as one_again,
            srv.ws(game_id, None) as watcher,
        ):
            conns = {0: zero, 1: one}
            everyone = [zero, one, one_again, watcher]
            views = [receive(c, "hello")[0]["view"] for c in everyone]
            for _ in range(12):
                seat = views[0]["hand"]["to_act"]
                mine = views[everyone.index(conns[seat])]
                version = mine["version"]
                conns[seat].send(
                    json.dumps(
                        {
                            "type": "action",
                            "action": greedy_action(mine["hand"]),
                            "version": version,
                        }
                    )
                )
                for i, conn in enumerate(everyone):
                    while views[i]["version"] <= version:
                        views[i] = receive(conn, "view")[0]["view"]
                assert len({v["version"] for v in views}) == 1
        assert "Traceback" not in srv.output()


def test_several_workers_need_redis(tmp_path: Any) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ginrummy.cli",
            "serve",
            "--db",
            str(tmp_path / "g.db"),
            "--workers",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "needs --redis" in done.stderr


def test_servers_starting_together_on_a_fresh_database_migrate_it_once(
    fresh_pg_database: str,
) -> None:
    """Three servers started at the same moment on an empty database: the first to take
    the migration lock creates the schema, the others wait for it and find it current."""
    pg_database = fresh_pg_database
    servers = [Server(pg_database) for _ in range(3)]
    procs = []
    try:
        for srv in servers:  # all at once: no waiting for the first to answer
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "ginrummy.cli",
                        "serve",
                        "--db",
                        pg_database,
                        "--port",
                        str(srv.port),
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                )
            )
        for srv, proc in zip(servers, procs, strict=True):
            for _ in range(300):
                assert proc.poll() is None, proc.communicate()[0].decode()
                try:
                    if httpx.get(f"{srv.base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                raise AssertionError("a server did not start")
        made = httpx.post(f"{servers[0].base}/api/games", json={"opponent": "ai"}, timeout=30)
        assert made.status_code == 200
        seen = httpx.get(f"{servers[2].base}/api/games/{made.json()['game_id']}", timeout=30)
        assert seen.status_code == 200
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            output = proc.communicate(timeout=20)[0].decode()
            assert "Traceback" not in output, output


def wait_presence(conn: ClientConnection, connected: list[bool]) -> None:
    """Read messages until a presence message says ``connected``."""
    for _ in range(20):
        message, _ = receive(conn, "presence")
        if message["connected"] == connected:
            return
    raise AssertionError(f"never saw presence {connected}")


def test_presence_is_shared_between_workers(workers: tuple[Server, Server]) -> None:
    a, b = workers
    made, friend = game_between_people(a, b)
    game_id = made["game_id"]
    tokens = {made["seat"]: made["token"], friend["seat"]: friend["token"]}
    with a.ws(game_id, tokens[0]) as zero:
        receive(zero, "hello")
        wait_presence(zero, [True, False])
        with b.ws(game_id, tokens[1]) as one:  # the friend, on the other worker
            receive(one, "hello")
            wait_presence(one, [True, True])
            wait_presence(zero, [True, True])
            with b.ws(game_id, None) as watcher:  # a spectator changes nobody's presence
                receive(watcher, "hello")
                wait_presence(watcher, [True, True])
        wait_presence(zero, [True, False])  # the friend left the other worker


def quiet(conn: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every message (other than presence) that arrives within ``seconds``."""
    got: list[dict[str, Any]] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            text = conn.recv(timeout=left)
        except TimeoutError:
            break
        message = json.loads(text)
        if message["type"] != "presence":
            got.append(message)
    return got


def test_bad_input_under_two_workers_goes_to_its_sender_only(
    pg_database: str, redis_url: str
) -> None:
    """Default limits, two workers: every kind of bad message sent on one worker is answered
    to its sender only, and nothing changes for anyone, on either worker."""
    args = ["--redis", redis_url]
    with Server(pg_database, extra_args=args) as a, Server(pg_database, extra_args=args) as b:
        made, friend = game_between_people(a, b, turn_seconds=600)
        game_id = made["game_id"]
        tokens = {made["seat"]: made["token"], friend["seat"]: friend["token"]}
        with (
            a.ws(game_id, tokens[0]) as zero,
            b.ws(game_id, tokens[1]) as one,
            b.ws(game_id, "not a token") as stranger,
        ):
            conns = {0: zero, 1: one}
            views = {seat: receive(conns[seat], "hello")[0]["view"] for seat in (0, 1)}
            assert receive(stranger, "hello")[0]["seat"] is None  # a wrong token: a spectator
            version = views[0]["version"]
            to_act = views[0]["hand"]["to_act"]
            waiting = conns[1 - to_act]

            def answer(conn: ClientConnection, frame: str | bytes) -> dict[str, Any]:
                conn.send(frame)
                for _ in range(10):
                    message: dict[str, Any] = json.loads(conn.recv(timeout=15))
                    if message["type"] == "error":
                        return message
                raise AssertionError("no error answer")

            bad: list[tuple[ClientConnection, str | bytes, str]] = [
                (one, b"\x00binary", "ws/malformed"),
                (one, "not json", "ws/malformed"),
                (one, '{"type": "action", "action": NaN}', "ws/malformed"),
                (one, json.dumps({"type": "x" * 3000}), "ws/too-large"),
                (one, json.dumps({"type": "teleport"}), "ws/unknown-type"),
                (waiting, json.dumps({"type": "action", "action": "stock"}), "action/"),
                (conns[to_act], json.dumps({"type": "action", "action": "discard Zz"}), "action/"),
                (
                    conns[to_act],
                    json.dumps({"type": "action", "action": "pass", "version": version - 1}),
                    "service/stale",
                ),
                (one, json.dumps({"type": "action", "action": "claim"}), "service/cannot-claim"),
                (
                    stranger,
                    json.dumps({"type": "action", "action": "pass"}),
                    "service/not-a-player",
                ),
            ]
            for conn, frame, code in bad:
                message = answer(conn, frame)
                assert message["code"].startswith(code), (frame, message)
            # a flood: refused past the burst, to the flooder only
            for _ in range(60):
                stranger.send(json.dumps({"type": "ping"}))
            flood = quiet(stranger, 2)
            assert any(m.get("code") == "ws/rate-limited" for m in flood)
            # nobody else heard anything, on either worker, and the game did not move
            for conn in (zero, one):
                assert [m for m in quiet(conn, 1) if m["type"] in ("view", "error")] == []
            for srv in (a, b):
                moves = httpx.get(f"{srv.base}/api/games/{game_id}/events", timeout=30).json()
                assert moves[-1]["version"] == version
            # and the game plays on
            mine = views[to_act]
            conns[to_act].send(
                json.dumps(
                    {"type": "action", "action": greedy_action(mine["hand"]), "version": version}
                )
            )
            for seat in (0, 1):
                assert receive(conns[seat], "view")[0]["view"]["version"] > version
        for srv in (a, b):
            assert "Traceback" not in srv.output()
