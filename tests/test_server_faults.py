"""The game service when things fail: database faults, lost commits, games an older server
left half-done, stale actions, bad names and ids, eviction, per-game locking.

Every test runs on SQLite and on the local PostgreSQL (``db_url``).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

import ginrummy
from ginrummy.server import service as service_module
from ginrummy.server.service import GameService, ServiceError
from ginrummy.server.store import GameRow, Store, open_store

RULES = dataclasses.replace(ginrummy.Rules.preset("classic"), target=250)
"""No single hand can end a game to 250 (the AI's first move never ends one)."""
SHORT = dataclasses.replace(ginrummy.Rules.preset("classic"), target=30)


class FaultyStore(Store):
    """A store whose writes fail on demand, as a database restarting or a dropped
    connection would make them fail.

    ``fail_writes``: that many next writes raise before anything is stored;
    ``lose_acks``: that many next writes are stored, then raise (the commit's answer lost).
    """

    def __init__(self, store: Store) -> None:
        super().__init__(store.engine)
        self.fail_writes = 0
        self.lose_acks = 0
        self.writes = 0

    def _fault(self) -> OperationalError:
        return OperationalError("INSERT", {}, Exception("server closed the connection"))

    def append(self, *args: Any, **kwargs: Any) -> None:
        self._faulty(lambda: super(FaultyStore, self).append(*args, **kwargs))

    def _faulty(self, write: Any) -> Any:
        self.writes += 1
        if self.fail_writes:
            self.fail_writes -= 1
            raise self._fault()
        done = write()
        if self.lose_acks:
            self.lose_acks -= 1
            raise self._fault()
        return done

    def add_game(self, *args: Any, **kwargs: Any) -> None:
        self._faulty(lambda: super(FaultyStore, self).add_game(*args, **kwargs))

    def set_seat(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self._faulty(lambda: super(FaultyStore, self).set_seat(*args, **kwargs)))

    def add_player(self, *args: Any, **kwargs: Any) -> None:
        self._faulty(lambda: super(FaultyStore, self).add_player(*args, **kwargs))


def faulty_service(db_url: str, **options: Any) -> tuple[GameService, FaultyStore]:
    store = FaultyStore(open_store(db_url))
    return GameService(store, retry_delay=0.001, **options), store


def person_to_act(service: GameService, game_id: str, token: str) -> dict[str, Any]:
    """The seat's view; fails unless the game waits for that person (or is over)."""
    view = service.view(game_id, token)
    assert view["is_over"] or view["hand"]["to_act"] == service.seat_of(game_id, token), (
        "the game waits for the server"
    )
    return view


def first_legal(view: dict[str, Any]) -> str:
    return str(view["hand"]["legal_actions"][0])


def stored_versions(store: Store, game_id: str) -> list[int]:
    return [v for v, _, _ in store.moves(game_id)]


# --- one request, one transaction ------------------------------------------------------------


def test_a_database_fault_between_the_move_and_the_ai_reply_stores_nothing(db_url: str) -> None:
    service, store = faulty_service(db_url)
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    before = person_to_act(service, ticket.game_id, ticket.token)
    versions = stored_versions(store, ticket.game_id)
    store.fail_writes = 100  # the database stays down
    with pytest.raises(ServiceError) as caught:
        service.act(ticket.game_id, ticket.token, first_legal(before))
    assert caught.value.code == "service/unavailable"
    assert stored_versions(store, ticket.game_id) == versions  # nothing half-written
    # a fresh server on the same database sees the game exactly as it was: the person's turn
    store.fail_writes = 0
    fresh = GameService(open_store(db_url))
    assert person_to_act(fresh, ticket.game_id, ticket.token) == before
    # and the same server, once the database is back, takes the move and the AI replies
    assert person_to_act(service, ticket.game_id, ticket.token) == before
    version = service.act(ticket.game_id, ticket.token, first_legal(before))
    after = person_to_act(service, ticket.game_id, ticket.token)
    assert after["version"] == version > before["version"]


def test_a_transient_fault_is_retried_and_stored_once(db_url: str) -> None:
    service, store = faulty_service(db_url)
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    view = person_to_act(service, ticket.game_id, ticket.token)
    store.fail_writes = 2  # two failed attempts, then the database answers
    version = service.act(ticket.game_id, ticket.token, first_legal(view))
    assert stored_versions(store, ticket.game_id) == list(range(1, version + 1))
    person_to_act(service, ticket.game_id, ticket.token)


def test_a_commit_whose_answer_was_lost_is_not_applied_twice(db_url: str) -> None:
    service, store = faulty_service(db_url)
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    view = person_to_act(service, ticket.game_id, ticket.token)
    store.lose_acks = 1  # stored, but the server never hears so
    version = service.act(ticket.game_id, ticket.token, first_legal(view))
    assert stored_versions(store, ticket.game_id) == list(range(1, version + 1))
    moves = store.moves(ticket.game_id)
    assert moves[view["version"]][1:] == (0, first_legal(view))  # once, where it belongs
    fresh = GameService(open_store(db_url))
    assert fresh.view(ticket.game_id, ticket.token) == service.view(ticket.game_id, ticket.token)


def test_a_new_game_is_stored_with_its_first_deal_or_not_at_all(db_url: str) -> None:
    service, store = faulty_service(db_url)
    _, token = service.create_player("Ann")

    def games_stored() -> int:
        with store.engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT COUNT(*) FROM games")).scalar_one())

    before = games_stored()
    store.fail_writes = 100
    with pytest.raises(ServiceError) as caught:
        service.create_game(RULES, ai_level="easy", player_token=token)
    assert caught.value.code == "service/unavailable"
    assert service.games_of(token) == []
    assert games_stored() == before
    store.fail_writes = 0
    store.lose_acks = 1  # stored, the answer lost: found, not stored twice
    ticket = service.create_game(RULES, ai_level="easy", player_token=token)
    (listed,) = service.games_of(token)
    assert listed["game_id"] == ticket.game_id
    moves = store.moves(ticket.game_id)
    assert moves[0][1:] == (None, "deal")  # dealt in the same transaction
    person_to_act(service, ticket.game_id, ticket.token)


def test_a_join_or_a_new_player_whose_answer_was_lost_is_stored_once(db_url: str) -> None:
    service, store = faulty_service(db_url)
    store.lose_acks = 1
    _, token = service.create_player("Ann")  # stored, the answer lost: found, not doubled
    assert service.stats(token)["name"] == "Ann"
    ticket = service.create_game(RULES, seat=0)
    store.lose_acks = 1
    friend = service.join(ticket.game_id, str(ticket.invite), name="Bo")
    assert service.seat_of(ticket.game_id, friend.token) == 1
    store.fail_writes = 100
    with pytest.raises(ServiceError) as caught:
        service.create_player("Cy")
    assert caught.value.code == "service/unavailable"


# --- steps owed are done on load and at start ------------------------------------------------


def wedge(db_url: str, ai_seat_moves: bool) -> tuple[str, str]:
    """A game left as an older server could leave it after a crash: the person's move stored
    but not the AI's reply (or, with ``ai_seat_moves`` False, the game row but no deal)."""
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    store = service.store
    if not ai_seat_moves:
        with store.engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM moves WHERE game_id = :g"), {"g": ticket.game_id})
            conn.execute(sa.text("DELETE FROM deals WHERE game_id = :g"), {"g": ticket.game_id})
        return ticket.game_id, ticket.token
    # play until a move of the person's is answered by the AI, then take the answer away
    for _ in range(20):
        view = service.view(ticket.game_id, ticket.token)
        service.act(ticket.game_id, ticket.token, first_legal(view))
        moves = store.moves(ticket.game_id)
        if moves[-1][1] != 0:
            break
    last_own = max(v for v, seat, _ in moves if seat == 0)
    dealt = sum(1 for v, _, action in moves if action == "deal" and v <= last_own)
    with store.engine.begin() as conn:
        conn.execute(
            sa.text("DELETE FROM moves WHERE game_id = :g AND version > :v"),
            {"g": ticket.game_id, "v": last_own},
        )
        conn.execute(
            sa.text("DELETE FROM deals WHERE game_id = :g AND hand > :h"),
            {"g": ticket.game_id, "h": dealt},
        )
    return ticket.game_id, ticket.token


@pytest.mark.parametrize("ai_seat_moves", [True, False], ids=["ai-reply-missing", "undealt"])
def test_a_wedged_game_is_settled_when_loaded(db_url: str, ai_seat_moves: bool) -> None:
    game_id, token = wedge(db_url, ai_seat_moves)
    fresh = GameService(open_store(db_url))
    view = person_to_act(fresh, game_id, token)
    assert view["hand"] is not None and view["hand"]["legal_actions"]
    assert stored_versions(fresh.store, game_id) == list(range(1, view["version"] + 1))


def test_a_starting_server_settles_every_wedged_game(db_url: str) -> None:
    wedged = [wedge(db_url, True), wedge(db_url, False)]
    fine = GameService(open_store(db_url)).create_game(RULES, ai_level="easy")
    fresh = GameService(open_store(db_url))
    assert fresh.settle_all() >= 2  # (PostgreSQL: the database is shared by the session)
    assert fresh.cached_games == 0  # settled, not kept in memory
    assert fresh.settle_all() == 0
    # the steps are stored: yet another server finds nothing owed and the people to act
    other = GameService(open_store(db_url))
    for game_id, token in [*wedged, (fine.game_id, fine.token)]:
        before = len(other.store.moves(game_id))
        person_to_act(other, game_id, token)
        assert len(other.store.moves(game_id)) == before


# --- versions, names, ids --------------------------------------------------------------------


def test_a_stale_action_is_refused_and_changes_nothing(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, seat=0)
    friend = service.join(ticket.game_id, str(ticket.invite))
    tokens = {ticket.seat: ticket.token, friend.seat: friend.token}
    view = service.view(ticket.game_id, ticket.token)
    seat = view["hand"]["to_act"]
    mine = service.view(ticket.game_id, tokens[seat])
    old = mine["version"]
    service.act(ticket.game_id, tokens[seat], first_legal(mine), version=old)
    now = service.view(ticket.game_id, ticket.token)
    nxt = now["hand"]["to_act"]
    theirs = service.view(ticket.game_id, tokens[nxt])
    with pytest.raises(ServiceError) as caught:
        service.act(ticket.game_id, tokens[nxt], first_legal(theirs), version=old)
    assert caught.value.code == "service/stale"
    assert service.view(ticket.game_id, tokens[nxt]) == theirs
    service.act(ticket.game_id, tokens[nxt], first_legal(theirs), version=theirs["version"])


@pytest.mark.parametrize(
    "name", ["a\x00b", "\ud800", "tab\there", "x" * 41], ids=["nul", "surrogate", "control", "long"]
)
def test_bad_names_are_refused_before_the_database(db_url: str, name: str) -> None:
    service = GameService(open_store(db_url))
    for call in (
        lambda: service.create_player(name),
        lambda: service.create_game(RULES, ai_level="easy", name=name),
    ):
        with pytest.raises(ServiceError) as caught:
            call()
        assert caught.value.code == "service/bad-name"


@pytest.mark.parametrize("game_id", ["nope", "a\x00" * 16, "\ud800", "0" * 31 + "g", "A" * 32])
def test_odd_game_ids_are_no_game(db_url: str, game_id: str) -> None:
    service = GameService(open_store(db_url))
    for call in (
        lambda: service.view(game_id, None),
        lambda: service.act(game_id, "\ud800\x00", "stock"),
        lambda: service.join(game_id, "x\x00"),
    ):
        with pytest.raises(ServiceError) as caught:
            call()
        assert caught.value.code == "service/no-game"


def test_odd_tokens_are_spectators(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, ai_level="easy")
    for token in ("\ud800", "a\x00b", "", "x" * 500):
        assert service.seat_of(ticket.game_id, token) is None
    with pytest.raises(ServiceError) as caught:
        service.games_of("\ud800\x00")
    assert caught.value.code == "service/bad-player"


# --- memory and locking ----------------------------------------------------------------------


def test_idle_games_leave_memory_and_come_back_from_the_log(db_url: str) -> None:
    service = GameService(open_store(db_url), cache_size=3)
    tickets = [service.create_game(RULES, ai_level="easy") for _ in range(8)]
    assert service.cached_games == 3
    for ticket in tickets:
        view = person_to_act(service, ticket.game_id, ticket.token)
        service.act(ticket.game_id, ticket.token, first_legal(view))
        assert service.cached_games <= 3
    fresh = GameService(open_store(db_url))
    for ticket in tickets:
        assert fresh.view(ticket.game_id, ticket.token) == service.view(
            ticket.game_id, ticket.token
        )


def test_a_game_thinking_does_not_hold_up_another(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(open_store(db_url))
    slow = service.create_game(RULES, ai_level="easy", seat=0)
    other = service.create_game(RULES, ai_level="easy", seat=0)
    person_to_act(service, slow.game_id, slow.token)
    real_player = service_module.player
    thinking = threading.Event()

    class SlowBot:
        def __init__(self, level: str, seed: Any) -> None:
            self.bot = real_player(level, seed)

        def choose(self, seat_view: Any) -> str:
            thinking.set()
            time.sleep(1.5)
            return str(self.bot.choose(seat_view))

    monkeypatch.setattr(service_module, "player", SlowBot)

    def play_until_the_ai_thinks() -> None:
        for _ in range(6):
            if thinking.is_set():
                return
            seat_view = service.view(slow.game_id, slow.token)
            service.act(slow.game_id, slow.token, first_legal(seat_view))

    mover = threading.Thread(target=play_until_the_ai_thinks)
    mover.start()
    assert thinking.wait(10)
    started = time.monotonic()
    service.view(other.game_id, other.token)  # another game answers at once
    service.events_since(other.game_id, 0)
    waited = time.monotonic() - started
    mover.join(30)
    assert waited < 0.75, f"another game waited {waited:.2f} s for this one's AI"
    person_to_act(service, slow.game_id, slow.token)


def test_the_rows_of_a_game_are_what_the_store_says(db_url: str) -> None:
    """GameRow round trip (the settle path reads rows of games never cached)."""
    store = open_store(db_url)
    service = GameService(store)
    ticket = service.create_game(RULES, ai_level="hard", seat=1, name="Bo")
    row = store.game(ticket.game_id)
    assert isinstance(row, GameRow)
    assert (row.ai_level, row.ai_seat, row.names[1], row.finished) == ("hard", 0, "Bo", False)
    assert ticket.game_id in store.unfinished_games()


def test_the_view_text_is_the_view(db_url: str) -> None:
    """The server sends views as JSON text built from cached parts; it must say exactly what
    the view says, for each seat and a spectator, through a whole game and after a reload."""
    service = GameService(open_store(db_url))
    ticket = service.create_game(SHORT, ai_level="easy", seat=0)
    for _ in range(400):
        for seat in (0, 1, None):
            text = service.view_text_for_seat(ticket.game_id, seat)
            expected = service.state_view(ticket.game_id, seat)
            assert json.loads(text) == expected
        view = service.view(ticket.game_id, ticket.token)
        if view["is_over"]:
            break
        service.act(ticket.game_id, ticket.token, first_legal(view))
    assert view["is_over"]
    fresh = GameService(open_store(db_url))
    assert fresh.view_text(ticket.game_id, ticket.token) == service.view_text(
        ticket.game_id, ticket.token
    )


def test_a_host_opening_their_own_invite_keeps_the_friends_seat_free(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, seat=0)  # no player token: an anonymous host
    with pytest.raises(ServiceError) as caught:
        service.join(ticket.game_id, str(ticket.invite), player_token=ticket.token)
    assert caught.value.code == "service/already-seated"
    friend = service.join(ticket.game_id, str(ticket.invite), name="Bo")
    assert friend.seat == 1
    assert service.view(ticket.game_id, ticket.token)["names"] == [None, "Bo"]


def test_a_move_from_the_event_loop_never_waits_for_another_writer(tmp_path: Any) -> None:
    """SQLite: moves between people are stored straight from the event loop (``act_now``);
    when another writer holds the database, it gives up at once, stores nothing, and the
    move goes the slow way (a worker thread, which waits its turn)."""
    import sqlite3

    path = tmp_path / "games.db"
    service = GameService(open_store(str(path)))
    ticket = service.create_game(RULES, seat=0)
    friend = service.join(ticket.game_id, str(ticket.invite))
    tokens = {ticket.seat: ticket.token, friend.seat: friend.token}
    view = service.view(ticket.game_id, ticket.token)
    seat = view["hand"]["to_act"]
    action = first_legal(service.view(ticket.game_id, tokens[seat]))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the database
    started = time.monotonic()
    assert service.act_now(ticket.game_id, seat, action) is None
    assert time.monotonic() - started < 0.5
    assert service.view(ticket.game_id, ticket.token) == view  # nothing stored or shown
    other.execute("ROLLBACK")
    other.close()
    version = service.act_now(ticket.game_id, seat, action)
    assert version == view["version"] + 1
    assert stored_versions(service.store, ticket.game_id)[-1] == version
    # a game against the AI is never played on the event loop (the AI may think)
    ai = service.create_game(RULES, ai_level="easy", seat=0)
    ai_view = person_to_act(service, ai.game_id, ai.token)
    assert service.act_now(ai.game_id, 0, first_legal(ai_view)) is None


def test_the_hub_caps_connections_per_game_and_sends_presence_in_linear_time(
    tmp_path: Any,
) -> None:
    from ginrummy.server.hub import Connection, Hub
    from ginrummy.server.limits import Limits

    limits = Limits(connections_per_game=40, connections_per_client=100)
    hub = Hub(GameService(open_store(str(tmp_path / "g.db"))), limits)
    game = "ab" * 16

    def connect(seat: int | None, client: str) -> Connection | tuple[str, str]:
        conn = Connection(None, seat, client, limits)  # type: ignore[arg-type]
        refused = hub.add(game, conn)
        if refused is not None:
            return refused
        hub.started(game, conn, 0)
        return conn

    seats = [connect(0, "10.0.0.1"), connect(1, "10.0.0.2")]
    spectators = [connect(None, f"10.0.1.{i}") for i in range(38)]
    everyone = [c for c in seats + spectators if isinstance(c, Connection)]
    assert len(everyone) == 40
    assert connect(None, "10.0.2.1") == (
        "ws/too-many-connections",
        "this game has 40 connections already",
    )
    # presence: each newcomer is told once; a spectator coming changes nobody's presence
    queued = sum(c.queue.qsize() for c in everyone)
    assert queued <= 2 * len(everyone), queued
    assert seats[0].queue.qsize() == 2  # type: ignore[union-attr]  # its own, seat 1 arriving
    hub.remove(game, seats[1])  # type: ignore[arg-type]
    assert all(c.queue.qsize() >= 1 for c in everyone[2:])  # a seat leaving: everyone told


# --- several processes: news that races a read ------------------------------------------------


class HookedStore(Store):
    """A store that runs ``during_log`` while it reads a game's moves (once), as if another
    process wrote at that moment."""

    def __init__(self, store: Store) -> None:
        super().__init__(store.engine)
        self.during_log: Any = None

    def log(self, game_id: str, after: int = 0) -> list[tuple[int, int | None, str, str | None]]:
        found = super().log(game_id, after)
        hook, self.during_log = self.during_log, None
        if hook is not None:
            hook()
        return found


def between_people(service: GameService) -> tuple[str, dict[int, str]]:
    made = service.create_game(RULES)
    assert made.invite is not None
    friend = service.join(made.game_id, made.invite)
    return made.game_id, {made.seat: made.token, friend.seat: friend.token}


def play_one(service: GameService, game_id: str, tokens: dict[int, str]) -> int:
    seat = service.view(game_id, None)["hand"]["to_act"]
    return service.act(game_id, tokens[seat], first_legal(service.view(game_id, tokens[seat])))


def test_news_that_comes_while_a_game_is_read_is_not_lost(db_url: str) -> None:
    """The other process stores a move just after this one read the moves, and its news
    comes before this one has finished building the game: the copy built is not trusted."""
    store = HookedStore(open_store(db_url))
    here, there = GameService(store), GameService(open_store(db_url))
    game_id, tokens = between_people(there)

    def the_other_moves() -> None:
        version = play_one(there, game_id, tokens)
        here.note_version(game_id, version)  # the news, from Redis

    store.during_log = the_other_moves
    seen = here.view(game_id, None)["version"]  # built from the moves read before the move
    assert here.view(game_id, None)["version"] == seen + 1 == there.view(game_id, None)["version"]


def test_a_deal_stored_while_a_game_is_read_does_not_break_it(db_url: str) -> None:
    """Moves are read before deals: a hand ended and a new one dealt by the other process
    between the two reads leaves a deal no read move names, which is harmless."""
    store = HookedStore(open_store(db_url))
    here, there = GameService(store), GameService(open_store(db_url))
    game_id, tokens = between_people(there)
    hands = there.view(game_id, None)["hand_number"]

    def the_other_ends_a_hand() -> None:
        for _ in range(200):
            seat = there.view(game_id, None)["hand"]["to_act"]
            legal = there.view(game_id, tokens[seat])["hand"]["legal_actions"]
            enders = [a for a in legal if a.split()[0] in ("knock", "gin")]
            there.act(game_id, tokens[seat], (enders or legal)[0])
            if there.view(game_id, None)["hand_number"] > hands:
                return
        raise AssertionError("no hand ended")

    store.during_log = the_other_ends_a_hand
    view = here.view(game_id, None)  # the moves of hand 1 and the deals of hands 1 and 2
    assert view["hand_number"] == hands
    here.note_version(game_id, -1)
    assert here.view(game_id, None) == there.view(game_id, None)


def test_a_friend_who_joined_through_another_process_is_seated(db_url: str) -> None:
    here, there = GameService(open_store(db_url)), GameService(open_store(db_url))
    made = here.create_game(RULES)
    assert made.invite is not None
    assert here.view(made.game_id, None)["names"][1 - made.seat] is None  # cached, one seat
    friend = there.join(made.game_id, made.invite, "Bob")  # no news reaches ``here``
    assert here.seat_of(made.game_id, friend.token) == friend.seat
    assert here.view(made.game_id, None)["names"][friend.seat] == "Bob"
    assert here.seat_of(made.game_id, "not a token") is None


class CountingStore(Store):
    """Counts whole reads of a game (its row) and reads of moves after a version."""

    def __init__(self, store: Store) -> None:
        super().__init__(store.engine)
        self.rows = self.partial = 0

    def game(self, game_id: str) -> GameRow | None:
        self.rows += 1
        return super().game(game_id)

    def log(self, game_id: str, after: int = 0) -> list[tuple[int, int | None, str, str | None]]:
        self.partial += after > 0
        return super().log(game_id, after)


@pytest.mark.parametrize("timer", [None, 600])
def test_a_copy_catches_up_with_the_moves_it_missed(db_url: str, timer: int | None) -> None:
    """News of the other process's moves, across the end of a hand (a new deal): the copy
    here takes only the moves after its own and ends equal to the other's, without reading
    the game whole (a timed game rereads its row for the deadline)."""
    store = CountingStore(open_store(db_url))
    here, there = GameService(store), GameService(open_store(db_url))
    made = there.create_game(RULES, turn_seconds=timer)
    assert made.invite is not None
    friend = there.join(made.game_id, made.invite)
    tokens = {made.seat: made.token, friend.seat: friend.token}
    game_id = made.game_id
    here.view(game_id, None)
    rows = store.rows
    hands = there.view(game_id, None)["hand_number"]
    acts = 0
    while there.view(game_id, None)["hand_number"] == hands:
        seat = there.view(game_id, None)["hand"]["to_act"]
        legal = there.view(game_id, tokens[seat])["hand"]["legal_actions"]
        enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
        plain = [a for a in legal if a not in enders]
        # a few moves first (a hand that could end at once would leave nothing to catch up)
        action = enders[0] if enders and acts >= 6 else (plain or legal)[0]
        version = there.act(game_id, tokens[seat], action)
        acts += 1
        here.note_version(game_id, version)
        if version % 3 == 0:  # now and then this side looks, catching up a few moves
            assert here.view(game_id, None) == there.view(game_id, None)
    for seat in (0, 1, None):
        token = tokens.get(seat) if seat is not None else None
        assert here.view(game_id, token) == there.view(game_id, token)
    assert store.partial >= 2
    assert (store.rows == rows) if timer is None else (store.rows > rows)


class BatchCountingStore(Store):
    """Counts the reads a process catching up with news makes: per game, and batched."""

    def __init__(self, store: Store) -> None:
        super().__init__(store.engine)
        self.calls: dict[str, int] = {}

    def _count(self, name: str) -> None:
        self.calls[name] = self.calls.get(name, 0) + 1

    def log(self, game_id: str, after: int = 0) -> list[tuple[int, int | None, str, str | None]]:
        self._count("log")
        return super().log(game_id, after)

    def deals(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        self._count("deals")
        return super().deals(game_id, after)

    def game(self, game_id: str) -> GameRow | None:
        self._count("game")
        return super().game(game_id)

    def logs_after(self, after: Any) -> Any:
        self._count("logs_after")
        return super().logs_after(after)

    def deals_after(self, after: Any) -> Any:
        self._count("deals_after")
        return super().deals_after(after)

    def games_by_id(self, game_ids: Any) -> Any:
        self._count("games_by_id")
        return super().games_by_id(game_ids)


def play_to_next_hand(service: GameService, game_id: str, tokens: dict[int, str]) -> int:
    """Play the game (between people) until a new hand is dealt; the version then."""
    hands = service.view(game_id, None)["hand_number"]
    for _ in range(200):
        seat = service.view(game_id, None)["hand"]["to_act"]
        legal = service.view(game_id, tokens[seat])["hand"]["legal_actions"]
        enders = [a for a in legal if a.split()[0] in ("knock", "gin")]
        version = service.act(game_id, tokens[seat], (enders or legal)[0])
        if service.view(game_id, None)["hand_number"] > hands:
            return version
    raise AssertionError("no hand ended")


def test_news_of_many_games_is_caught_up_with_one_read_for_all(db_url: str) -> None:
    """News of moves in several games (one across a new deal, one with a turn timer): the
    copies here are brought up to date from one read of the moves of all of them, one of the
    deals and one of the timed games' rows, not from reads per game, and end equal to the
    other process's."""
    store = BatchCountingStore(open_store(db_url))
    here, there = GameService(store), GameService(open_store(db_url))
    games: dict[str, dict[int, str]] = {}
    for timer in (None, None, None, 600):
        made = there.create_game(RULES, turn_seconds=timer)
        assert made.invite is not None
        friend = there.join(made.game_id, made.invite)
        games[made.game_id] = {made.seat: made.token, friend.seat: friend.token}
    ids = list(games)
    for game_id in ids:
        here.view(game_id, None)  # a copy in memory
    store.calls.clear()
    versions = {game_id: play_one(there, game_id, tokens) for game_id, tokens in games.items()}
    versions[ids[0]] = play_to_next_hand(there, ids[0], games[ids[0]])  # a new deal
    for game_id, version in versions.items():
        here.note_version(game_id, version)
    wanted: dict[str, set[int | None]] = {game_id: {0, 1, None} for game_id in ids}
    wanted["0" * 32] = {None}  # no such game: left out of the answer
    found = here.view_texts_many(wanted)
    # (the game that is not there is looked for: its row)
    assert store.calls == {"logs_after": 1, "deals_after": 1, "games_by_id": 1, "game": 1}
    assert set(found) == set(ids)
    for game_id, tokens in games.items():
        version, texts = found[game_id]
        assert version == versions[game_id]
        for seat in (0, 1, None):
            token = tokens.get(seat) if seat is not None else None
            mine, theirs = json.loads(texts[seat]), there.view(game_id, token)
            if mine["timer"] is not None:  # the seconds left run on between the two reads
                left = mine["timer"].pop("seconds_left"), theirs["timer"].pop("seconds_left")
                assert 0 <= left[0] - left[1] <= 1
            assert mine == theirs
    store.calls.clear()
    assert here.view_texts_many({ids[1]: {0}})[ids[1]][0] == versions[ids[1]]
    assert store.calls == {}  # up to date: nothing read


def test_a_write_that_finds_its_version_taken_stores_none_of_its_parts(db_url: str) -> None:
    """An append's moves, deals and the game's row change are one transaction (on PostgreSQL
    one statement): a version another writer took first fails all of them."""
    store = open_store(db_url)
    service = GameService(store)
    game_id, _tokens = between_people(service)
    version = store.latest_version(game_id)
    hands = len(store.deals(game_id))
    with pytest.raises(sa.exc.IntegrityError):
        store.append(
            game_id,
            version - 1,
            [(0, "stock", None), (None, "deal", None)],
            time.time(),
            [(hands + 1, "seed", "commitment")],
            finished=True,
        )
    assert store.latest_version(game_id) == version
    assert len(store.deals(game_id)) == hands
    row = store.game(game_id)
    assert row is not None and not row.finished
    store.append(game_id, version, [(0, "stock", None)], time.time(), deadline=12.5)
    row = store.game(game_id)
    assert row is not None and row.deadline == 12.5 and not row.finished
    assert store.log(game_id, version) == [(version + 1, 0, "stock", None)]


def test_a_pooled_connection_the_database_dropped_is_replaced_when_idle(
    pg_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: a connection unused for ``PING_IDLE_SECONDS`` is pinged before use, and one
    the database dropped meanwhile is replaced, so the read succeeds at once; one used a
    moment ago is not pinged, and its loss is a transient error (which the service retries)."""
    from ginrummy.server import store as store_module

    store = open_store(pg_database)
    service = GameService(store)
    game_id, _tokens = between_people(service)

    def drop_its_connections() -> None:
        with store.engine.connect() as conn:
            mine = conn.execute(sa.text("SELECT pg_backend_pid()")).scalar()
        killer = sa.create_engine(pg_database.replace("postgresql://", "postgresql+psycopg://"))
        try:
            with killer.connect() as conn:
                conn.execute(
                    sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": mine}
                )  # the pool holds one connection idle: that one
        finally:
            killer.dispose()

    store.engine.dispose()
    assert store.latest_version(game_id) > 0  # one connection, back in the pool
    monkeypatch.setattr(store_module, "PING_IDLE_SECONDS", 3600.0)
    drop_its_connections()
    with pytest.raises(sa.exc.DBAPIError) as lost:
        store.latest_version(game_id)
    assert store_module.is_transient(lost.value)
    drop_its_connections()
    service.refresh(game_id)  # the service retries such a read: no error
    monkeypatch.setattr(store_module, "PING_IDLE_SECONDS", 0.0)
    store.engine.dispose()
    assert store.latest_version(game_id) > 0
    drop_its_connections()
    assert store.latest_version(game_id) > 0  # pinged, replaced: no error


def test_news_of_many_games_goes_out_in_few_rounds(tmp_path: Any) -> None:
    """News from the other processes, of many games at once: delivered in rounds of up to
    ``DELIVERY_BATCH`` games, at most ``DELIVERY_SLOTS`` rounds at a time, every game once;
    news of a game whose round is running waits for a round after it (never two at once)."""
    import asyncio

    from ginrummy.server import redis_fanout

    service = GameService(open_store(str(tmp_path / "games.db")))
    rounds: list[list[str]] = []
    running: set[str] = set()
    most = [0, 0]  # rounds running now, at most

    class Hub:
        def __init__(self) -> None:
            self.games: dict[str, Any] = {}
            self.on_local_presence: Any = None

        async def deliver_many(self, game_ids: list[str]) -> None:
            assert not running & set(game_ids), "a game in two rounds at once"
            running.update(game_ids)
            most[0] += 1
            most[1] = max(most)
            rounds.append(list(game_ids))
            await asyncio.sleep(0.01)
            most[0] -= 1
            running.difference_update(game_ids)

    ids = [f"{i:032x}" for i in range(200)]

    async def news() -> None:
        hub: Any = Hub()
        fanout = redis_fanout.RedisFanOut(hub, service, "redis://127.0.0.1:1/0")
        for game_id in ids:
            fanout._deliver_soon(game_id)
        await asyncio.sleep(0.001)  # the rounds are running
        for game_id in ids[:3]:
            fanout._deliver_soon(game_id)  # news of games in a round now
        for _ in range(1000):
            if not fanout._rounds:
                break
            await asyncio.sleep(0.005)
        await fanout.close()

    asyncio.run(news())
    batch, slots = redis_fanout.DELIVERY_BATCH, redis_fanout.DELIVERY_SLOTS
    assert all(len(r) <= batch and len(set(r)) == len(r) for r in rounds)
    assert 1 <= most[1] <= slots
    delivered = [game_id for r in rounds for game_id in r]
    assert sorted(delivered) == sorted(ids + ids[:3])
    assert len(rounds) <= -(-len(ids) // batch) + 1
