"""Turn timers and claims in the game service, on SQLite and PostgreSQL, with a clock the
test moves by hand (the timer task of a running server is tested in
``test_server_timer_process.py``)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import ginrummy
from ginrummy.errors import IllegalActionError
from ginrummy.server.bot import greedy_action
from ginrummy.server.service import GameService, SeatTicket, ServiceError
from ginrummy.server.store import open_store

RULES = dataclasses.replace(ginrummy.Rules.preset("tournament"), target=1000)


class Clock:
    """Seconds since the epoch, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def timed_game(service: GameService, seconds: int = 10) -> tuple[SeatTicket, SeatTicket]:
    made = service.create_game(RULES, name="Ann", turn_seconds=seconds)
    assert made.invite is not None
    friend = service.join(made.game_id, made.invite, "Bob")
    return made, friend


def tokens_of(made: SeatTicket, friend: SeatTicket) -> dict[int, str]:
    return {made.seat: made.token, friend.seat: friend.token}


def to_act(service: GameService, game_id: str) -> int:
    seat: int = service.view(game_id, None)["hand"]["to_act"]
    return seat


def play_own_turn(service: GameService, game_id: str, tokens: dict[int, str]) -> None:
    """The seat to act plays its whole turn itself (a draw and a discard, or a pass)."""
    seat = to_act(service, game_id)
    while not service.view(game_id, None)["is_over"] and to_act(service, game_id) == seat:
        view = service.view(game_id, tokens[seat])
        if view["hand"]["to_act"] != seat:
            return
        service.act(game_id, tokens[seat], greedy_action(view["hand"]))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db_url: str, clock: Clock) -> GameService:
    return GameService(open_store(db_url), clock=clock)


def test_the_deadline_starts_when_both_seats_are_taken(service: GameService, clock: Clock) -> None:
    made = service.create_game(RULES, turn_seconds=10)
    assert made.invite is not None
    timer = service.view(made.game_id, made.token)["timer"]
    assert timer == {
        "turn_seconds": 10,
        "deadline": None,  # nobody to wait for yet
        "seconds_left": None,
        "timeouts": [0, 0],
        "can_claim": False,
    }
    clock.now += 100
    assert service.time_out(made.game_id) is None  # no deadline: nothing happens
    service.join(made.game_id, made.invite)
    timer = service.view(made.game_id, made.token)["timer"]
    assert timer["deadline"] == clock.now + 10 and timer["seconds_left"] == 10.0
    clock.now += 3.25
    assert service.view(made.game_id, None)["timer"]["seconds_left"] == 6.8  # 6.75, rounded


def test_games_without_a_timer_say_so(service: GameService) -> None:
    ticket = service.create_game(RULES, ai_level="easy")
    assert service.view(ticket.game_id, ticket.token)["timer"] is None
    made = service.create_game(RULES)
    assert service.view(made.game_id, None)["timer"] is None


def test_a_timed_out_turn_is_played_by_the_normal_ai(service: GameService, clock: Clock) -> None:
    # the deck is random: now and then the AI's turn ends the hand at once (it takes the
    # upcard and knocks) and the next hand is dealt; that case is played again on a new game
    for _ in range(10):
        made, friend = timed_game(service, seconds=10)
        game_id = made.game_id
        tokens = tokens_of(made, friend)
        before = service.view(game_id, None)
        seat = before["hand"]["to_act"]
        clock.now += 9.9
        assert service.time_out(game_id) is None  # not yet
        assert service.view(game_id, None)["version"] == before["version"]
        clock.now += 0.1
        version = service.time_out(game_id)
        assert version is not None and version > before["version"]
        if all(e["action"] != "deal" for e in service.events_since(game_id, before["version"])):
            break
    after = service.view(game_id, tokens[1 - seat])
    assert after["version"] == version
    assert after["hand"]["to_act"] == 1 - seat  # the whole turn was played
    played = service.events_since(game_id, before["version"])
    assert played and all(e["seat"] == seat and e["by"] == "timer" for e in played)
    # the moves are marked in both seats' histories, and only those
    for viewer in (0, 1, None):
        history = service.view(game_id, tokens.get(viewer))["hand"]["history"]  # type: ignore[arg-type]
        marked = [e for e in history if e.get("by") == "timer"]
        assert len(marked) == len(played)
        assert history[-len(played) :] == marked
    # a fresh deadline for the other seat, and the timeout counted
    timer = after["timer"]
    assert timer["deadline"] == clock.now + 10
    assert timer["timeouts"][seat] == 1 and timer["timeouts"][1 - seat] == 0
    assert service.time_out(game_id) is None  # once only
    # the other seat acts itself: its count stays 0, the deadline moves
    clock.now += 4
    play_own_turn(service, game_id, tokens)
    timer = service.view(game_id, None)["timer"]
    assert timer["deadline"] == clock.now + 10 and timer["timeouts"] == after["timer"]["timeouts"]


