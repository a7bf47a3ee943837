"""The real server process on 127.0.0.1: a game over WebSockets, bad input, SIGKILL restart."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

import ginrummy
from ginrummy import record
from ginrummy.server.bot import greedy_action
from web_support import Server


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    """A server process on a fresh store (each test runs on SQLite and on PostgreSQL)."""
    with Server(db_url) as srv:
        yield srv


def receive(conn: ClientConnection, kind: str | None = None) -> dict[str, Any]:
    """The next message of type ``kind`` (any type if None); an unexpected error fails."""
    while True:
        message: dict[str, Any] = json.loads(conn.recv(timeout=30))
        if kind is None or message["type"] == kind:
            return message
        assert message["type"] != "error", message


def receive_view_or_limit(conn: ClientConnection) -> dict[str, Any] | None:
    """The next view, or None when the server said to slow down."""
    while True:
        message: dict[str, Any] = json.loads(conn.recv(timeout=30))
        if message["type"] == "view":
            view: dict[str, Any] = message["view"]
            return view
        if message["type"] == "error":
            assert message["code"] == "ws/rate-limited", message
            return None


def wait_presence(conn: ClientConnection, connected: list[bool]) -> None:
    """Read presence messages until one says ``connected`` (a few may come first)."""
    for _ in range(10):
        if receive(conn, "presence")["connected"] == connected:
            return
    raise AssertionError(f"never saw presence {connected}")


def new_game(srv: Server, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{srv.base}/api/games", json=body, timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play_over_ws(srv: Server, ticket: dict[str, Any], seed: int, max_actions: int = 3000) -> int:
    """Random legal play for the ticket's seat over its WebSocket until the game ends."""
    rng = random.Random(seed)
    actions = 0
    with srv.ws(ticket["game_id"], ticket["token"]) as conn:
        view = receive(conn, "hello")["view"]
        while not view["is_over"]:
            hand = view["hand"]
            if hand["to_act"] == ticket["seat"]:
                legal = hand["legal_actions"]
                enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
                conn.send(json.dumps({"type": "action", "action": rng.choice(enders or legal)}))
                actions += 1
                assert actions < max_actions
            message = receive_view_or_limit(conn)
            if message is None:  # rate limited: a bot is faster than people; wait and retry
                time.sleep(0.3)
                continue
            view = message
    return actions


def test_whole_game_against_each_ai_level_over_websockets(server: Server) -> None:
    for n, level in enumerate(("easy", "normal", "hard", "expert", "master")):
        ticket = new_game(server, opponent="ai", level=level, preset="classic", seat=n % 2)
        assert play_over_ws(server, ticket, seed=n) >= 1
        view = httpx.get(
            f"{server.base}/api/games/{ticket['game_id']}",
            headers={"Authorization": f"Bearer {ticket['token']}"},
            timeout=30,
        ).json()
        assert view["is_over"] and view["outcome"] is not None
        record = httpx.get(f"{server.base}/api/games/{ticket['game_id']}/record", timeout=30)
        assert record.status_code == 200 and record.json()["outcome"] == view["outcome"]


