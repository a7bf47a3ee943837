"""What the server answers outside the game itself, in process: a browser's page at an
address that leads nowhere (a small HTML page, programs still get the JSON error).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

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