def test_the_view_equals_the_plain_oracle_with_timer_moves(
    service: GameService, clock: Clock
) -> None:
    made, friend = timed_game(service, seconds=5)
    tokens = tokens_of(made, friend)
    for turn in range(8):
        if turn % 2:
            play_own_turn(service, made.game_id, tokens)
        else:
            clock.now += 5
            assert service.time_out(made.game_id) is not None
        for seat in (0, 1, None):
            token = tokens.get(seat) if seat is not None else None
            assert service.view(made.game_id, token) == service.state_view(made.game_id, seat)


def test_claim_after_three_timeouts_in_a_row(service: GameService, clock: Clock) -> None:
    made, friend = timed_game(service, seconds=10)
    game_id = made.game_id
    tokens = tokens_of(made, friend)
    absent = to_act(service, game_id)
    present = 1 - absent

    def claim(seat: int) -> int:
        return service.act(game_id, tokens[seat], "claim")

    for missed in range(3):
        with pytest.raises(ServiceError) as refused:
            claim(present)
        assert refused.value.code == "service/cannot-claim"
        assert f"({missed} so far)" in refused.value.message
        assert not service.view(game_id, tokens[present])["timer"]["can_claim"]
        clock.now += 10
        assert service.time_out(game_id) is not None  # the absent seat's turn
        play_own_turn(service, game_id, tokens)  # the present seat plays its own
    view = service.view(game_id, tokens[present])
    assert view["timer"]["timeouts"][absent] == 3 and view["timer"]["can_claim"]
    assert not service.view(game_id, tokens[absent])["timer"]["can_claim"]
    assert not service.view(game_id, None)["timer"]["can_claim"]
    with pytest.raises(ServiceError) as refused:
        claim(absent)  # the one who timed out cannot claim
    assert refused.value.code == "service/cannot-claim"
    version = claim(present)
    over = service.view(game_id, tokens[present])
    assert over["version"] == version and over["is_over"] and over["claimed_by"] == present
    assert over["hand"]["legal_actions"] == [] and over["outcome"] is None
    assert over["timer"]["deadline"] is None and over["timer"]["can_claim"] is False
    assert service.events_since(game_id, version - 1) == [
        {"version": version, "seat": present, "action": "claim", "by": None}
    ]
    # recorded as a win for the claimant, with the whole record now open
    record = service.record(game_id)
    assert record["claimed_by"] == present
    # nothing more happens
    clock.now += 100
    assert service.time_out(game_id) is None
    with pytest.raises(IllegalActionError) as late:
        service.act(game_id, tokens[absent], greedy_action(view["hand"]))
    assert late.value.code == "game/over"
    with pytest.raises(IllegalActionError):
        claim(present)
    # a new service (a restarted server) reads the claim from the log
    again = GameService(service.store, clock=clock)
    assert again.view(game_id, tokens[present]) == over


def test_claims_count_as_wins(db_url: str, clock: Clock) -> None:
    service = GameService(open_store(db_url), clock=clock)
    _, ann = service.create_player("Ann")
    _, bob = service.create_player("Bob")
    made = service.create_game(RULES, player_token=ann, turn_seconds=10)
    assert made.invite is not None
    friend = service.join(made.game_id, made.invite, player_token=bob)
    tokens = tokens_of(made, friend)
    absent = to_act(service, made.game_id)
    for _ in range(3):
        clock.now += 10
        service.time_out(made.game_id)
        play_own_turn(service, made.game_id, tokens)
    service.act(made.game_id, tokens[1 - absent], "claim")
    claimant = ann if 1 - absent == made.seat else bob
    loser = bob if claimant == ann else ann
    assert service.stats(claimant)["wins"] == 1 and service.stats(claimant)["games"] == 1
    assert service.stats(loser)["wins"] == 0 and service.stats(loser)["games"] == 1
    listed = service.games_of(loser)[0]
    assert listed["finished"] and listed["winner"] == 1 - absent
    assert listed["claimed_by"] == 1 - absent


def test_an_own_move_ends_the_run_of_timeouts(service: GameService, clock: Clock) -> None:
    made, friend = timed_game(service, seconds=10)
    tokens = tokens_of(made, friend)
    absent = to_act(service, made.game_id)
    for _ in range(2):
        clock.now += 10
        service.time_out(made.game_id)
        play_own_turn(service, made.game_id, tokens)
    assert service.view(made.game_id, None)["timer"]["timeouts"][absent] == 2
    play_own_turn(service, made.game_id, tokens)  # back in time for the third
    assert service.view(made.game_id, None)["timer"]["timeouts"][absent] == 0
    with pytest.raises(ServiceError):
        service.act(made.game_id, tokens[1 - absent], "claim")