def test_bad_input_gets_an_error_and_changes_nothing(server: Server) -> None:
    ticket = new_game(server, opponent="ai", level="easy", preset="classic", seat=0)
    gid = ticket["game_id"]
    with server.ws(gid, ticket["token"]) as conn:
        before = receive(conn, "hello")["view"]
        bad = [
            ("{not json", "ws/malformed"),
            ("[1, 2]", "ws/malformed"),
            (json.dumps({"type": "dance"}), "ws/unknown-type"),
            (json.dumps({"type": "action", "action": 7}), "ws/malformed"),
            (json.dumps({"type": "action", "action": "discard Zz"}), "action/syntax"),
            (json.dumps({"type": "action", "action": "knock As"}), "action/"),
            ("x" * 5000, "ws/too-large"),
        ]
        for text, code in bad:
            conn.send(text)
            reply = receive(conn, "error")
            assert reply["code"].startswith(code), reply
        conn.send(json.dumps({"type": "ping"}))
        assert receive(conn)["type"] == "pong"  # the connection is still usable
        after = httpx.get(
            f"{server.base}/api/games/{gid}",
            headers={"Authorization": f"Bearer {ticket['token']}"},
        ).json()
        assert after == before
        # a flood is rate limited, and the connection survives it
        for _ in range(40):
            conn.send(json.dumps({"type": "ping"}))
        replies = [receive(conn) for _ in range(40)]
        assert any(r.get("code") == "ws/rate-limited" for r in replies)
    # a first message that is not auth is refused
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{gid}") as raw:
        raw.send(json.dumps({"type": "action", "action": "stock"}))
        assert json.loads(raw.recv(timeout=10))["code"] == "ws/auth-first"
    # HTTP: no token, a wrong token: refused, nothing changes
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        r = httpx.post(
            f"{server.base}/api/games/{gid}/actions", json={"action": "stock"}, headers=headers
        )
        assert r.status_code == 403 and r.json()["detail"]["code"] == "service/not-a-player"
    # wrong tokens only watch
    with server.ws(gid, "wrong-token") as spectator:
        assert receive(spectator, "hello")["seat"] is None
        spectator.send(json.dumps({"type": "action", "action": "stock"}))
        assert receive(spectator, "error")["code"] == "service/not-a-player"
    assert httpx.get(f"{server.base}/api/games/nope").status_code == 404
    r = httpx.post(f"{server.base}/api/games", json={"opponent": "ai", "level": "genius"})
    assert r.status_code == 400


def test_sigkill_mid_hand_loses_no_accepted_action(server: Server) -> None:
    ticket = new_game(server, opponent="ai", level="normal", preset="tournament", seat=0)
    gid, token = ticket["game_id"], ticket["token"]
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(5)
    for _ in range(6):
        view = httpx.get(f"{server.base}/api/games/{gid}", headers=headers).json()
        if view["is_over"]:
            break
        action = rng.choice(view["hand"]["legal_actions"])
        r = httpx.post(
            f"{server.base}/api/games/{gid}/actions",
            json={"action": action},
            headers=headers,
            timeout=30,
        )
        assert r.status_code == 200
    before = httpx.get(f"{server.base}/api/games/{gid}", headers=headers).json()
    server.kill()
    server.start()  # same database
    after = httpx.get(f"{server.base}/api/games/{gid}", headers=headers).json()
    assert after == before
    events = httpx.get(f"{server.base}/api/games/{gid}/events", params={"since": 0}).json()
    assert [e["version"] for e in events] == list(range(1, before["version"] + 1))
    if not after["is_over"]:
        assert play_over_ws(server, ticket, seed=6) >= 1


def test_reconnect_gets_what_it_missed(server: Server) -> None:
    first = new_game(server, opponent="human", preset="classic", seat=0)
    second = httpx.post(
        f"{server.base}/api/games/{first['game_id']}/join", json={"invite": first["invite"]}
    ).json()
    gid = first["game_id"]
    with server.ws(gid, second["token"]) as b:
        with server.ws(gid, first["token"]) as a:
            seen = receive(a, "hello")["view"]["version"]
            assert receive(b, "hello")["seat"] == 1
            wait_presence(a, [True, True])
        wait_presence(b, [False, True])  # seat 0 dropped: seat 1 is told
        state = httpx.get(
            f"{server.base}/api/games/{gid}", headers={"Authorization": f"Bearer {second['token']}"}
        ).json()
        if state["hand"]["to_act"] == 1:
            b.send(json.dumps({"type": "action", "action": state["hand"]["legal_actions"][0]}))
            receive(b, "view")
        with server.ws(gid, first["token"]) as a:
            receive(a, "hello")
            a.send(json.dumps({"type": "sync", "since": seen}))
            sync = receive(a, "sync")
    assert [e["version"] for e in sync["events"]] == list(
        range(seen + 1, sync["view"]["version"] + 1)
    )


CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][shdc])(?![A-Za-z0-9])")


def states_by_version(full_record: dict[str, Any]) -> dict[int, ginrummy.GameState]:
    """The game state after every stored version, from the finished game's record."""
    rec = record.from_dict(full_record)
    # each state follows one stored move (a deal or an action): versions count from 1
    return {version: state for version, (_, state) in enumerate(record.replay_states(rec), start=1)}


