"""Turn timers in running servers: a timed-out turn played and seen by both seats, a claim
over the WebSocket, a deadline that passed while the server was down, and two workers on
PostgreSQL + Redis playing each timed-out turn exactly once. Timers of 3 s (the least)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection

from ginrummy.server.bot import greedy_action
from test_server_workers import UNLIMITED, game_between_people, hidden_cards
from web_support import Server, live_server  # noqa: F401 (a fixture)

SECONDS = 3


def timed_game(create_on: Server, join_on: Server) -> tuple[str, dict[int, str]]:
    """A game between people with a 3 s turn timer, to 1,000; its id and the seat tokens."""
    made, friend = game_between_people(create_on, join_on, turn_seconds=SECONDS)
    return made["game_id"], {made["seat"]: made["token"], friend["seat"]: friend["token"]}


def events(srv: Server, game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = httpx.get(
        f"{srv.base}/api/games/{game_id}/events", timeout=30
    ).json()
    return found


def timed_turns(moves: list[dict[str, Any]]) -> list[tuple[int, list[str]]]:
    """The turns the timer played: (seat, actions), in order."""
    turns: list[tuple[int, list[str]]] = []
    previous: dict[str, Any] | None = None
    for move in moves:
        if move["by"] == "timer":
            same = previous is not None and previous["by"] == "timer"
            if same and previous is not None and previous["seat"] == move["seat"]:
                turns[-1][1].append(move["action"])
            else:
                turns.append((move["seat"], [move["action"]]))
        previous = move
    return turns


def next_view(conn: ClientConnection, after: int, timeout: float = 15) -> dict[str, Any]:
    """The first view newer than version ``after`` (errors fail the test); the hidden-card
    check is done on it too."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = conn.recv(timeout=max(0.1, end - time.monotonic()))
        assert isinstance(text, str)
        message = json.loads(text)
        assert message["type"] != "error", message
        view = message.get("view")
        if view is not None and view["version"] > after:
            return dict(view)
    raise AssertionError(f"no view after version {after} in {timeout} s")


def check_hidden(views: dict[int, dict[str, Any]]) -> None:
    """Neither seat's view names a card of the other's hidden hand."""
    for who in (0, 1):
        hand = views[who]["hand"]
        if hand is None or hand["result"] is not None or views[who]["is_over"]:
            continue
        shown = dict(hand)
        shown.pop("upcard")
        seen = json.dumps(shown)
        if views[1 - who]["version"] != views[who]["version"]:
            continue
        for card in hidden_cards(views[1 - who], 1 - who):
            assert f'"{card}"' not in seen, (who, card)


def test_a_timed_out_turn_then_a_claim(tmp_path: Path) -> None:
    with Server(str(tmp_path / "games.db"), extra_args=UNLIMITED) as srv:
        game_id, tokens = timed_game(srv, srv)
        with srv.ws(game_id, tokens[0]) as zero, srv.ws(game_id, tokens[1]) as one:
            conns = {0: zero, 1: one}
            views = {seat: next_view(conns[seat], -1) for seat in (0, 1)}  # the hello
            timer = views[0]["timer"]
            assert timer["turn_seconds"] == SECONDS and 0 < timer["seconds_left"] <= SECONDS
            absent = views[0]["hand"]["to_act"]
            present = 1 - absent
            early = httpx.post(
                f"{srv.base}/api/games/{game_id}/actions",
                json={"action": "claim"},
                headers={"Authorization": f"Bearer {tokens[present]}"},
                timeout=30,
            )
            assert early.status_code == 409
            assert early.json()["detail"]["code"] == "service/cannot-claim"
            started = time.monotonic()
            timer_in_history = False  # a hand's history may end (and restart) mid-loop
            # the absent seat never acts: the timer plays for it; the other plays at once
            while views[present]["timer"]["timeouts"][absent] < 3:
                assert time.monotonic() - started < 60
                version = views[present]["version"]
                if views[present]["hand"]["to_act"] == present:
                    action = greedy_action(views[present]["hand"])
                    conns[present].send(
                        json.dumps({"type": "action", "action": action, "version": version})
                    )
                for seat in (0, 1):
                    views[seat] = next_view(conns[seat], version)
                assert views[0]["version"] == views[1]["version"]
                check_hidden(views)
                history = (views[present]["hand"] or {}).get("history", [])
                timer_in_history |= any(e.get("by") == "timer" for e in history)
            elapsed = time.monotonic() - started
            assert elapsed >= 3 * SECONDS - 0.5  # three whole turns waited for
            assert views[present]["timer"]["can_claim"]
            assert not views[absent]["timer"]["can_claim"]
            assert timer_in_history  # the seats saw the timer's moves as the timer's
            version = views[present]["version"]
            conns[present].send(json.dumps({"type": "action", "action": "claim"}))
            for seat in (0, 1):
                views[seat] = next_view(conns[seat], version)
                assert views[seat]["is_over"] and views[seat]["claimed_by"] == present
        moves = events(srv, game_id)
        turns = timed_turns(moves)
        assert [seat for seat, _ in turns] == [absent] * 3
        assert moves[-1] == {
            "version": len(moves),
            "seat": present,
            "action": "claim",
            "by": None,
        }
        record = httpx.get(f"{srv.base}/api/games/{game_id}/record", timeout=30).json()
        assert record["claimed_by"] == present