def test_a_turn_half_played_then_timed_out_counts_once(service: GameService, clock: Clock) -> None:
    made, friend = timed_game(service, seconds=10)
    tokens = tokens_of(made, friend)
    # get past the upcard ritual: the turns are a draw and a discard from then on
    while len(service.view(made.game_id, None)["hand"]["history"]) < 4:
        play_own_turn(service, made.game_id, tokens)
    seat = to_act(service, made.game_id)
    view = service.view(made.game_id, tokens[seat])
    service.act(made.game_id, tokens[seat], greedy_action(view["hand"]))  # the draw, by hand
    assert to_act(service, made.game_id) == seat
    drawn = service.view(made.game_id, None)["version"]
    clock.now += 10
    assert service.time_out(made.game_id) is not None
    played = [e for e in service.events_since(made.game_id, drawn) if e["seat"] is not None]
    assert [e["by"] for e in played] == ["timer"]  # (then perhaps a deal)
    assert played[0]["action"].startswith("discard") or played[0]["action"].split()[0] in (
        "knock",
        "gin",
        "big-gin",
    )
    assert service.view(made.game_id, None)["timer"]["timeouts"][seat] == 1


def test_when_both_seats_are_away_the_timer_stops(service: GameService, clock: Clock) -> None:
    made, friend = timed_game(service, seconds=10)
    tokens = tokens_of(made, friend)
    fired = 0
    for _ in range(20):
        clock.now += 10
        if service.time_out(made.game_id) is None:
            break
        fired += 1
    timer = service.view(made.game_id, None)["timer"]
    assert min(timer["timeouts"]) == 3 and fired in (6, 7)  # 3 turns each (a hand may end)
    assert timer["deadline"] is None
    clock.now += 1000
    assert service.time_out(made.game_id) is None
    # whoever comes back first plays on (and, the other being away, may claim)
    play_own_turn(service, made.game_id, tokens)
    back = 1 - to_act(service, made.game_id)
    timer = service.view(made.game_id, tokens[back])["timer"]
    assert timer["deadline"] == clock.now + 10 and timer["can_claim"]


def test_two_servers_play_a_timed_out_turn_once(db_url: str, clock: Clock) -> None:
    first = GameService(open_store(db_url), clock=clock)
    second = GameService(open_store(db_url), clock=clock)
    made, _ = timed_game(first, seconds=10)
    second.view(made.game_id, None)  # both have the game in memory
    deadline = first.view(made.game_id, None)["timer"]["deadline"]
    clock.now += 10
    results = [first.time_out(made.game_id, deadline), second.time_out(made.game_id, deadline)]
    assert sum(r is not None for r in results) == 1
    moves = first.store.log(made.game_id)
    timer_moves = [m for m in moves if m[3] == "timer"]
    assert timer_moves and [v for v, *_ in moves] == list(range(1, len(moves) + 1))
    # the second, its copy old, finds the stored deadline moved and stays quiet after
    assert second.time_out(made.game_id) is None
    assert second.view(made.game_id, None) == first.view(made.game_id, None)


def test_a_deadline_survives_a_restart(db_url: str, clock: Clock) -> None:
    store = open_store(db_url)
    made, _ = timed_game(GameService(store, clock=clock), seconds=10)
    clock.now += 3600  # the server was down for an hour
    restarted = GameService(open_store(db_url), clock=clock)
    due = restarted.store.due_games(clock.now)
    assert made.game_id in dict(due)
    assert restarted.time_out(made.game_id, dict(due)[made.game_id]) is not None
    assert made.game_id not in dict(restarted.store.due_games(clock.now))


@pytest.mark.parametrize(
    "value", [0, 2, 601, 10**9, -5, 5.0, True, "30", [30]], ids=lambda v: repr(v)
)
def test_turn_seconds_out_of_range_are_refused(service: GameService, value: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        service.create_game(RULES, turn_seconds=value)
    assert refused.value.code == "service/bad-timer"
    assert "from 3 to 600" in refused.value.message


def test_turn_timers_are_for_games_between_people(service: GameService) -> None:
    with pytest.raises(ServiceError) as refused:
        service.create_game(RULES, ai_level="normal", turn_seconds=30)
    assert refused.value.code == "service/bad-timer"
    assert "between people" in refused.value.message


def test_claims_need_a_timer(service: GameService) -> None:
    made = service.create_game(RULES)
    assert made.invite is not None
    service.join(made.game_id, made.invite)
    with pytest.raises(ServiceError) as refused:
        service.act(made.game_id, made.token, "claim")
    assert refused.value.code == "service/cannot-claim"
    assert "turn timer" in refused.value.message
    ai = service.create_game(RULES, ai_level="easy")
    with pytest.raises(ServiceError):
        service.act(ai.game_id, ai.token, "claim")
    assert json.loads(service.view_text(made.game_id, None))["claimed_by"] is None