def test_two_people_over_websockets_and_nothing_leaks(server: Server) -> None:
    first = new_game(server, opponent="human", preset="classic", seat=0, name="Ann")
    gid = first["game_id"]
    second = httpx.post(
        f"{server.base}/api/games/{gid}/join", json={"invite": first["invite"], "name": "Bob"}
    ).json()
    tokens = {0: first["token"], 1: second["token"]}
    received: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    with server.ws(gid, tokens[0]) as a, server.ws(gid, tokens[1]) as b:
        conns = {0: a, 1: b}
        views: dict[int, dict[str, Any]] = {}
        for seat in (0, 1):
            hello = receive(conns[seat], "hello")
            received[seat].append(hello)
            views[seat] = hello["view"]
        # acting out of turn is refused, to that client only, and changes nothing
        idle = 1 - views[0]["hand"]["to_act"]
        conns[idle].send(json.dumps({"type": "action", "action": "stock"}))
        while (message := json.loads(conns[idle].recv(timeout=30)))["type"] != "error":
            received[idle].append(message)
        assert message["code"] == "action/not-your-turn", message
        actions = 0
        while not views[0]["is_over"]:
            latest = max(views.values(), key=lambda v: v["version"])
            seat = latest["hand"]["to_act"]
            action = greedy_action(views[seat]["hand"])
            conns[seat].send(json.dumps({"type": "action", "action": action}))
            actions += 1
            assert actions < 4000
            limited = False
            for s in (seat, 1 - seat):  # every action reaches both seats, each its own view
                while True:
                    message = json.loads(conns[s].recv(timeout=30))
                    received[s].append(message)
                    if message["type"] == "view":
                        views[s] = message["view"]
                        break
                    if message["type"] == "error":
                        assert message["code"] == "ws/rate-limited", message
                        limited = True
                        break
                if limited:  # refused, so nothing reached the other seat: wait and retry
                    time.sleep(0.3)
                    break
    full = httpx.get(f"{server.base}/api/games/{gid}/record").json()
    states = states_by_version(full)
    checked = 0
    for seat in (0, 1):
        for message in received[seat]:
            view = message.get("view")
            if not view:
                continue
            game = states[view["version"]]
            hand = game.hand
            assert hand is not None
            if hand.is_over:
                continue  # both hands are revealed at the end
            other = 1 - seat
            hidden = set(hand.hand(other)) - set(hand.known_cards(other)) | set(hand.stock)
            # past hands' results show both hands, revealed at their end: leave them out
            current = {k: v for k, v in message.items() if k != "view"}
            current["view"] = {k: v for k, v in view.items() if k != "results"}
            seen = {ginrummy.parse_card(t) for t in CARD.findall(json.dumps(current))}
            assert not seen & hidden, f"seat {seat} was sent hidden cards {seen & hidden}"
            seeds = [f["seed"] for f in view["fairness"]]
            assert seeds[-1] is None  # the current hand's seed is still secret
            checked += 1
    assert checked > 20
    # every hand's deal is proven fair by its revealed seed
    code = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "verify", "/dev/stdin"],
        input=json.dumps(full).encode(),
        capture_output=True,
        check=False,
    )
    assert code.returncode == 0, code.stdout.decode() + code.stderr.decode()


def test_players_over_http(server: Server) -> None:
    player = httpx.post(f"{server.base}/api/players", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    ticket = httpx.post(
        f"{server.base}/api/games",
        json={"opponent": "ai", "level": "easy", "preset": "classic"},
        headers=auth,
    ).json()
    games = httpx.get(f"{server.base}/api/players/me/games", headers=auth).json()
    assert [g["game_id"] for g in games] == [ticket["game_id"]]
    assert games[0]["names"][0] == "Ann" and not games[0]["finished"]
    # the player token opens the seat too
    view = httpx.get(f"{server.base}/api/games/{ticket['game_id']}", headers=auth).json()
    assert view["seat"] == 0 and view["hand"]["hand"]
    stats = httpx.get(f"{server.base}/api/players/me/stats", headers=auth).json()
    assert stats["games"] == 0 and stats["name"] == "Ann"
    bad = httpx.get(
        f"{server.base}/api/players/me/stats", headers={"Authorization": "Bearer nobody"}
    )
    assert bad.status_code == 403 and bad.json()["detail"]["code"] == "service/bad-player"
    spec = httpx.get(f"{server.base}/openapi.json").json()
    assert "/api/players/me/games" in spec["paths"] and "/api/games" in spec["paths"]