def test_a_deadline_passed_while_the_server_was_down(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "games.db"), extra_args=UNLIMITED)
    with srv:
        game_id, _ = timed_game(srv, srv)
        view = httpx.get(f"{srv.base}/api/games/{game_id}", timeout=30).json()
        deadline = view["timer"]["deadline"]
        srv.stop()
        time.sleep(max(0.0, deadline - time.time() + 0.5))
        srv.start()
        end = time.monotonic() + 10
        while time.monotonic() < end:
            turns = timed_turns(events(srv, game_id))
            if turns:
                break
            time.sleep(0.1)
        assert len(turns) == 1 and turns[0][0] == view["hand"]["to_act"]
        after = httpx.get(f"{srv.base}/api/games/{game_id}", timeout=30).json()
        assert after["hand"]["to_act"] != view["hand"]["to_act"]
        assert after["timer"]["deadline"] > time.time()


def test_two_workers_play_each_timed_out_turn_once(
    pg_database: str,
    redis_url: str,
) -> None:
    args = ["--redis", redis_url, *UNLIMITED]
    with Server(pg_database, extra_args=args) as a, Server(pg_database, extra_args=args) as b:
        game_id, tokens = timed_game(a, b)
        with a.ws(game_id, tokens[0]) as zero, b.ws(game_id, tokens[1]) as one:
            conns = {0: zero, 1: one}
            views = {seat: next_view(conns[seat], -1) for seat in (0, 1)}
            first = views[0]["hand"]["to_act"]
            for expected in (first, 1 - first):  # nobody acts: one timed turn each
                version = views[0]["version"]
                for seat in (0, 1):  # each seat, on its own worker, sees the timed turn
                    views[seat] = next_view(conns[seat], version)
                assert views[0]["version"] == views[1]["version"]
                check_hidden(views)
                turns = timed_turns(events(a, game_id))
                assert turns[-1][0] == expected
                # half a turn later nothing more was played: it fired once
                time.sleep(SECONDS / 2)
                moves = events(b, game_id)
                assert moves[-1]["version"] == views[0]["version"]
                assert [m["version"] for m in moves] == list(range(1, len(moves) + 1))
            assert [seat for seat, _ in timed_turns(events(a, game_id))] == [first, 1 - first]


def test_bad_timers_are_refused(live_server: Server) -> None:  # noqa: F811 (the fixture)
    for value in (2, 601, -1, "30", 30.5, True, [30]):
        r = httpx.post(
            f"{live_server.base}/api/games",
            json={"opponent": "human", "turn_seconds": value},
            timeout=30,
        )
        assert r.status_code == 422, value
        detail = r.json()["detail"]
        assert detail["code"] == "request/invalid" and "turn_seconds" in detail["message"]
    r = httpx.post(
        f"{live_server.base}/api/games",
        json={"opponent": "ai", "turn_seconds": 30},
        timeout=30,
    )
    assert r.status_code == 400
    assert r.json()["detail"]["code"] == "service/bad-timer"
