"""What the server answers outside the game itself, in process: a browser's page at an
address that leads nowhere (a small HTML page, programs still get the JSON error); the
player's game list with the final score of a finished game (its grand totals).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ginrummy
from ginrummy.server.app import create_app
from ginrummy.server.limits import Limits
from ginrummy.server.security import CONTENT_SECURITY_POLICY
from ginrummy.server.service import GameService
from ginrummy.server.store import open_store

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
"""The Accept header Chromium sends when a person opens an address."""

NOT_FOUND_JSON = {"detail": {"code": "http/not-found", "message": "Not Found"}}

NOWHERE = ["/nonexistent", "/game", "/foo/bar", "/game/", "/history/old"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    service = GameService(open_store(str(tmp_path / "games.db")))
    app = create_app(
        service, Limits().unlimited_rates(), allowed_hosts=["*"], settle_on_start=False
    )
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


@pytest.mark.parametrize("path", NOWHERE)
def test_a_browser_at_an_address_that_leads_nowhere_gets_a_page(
    client: TestClient, path: str
) -> None:
    r = client.get(path, headers={"Accept": BROWSER})
    assert r.status_code == 404
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert r.headers["vary"] == "Accept"
    page = r.text
    assert "<title>Gin Rummy: no such page</title>" in page
    assert '<h1 id="not-found-title">No such page</h1>' in page
    assert (
        '<p id="not-found-text">There is nothing at this address. Check that the link was'
        " copied whole, or start again from the lobby.</p>"
    ) in page
    assert '<a href="/" id="not-found-lobby" class="button primary">Back to the lobby</a>' in page
    # within the Content-Security-Policy: no script at all, no inline style, only the
    # table's own stylesheet (which is there)
    assert "<script" not in page and "style=" not in page and "<style" not in page
    assert '<link rel="stylesheet" href="/static/style.css">' in page
    assert client.get("/static/style.css").status_code == 200
    assert path not in page.replace('href="/"', "")  # the address is not echoed


@pytest.mark.parametrize("path", NOWHERE)
@pytest.mark.parametrize(
    "accept", [None, "application/json", "*/*"], ids=["no-accept", "json", "anything"]
)
def test_a_program_at_an_address_that_leads_nowhere_still_gets_the_json_error(
    client: TestClient, path: str, accept: str | None
) -> None:
    headers: dict[str, Any] = {} if accept is None else {"Accept": accept}
    if accept is None:
        client.headers.pop("accept", None)  # TestClient sends */* by default
    r = client.get(path, headers=headers)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    assert r.json() == NOT_FOUND_JSON


@pytest.mark.parametrize(
    "path",
    ["/api/nope", "/api", "/api/games/" + "0" * 32, "/static/nope.css", "/ws/games/x"],
)
def test_the_api_files_and_sockets_answer_json_even_to_a_browser(
    client: TestClient, path: str
) -> None:
    r = client.get(path, headers={"Accept": BROWSER})
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    code = r.json()["detail"]["code"]
    assert code == ("service/no-game" if path.startswith("/api/games/") else "http/not-found")


def test_only_a_page_request_gets_the_page(client: TestClient) -> None:
    # a form posted to nowhere is no page request: the JSON error, as before
    r = client.post("/nonexistent", headers={"Accept": BROWSER})
    assert r.status_code == 404 and r.json() == NOT_FOUND_JSON
    # the table's own addresses are still the table
    for path in ("/", "/history", "/game/" + "0" * 32):
        r = client.get(path, headers={"Accept": BROWSER})
        assert r.status_code == 200 and 'src="/static/app.js"' in r.text, path


# --- the player's game list: the final score with the bonuses ----------------------------------

SHORT = dataclasses.replace(ginrummy.Rules.preset("tournament"), target=30)


def play_to_the_end(service: GameService, game_id: str, token: str, seed: int) -> None:
    """Random legal moves for the person's seat (ending a hand whenever it may) until the
    game against the AI is over."""
    rng = random.Random(seed)
    for _ in range(20_000):
        view = service.view(game_id, token)
        if view["is_over"]:
            return
        legal = view["hand"]["legal_actions"]
        enders = [a for a in legal if a.split()[0] in ("knock", "gin", "big-gin")]
        service.act(game_id, token, rng.choice(enders or legal))
    raise AssertionError("the game did not end")


def finished_game(db: str) -> tuple[str, str, dict[str, Any]]:
    """A player's token, and a game of theirs against the AI played to the end (its id and
    its final view)."""
    service = GameService(open_store(db))
    _, token = service.create_player("Ann")
    ticket = service.create_game(SHORT, ai_level="easy", seat=0, player_token=token)
    play_to_the_end(service, ticket.game_id, ticket.token, seed=3)
    return token, ticket.game_id, service.view(ticket.game_id, ticket.token)


def test_the_game_list_has_the_grand_totals_of_a_finished_game(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    token, game_id, view = finished_game(db)
    service = GameService(open_store(db))
    open_game = service.create_game(SHORT, ai_level="easy", seat=1, player_token=token)
    done, playing = service.games_of(token)
    assert done["game_id"] == game_id and playing["game_id"] == open_game.game_id
    outcome = view["outcome"]
    assert done["grand_totals"] == outcome["grand_totals"]
    # what the end-of-game dialog adds up: hand points, line and game bonuses
    for seat in (0, 1):
        parts = outcome["hand_points"][seat] + outcome["line_bonuses"][seat]
        assert done["grand_totals"][seat] == parts + outcome["game_bonuses"][seat]
    assert done["grand_totals"] != done["points"]  # the bonuses: the winner's game bonus
    assert playing["grand_totals"] is None and not playing["finished"]
    # the fields outside tests rely on are all still there, as they were
    stable = {"game_id", "seat", "names", "rules", "ai_level", "seat_free", "points"}
    stable |= {"hands_won", "finished", "winner", "claimed_by", "version"}
    assert stable | {"grand_totals"} == set(done) == set(playing)
    assert done["points"] == view["points"] and done["winner"] == outcome["winner"]
    # and over HTTP, as the history page reads it
    app = create_app(
        service, Limits().unlimited_rates(), allowed_hosts=["*"], settle_on_start=False
    )
    with TestClient(app, base_url="http://127.0.0.1") as client:
        r = client.get("/api/players/me/games", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    assert [g["grand_totals"] for g in r.json()] == [outcome["grand_totals"], None]
