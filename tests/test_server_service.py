"""The game service over SQLite and PostgreSQL: play, resume, fairness, refusals.

PostgreSQL runs against ``GINRUMMY_PG_URL`` (default: the local server); each test session
creates and drops its own database. Without a reachable server those tests are skipped,
unless ``GINRUMMY_REQUIRE_PG=1`` (CI sets it) makes that an error.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import ginrummy
from ginrummy import record
from ginrummy.errors import IllegalActionError
from ginrummy.fairness import check_deal
from ginrummy.server.service import GameService, ServiceError
from ginrummy.server.store import open_store

RULES = dataclasses.replace(ginrummy.Rules.preset("classic"), target=30)


def play_randomly(service: GameService, game_id: str, tokens: dict[int, str], seed: int) -> int:
    """Random legal actions for the human seats until the game ends; returns the actions."""
    rng = random.Random(seed)
    count = 0
    while True:
        data = service.view(game_id, tokens[next(iter(tokens))])
        if data["is_over"]:
            return count
        to_act = data["hand"]["to_act"]
        assert to_act in tokens, "the service waits for a seat nobody plays"
        mine = service.view(game_id, tokens[to_act])["hand"]
        legal = mine["legal_actions"]
        enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
        service.act(game_id, tokens[to_act], rng.choice(enders or legal))
        count += 1
        # random play on fresh secret deals: most games end in a few hundred actions, a rare
        # one runs to thousands (void hands, the pile taken back and forth); none for ever
        assert count < 50_000


def test_game_against_the_ai_to_the_end(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, ai_level="easy", seat=1, name="Ann")
    assert ticket.seat == 1 and ticket.invite is None
    actions = play_randomly(service, ticket.game_id, {1: ticket.token}, seed=1)
    assert actions >= 1  # deals are random (fresh secret seeds): the length varies
    data = service.view(ticket.game_id, ticket.token)
    assert data["is_over"] and data["outcome"]["winner"] in (0, 1)
    assert data["names"] == ["AI (easy)", "Ann"]
    # the finished game's record replays and every deal is proven fair
    full = service.record(ticket.game_id)
    rec = record.loads(json.dumps(full))
    for hand in rec.hands:
        assert hand.seed is not None and hand.commitment is not None
        assert check_deal(hand.commitment, hand.seed, hand.deck) == []
    assert [f["seed"] for f in data["fairness"]] == [h.seed for h in rec.hands]


def test_two_people_by_invite(db_url: str) -> None:
    service = GameService(open_store(db_url))
    first = service.create_game(RULES, seat=0, name="Ann")
    assert first.invite is not None
    with pytest.raises(ServiceError, match="wrong invite"):
        service.join(first.game_id, "not-the-invite")
    second = service.join(first.game_id, first.invite, name="Bob")
    assert second.seat == 1
    with pytest.raises(ServiceError, match="already has two players"):
        service.join(first.game_id, first.invite)
    play_randomly(service, first.game_id, {0: first.token, 1: second.token}, seed=2)
    assert service.view(first.game_id, None)["is_over"]


def test_restart_resumes_exactly(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, ai_level="normal", seat=0)
    rng = random.Random(3)
    for _ in range(7):
        data = service.view(ticket.game_id, ticket.token)
        if data["is_over"]:  # fresh random deals: a short game can end this soon
            break
        service.act(ticket.game_id, ticket.token, rng.choice(data["hand"]["legal_actions"]))
    before = service.view(ticket.game_id, ticket.token)
    restarted = GameService(open_store(db_url))  # a new process on the same database
    assert restarted.view(ticket.game_id, ticket.token) == before
    play_randomly(restarted, ticket.game_id, {0: ticket.token}, seed=4)


def test_views_hide_the_other_seat_and_unrevealed_seeds(db_url: str) -> None:
    service = GameService(open_store(db_url))
    first = service.create_game(RULES, seat=0)
    assert first.invite is not None
    second = service.join(first.game_id, first.invite)
    game = service._load(first.game_id).state  # the test may look; players may not
    hand = game.hand
    assert hand is not None
    for seat, token in ((0, first.token), (1, second.token), (None, None)):
        text = json.dumps(service.view(first.game_id, token))
        hidden = [hand.hand(1 - seat)] if seat is not None else [hand.hand(0), hand.hand(1)]
        for cards in hidden:
            for card in cards:
                assert f'"{card}"' not in text
        for card in hand.stock:
            assert f'"{card}"' not in text
        data = json.loads(text)
        assert data["fairness"][0]["seed"] is None and len(data["fairness"][0]["commitment"]) == 64


def test_refusals_change_nothing(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ticket = service.create_game(RULES, ai_level="easy", seat=0)
    before = service.view(ticket.game_id, ticket.token)
    bad: list[tuple[str | None, str, type[Exception]]] = [
        (ticket.token, "discard Zz", ginrummy.IllegalActionError),
        (ticket.token, "knock As", ginrummy.IllegalActionError),
        (None, "stock", ServiceError),
        ("wrong-token", "stock", ServiceError),
    ]
    for token, action, error in bad:
        with pytest.raises(error):
            service.act(ticket.game_id, token, action)
        assert service.view(ticket.game_id, ticket.token) == before
    with pytest.raises(ServiceError, match="no game"):
        service.view("nope", None)
    with pytest.raises(ServiceError, match="not over"):
        service.record(ticket.game_id)
    with pytest.raises(ValueError, match="unknown AI level"):
        service.create_game(RULES, ai_level="genius")


def test_two_servers_racing_do_not_fork_a_game(db_url: str) -> None:
    store_url = db_url
    one = GameService(open_store(store_url))
    ticket = one.create_game(RULES, seat=0)
    assert ticket.invite is not None
    other_ticket = one.join(ticket.game_id, ticket.invite)
    two = GameService(open_store(store_url))
    tokens = {0: ticket.token, 1: other_ticket.token}
    data: dict[str, Any] = two.view(ticket.game_id, None)  # two loads the game now
    seat = data["hand"]["to_act"]
    action = one.view(ticket.game_id, tokens[seat])["hand"]["legal_actions"][0]
    version = data["version"]
    one.act(ticket.game_id, tokens[seat], action)
    # two's copy is stale: its write loses the race, it reads the game again and tries once
    # more there, where the same move no longer fits (the seat already made it)
    with pytest.raises(IllegalActionError):
        two.act(ticket.game_id, tokens[seat], action)
    with pytest.raises(ServiceError) as caught:  # made at the old version: stale
        two.act(ticket.game_id, tokens[seat], action, version=version)
    assert caught.value.code == "service/stale"
    assert two.view(ticket.game_id, None) == one.view(ticket.game_id, None)
    versions = [v for v, _, _ in one.store.moves(ticket.game_id)]
    assert versions == list(range(1, len(versions) + 1))  # one story: no fork


def test_players_list_and_resume_their_games_and_get_statistics(db_url: str) -> None:
    service = GameService(open_store(db_url))
    ann_id, ann = service.create_player("Ann")
    _, bob = service.create_player("Bob")
    against_ai = service.create_game(RULES, ai_level="easy", seat=0, player_token=ann)
    between = service.create_game(RULES, seat=1, player_token=ann)
    assert between.invite is not None
    service.join(between.game_id, between.invite, player_token=bob)
    games = service.games_of(ann)
    assert [g["game_id"] for g in games] == [against_ai.game_id, between.game_id]
    assert [g["seat"] for g in games] == [0, 1]
    assert games[0]["names"] == ["Ann", "AI (easy)"] and not games[0]["finished"]
    # the player's own token opens their seat in every game (resume from anywhere)
    assert service.seat_of(between.game_id, ann) == 1
    assert service.seat_of(between.game_id, bob) == 0
    play_randomly(service, against_ai.game_id, {0: ann}, seed=7)
    stats = service.stats(ann)
    game = service._load(against_ai.game_id).state
    assert stats["player_id"] == ann_id and stats["name"] == "Ann"
    assert stats["games"] == 1 and stats["wins"] == int(game.outcome.winner == 0)  # type: ignore[union-attr]
    assert stats["points"] == game.points[0]
    my = [r for r in game.results if r.knocker == 0 and r.kind in ("knock", "undercut")]
    assert stats["knocks"] == len(my)
    if my:
        assert stats["average_deadwood_at_knock"] == sum(r.deadwood[0] for r in my) / len(my)
    assert service.games_of(ann)[0]["finished"]
    with pytest.raises(ServiceError, match="unknown player"):
        service.stats("not-a-player")


def test_own_arrangement_hint_and_finished_hand_records() -> None:
    service = GameService(open_store("sqlite://"))
    for _ in range(5):  # (a first hand the AI took the upcard and knocked in is over already)
        ticket = service.create_game(RULES, ai_level="normal", seat=0, name="Ann")
        gid, token = ticket.game_id, ticket.token
        data = service.view(gid, token)
        if not data["results"]:
            break
    hand = data["hand"]
    assert data["ai_level"] == "normal"
    # the seat's own arrangement: its cards exactly, split into melds and deadwood
    arrangement = hand["arrangement"]
    split = [c for m in arrangement["melds"] for c in m] + arrangement["deadwood"]
    assert sorted(split) == sorted(hand["hand"])
    cards = ginrummy.parse_cards(" ".join(hand["hand"]))
    assert arrangement["deadwood_points"] == ginrummy.deadwood_points(cards)
    assert "arrangement" not in service.view(gid, None)["hand"]  # a spectator has no hand
    # hints: on the seat's turn only, for its player only
    with pytest.raises(ServiceError) as refused:
        service.hint(gid, None)
    assert refused.value.code == "service/not-a-player"
    if hand["to_act"] == 0:
        advice = service.hint(gid, token)
        assert advice["action"] in hand["legal_actions"] and advice["reason"]
    # a finished hand's record only once it is over
    with pytest.raises(ServiceError) as early:
        service.hand_record(gid, 1)
    assert early.value.code == "service/not-over"
    rng = random.Random(3)
    while not service.view(gid, token)["results"]:
        legal = service.view(gid, token)["hand"]["legal_actions"]
        assert legal, "the AI answers at once: the seat is to act again"
        if len(service.view(gid, token)["hand"]["hand"]) == 11:
            # an 11-card hand also says the least deadwood a discard leaves
            eleven = service.view(gid, token)["hand"]["arrangement"]
            parsed = ginrummy.parse_cards(" ".join(service.view(gid, token)["hand"]["hand"]))
            assert (
                eleven["deadwood_after_discard"] == ginrummy.best_discard(parsed)[1].deadwood_points
            )
        enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
        service.act(gid, token, rng.choice(enders or legal))
    first = service.hand_record(gid, 1)
    seeds = service.view(gid, token)["fairness"]
    assert first["seed"] == seeds[0]["seed"] and first["commitment"] == seeds[0]["commitment"]
    assert check_deal(first["commitment"], first["seed"], ginrummy.parse_cards(first["deck"])) == []
    if len(service.view(gid, token)["results"]) == 1:  # (unless the AI ended it at once)
        with pytest.raises(ServiceError):
            service.hand_record(gid, 2)  # the second hand is in play


def test_no_hints_between_people() -> None:
    service = GameService(open_store("sqlite://"))
    ticket = service.create_game(RULES, seat=0, name="Ann")
    with pytest.raises(ServiceError) as refused:
        service.hint(ticket.game_id, ticket.token)
    assert refused.value.code == "service/no-hint"


def test_the_host_opening_their_own_invite_keeps_the_friends_seat() -> None:
    service = GameService(open_store("sqlite://"))
    _, host = service.create_player("Ann")
    ticket = service.create_game(RULES, seat=0, player_token=host)
    assert ticket.invite is not None
    with pytest.raises(ServiceError) as refused:
        service.join(ticket.game_id, ticket.invite, player_token=host)
    assert refused.value.code == "service/already-seated"
    _, friend = service.create_player("Bob")
    joined = service.join(ticket.game_id, ticket.invite, player_token=friend)
    assert joined.seat == 1
    assert service.view(ticket.game_id, friend)["names"] == ["Ann", "Bob"]


def test_a_copy_that_missed_news_is_refreshed_from_the_store(db_url: str) -> None:
    """Two server processes on one database; the second never hears of the first's moves
    (Redis away). ``refresh`` (what a sync and a new connection do) reads the store's newest
    version and drops the old copy; ``note_version`` drops an older copy too."""
    first, second = GameService(open_store(db_url)), GameService(open_store(db_url))
    made = first.create_game(RULES)
    assert made.invite is not None
    friend = first.join(made.game_id, made.invite)
    tokens = {made.seat: made.token, friend.seat: friend.token}

    def move() -> None:
        seat = first.view(made.game_id, None)["hand"]["to_act"]
        legal = first.view(made.game_id, tokens[seat])["hand"]["legal_actions"]
        first.act(made.game_id, tokens[seat], legal[0])

    before = second.view(made.game_id, None)["version"]  # the second's copy
    move()
    assert second.view(made.game_id, None)["version"] == before  # it did not hear
    second.refresh(made.game_id)
    assert second.view(made.game_id, None)["version"] == before + 1
    second.refresh(made.game_id)  # nothing newer: the copy stays
    assert second.cached_games == 1
    move()
    second.note_version(made.game_id, before + 1)  # not older than its copy: kept
    assert second.view(made.game_id, None)["version"] == before + 1
    second.note_version(made.game_id, before + 2)
    assert second.view(made.game_id, None)["version"] == before + 2


def test_a_view_says_whether_the_invited_seat_is_free(db_url: str) -> None:
    service = GameService(open_store(db_url))
    first = service.create_game(RULES, seat=0, name="Ann")
    assert first.invite is not None
    assert service.view(first.game_id, None)["seat_free"] is True
    assert service.state_view(first.game_id, None)["seat_free"] is True
    second = service.join(first.game_id, first.invite, name="Bob")
    for token in (None, first.token, second.token):
        assert service.view(first.game_id, token)["seat_free"] is False
    assert service.state_view(first.game_id, None)["seat_free"] is False
    against_ai = service.create_game(RULES, ai_level="easy", seat=0)
    assert service.view(against_ai.game_id, None)["seat_free"] is False
