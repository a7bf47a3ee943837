"""The game service: the only authority over games, above the store and below any transport.

* A game is created against an AI (level, seat) or for two people (an invite token for the
  second seat). Each seat holds a secret token; the store keeps only its SHA-256 hash.
  Whoever has no seat's token is a spectator and sees only the public view.
* Every accepted action is stored (with the AI's replies and any new deal) in one transaction
  before :meth:`GameService.act` returns, so nobody is told of a move that could be lost.
* Each hand is dealt from a fresh secret seed whose commitment is stored with the deal and
  shown to both seats at once; the seed itself is shown only when the hand is over.
* The AI plays through :func:`ginrummy.ai.player` with its seat's view, like a person would.
* Games are rebuilt from the move log on first use, so a restarted service (or a second one
  on the same database) resumes every game exactly where the log ends.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..ai import hint, player
from ..engine.game import GameState, cut_for_deal
from ..errors import GinRummyError, IllegalActionError
from ..fairness import commitment, new_seed
from ..melds import arrange_mask, best_discard_mask
from ..rules import Rules
from ..views import GameView
from .store import GameRow, Store


class ServiceError(GinRummyError):
    """A request the service refuses (unknown game, wrong token, ...); nothing changed."""

    code = "service/error"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatTicket:
    """What a player keeps: the game, their seat and its secret token."""

    game_id: str
    seat: int
    token: str
    invite: str | None = None
    """For a game between people: the token the second player joins with."""


@dataclass(slots=True)
class _Live:
    """A game in memory: its state, version, seeds and the AI (if any)."""

    row: GameRow
    state: GameState
    version: int
    seeds: list[str]
    commitments: list[str]


class GameService:
    """Creates games, applies actions, and gives each seat its own view."""

    def __init__(self, store: Store, clock: Any = time.time) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[str, _Live] = {}
        self._players: dict[str, str] = {}
        """Player token hash -> player id, for the tokens seen so far."""
        self._lock = threading.Lock()

    # --- creating and joining -------------------------------------------------------------

    def create_game(
        self,
        rules: Rules,
        *,
        ai_level: str | None = None,
        seat: int = 0,
        name: str | None = None,
        player_token: str | None = None,
    ) -> SeatTicket:
        """A new game: against ``ai_level`` (the person at ``seat``) or, with no level, for two
        people (the creator at ``seat``; the other joins with the ticket's invite)."""
        if seat not in (0, 1):
            raise ServiceError("seat must be 0 or 1", "service/bad-seat")
        if ai_level is not None:
            player(ai_level)  # unknown levels fail here, before anything is stored
        owner = self._player(player_token) if player_token else None
        if owner is not None and name is None:
            name = owner[1]
        game_id = secrets.token_hex(16)
        token = secrets.token_urlsafe(24)
        invite = None if ai_level is not None else secrets.token_urlsafe(24)
        tokens: list[str | None] = [None, None]
        tokens[seat] = _hash(token)
        names: list[str | None] = [None, None]
        names[seat] = name
        if ai_level is not None:
            names[1 - seat] = f"AI ({ai_level})"
        row = GameRow(
            id=game_id,
            rules=rules.to_dict(),
            first_dealer=cut_for_deal(game_id),
            ai_level=ai_level,
            ai_seat=None if ai_level is None else 1 - seat,
            tokens=(tokens[0], tokens[1]),
            invite=None if invite is None else _hash(invite),
            names=(names[0], names[1]),
            finished=False,
            players=(
                owner[0] if owner is not None and seat == 0 else None,
                owner[0] if owner is not None and seat == 1 else None,
            ),
        )
        with self._lock:
            self.store.add_game(row, self.clock())
            live = _Live(row, GameState.new(rules, row.first_dealer), 0, [], [])
            self._live[game_id] = live
            self._advance(live)
        return SeatTicket(game_id, seat, token, invite)

    def join(
        self,
        game_id: str,
        invite: str,
        name: str | None = None,
        player_token: str | None = None,
    ) -> SeatTicket:
        """Take the free seat of a game between people with its invite token."""
        owner = self._player(player_token) if player_token else None
        if owner is not None and name is None:
            name = owner[1]
        with self._lock:
            live = self._load(game_id)
            row = live.row
            if row.invite is None or not secrets.compare_digest(row.invite, _hash(invite)):
                raise ServiceError("wrong invite for this game", "service/bad-invite")
            if owner is not None and owner[0] in row.players:
                # the host opening their own link must not take the friend's seat
                raise ServiceError("you already sit at this game", "service/already-seated")
            free = [s for s in (0, 1) if row.tokens[s] is None]
            if not free:
                raise ServiceError("this game already has two players", "service/full")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            owner_id = None if owner is None else owner[0]
            if not self.store.set_seat(game_id, seat, _hash(token), name, owner_id):
                raise ServiceError("this game already has two players", "service/full")
            self._live.pop(game_id, None)  # reload the row with the new seat
        return SeatTicket(game_id, seat, token)

    # --- reading --------------------------------------------------------------------------

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token holds in a game, or ``None`` (a spectator)."""
        with self._lock:
            return self._seat(self._load(game_id), token)

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as the token's seat (or a spectator) may see it, as plain JSON data."""
        with self._lock:
            live = self._load(game_id)
            return self._view_dict(live, self._seat(live, token))

    def view_for_seat(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """:meth:`view` for a seat already authenticated (by a connection's token)."""
        with self._lock:
            return self._view_dict(self._load(game_id), seat)

    def _view_dict(self, live: _Live, seat: int | None) -> dict[str, Any]:
        view: GameView = live.state.view(seat)
        data = view.to_dict()
        finished = len(live.state.finished_hands)
        data["version"] = live.version
        data["game_id"] = live.row.id
        data["names"] = list(live.row.names)
        data["ai_level"] = live.row.ai_level
        data["fairness"] = [
            {
                "hand": number,
                "commitment": live.commitments[number - 1],
                # a seed is revealed only once its hand is over
                "seed": live.seeds[number - 1] if number <= finished else None,
            }
            for number in range(1, len(live.commitments) + 1)
        ]
        state = live.state.hand
        if seat is not None and state is not None and not state.is_over:
            data["hand"]["arrangement"] = _own_arrangement(state.hand_mask(seat))
        return data

    def hint(self, game_id: str, token: str | None) -> dict[str, str]:
        """The AI's advice for the token's seat: ``{"action", "reason"}``
        (:func:`ginrummy.ai.hint`). Only in games against the AI (between people it would
        be a third player at the table), and only when the seat is to act."""
        with self._lock:
            live = self._load(game_id)
            seat = self._seat(live, token)
            if seat is None:
                raise ServiceError("hints are for a seat's player", "service/not-a-player")
            if live.row.ai_level is None:
                raise ServiceError(
                    "hints are only given in games against the AI", "service/no-hint"
                )
            state = live.state
            if state.is_over or state.hand is None or state.to_act != seat:
                raise ServiceError("it is not your turn", "service/no-hint")
            view = state.hand.view(seat)
        return hint(view, f"{game_id}/{live.version}").to_dict()

    def hand_record(self, game_id: str, number: int) -> dict[str, Any]:
        """The record of hand ``number`` (1-based) once it is over: dealer, deck, seed,
        commitment, every action and the result, as in :mod:`ginrummy.record`. Everything it
        shows follows from the seed, which the view reveals at the same moment; a browser
        checks the deal with it (``docs/fairness.md``)."""
        from ..record import record_of

        with self._lock:
            live = self._load(game_id)
            finished = len(live.state.finished_hands)
            if not 1 <= number <= finished:
                raise ServiceError(
                    f"hand {number} is not over (hands over: {finished})", "service/not-over"
                )
            hands = record_of(live.state).to_dict()["hands"]
        return dict(hands[number - 1])

    def events_since(self, game_id: str, since: int) -> list[dict[str, Any]]:
        """Moves after version ``since``: ``{"version", "seat", "action"}``. Public as they
        are: an action's text never names a hidden card (a stock draw is just ``stock``), and
        a ``deal`` carries no card; cards reach a seat only through its view."""
        with self._lock:
            self._load(game_id)
            return [
                {"version": v, "seat": seat, "action": action}
                for v, seat, action in self.store.moves(game_id)
                if v > since
            ]

    def record(self, game_id: str) -> dict[str, Any]:
        """The full record of a finished game (every card), as in :mod:`ginrummy.record`."""
        from ..record import record_of

        with self._lock:
            live = self._load(game_id)
            if not live.state.is_over:
                raise ServiceError(
                    "the game is not over: its record would show hidden cards", "service/not-over"
                )
            return record_of(live.state).to_dict()

    # --- acting ---------------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, action: str) -> int:
        """Apply ``action`` for the token's seat, then the AI's replies and any new deal; all
        are stored before this returns the new version. An illegal action raises
        :class:`~ginrummy.errors.IllegalActionError` and changes nothing."""
        with self._lock:
            seat = self._seat(self._load(game_id), token)
        if seat is None:
            raise ServiceError(
                "spectators cannot act; a seat's token is needed", "service/not-a-player"
            )
        return self.act_for_seat(game_id, seat, action)

    def act_for_seat(self, game_id: str, seat: int, action: str) -> int:
        """:meth:`act` for a seat already authenticated (by a connection's token)."""
        with self._lock:
            live = self._load(game_id)
            if live.state.is_over:
                raise IllegalActionError("the game is over", code="game/over")
            state = live.state.apply(action, seat)  # raises without side effects
            self._commit(live, state, [(seat, action)])
            self._advance(live)
            return live.version

    def _advance(self, live: _Live) -> None:
        """Deal when a hand is needed and play the AI's turns, storing each step."""
        for _ in range(10_000):
            state = live.state
            if state.is_over:
                return
            if state.needs_deal:
                seed = new_seed()
                dealt = state.deal_seeded(seed)
                hand = dealt.hand_number
                self._commit(live, dealt, [(None, "deal")], (hand, seed, commitment(seed)))
                continue
            ai_seat = live.row.ai_seat
            if ai_seat is None or state.to_act != ai_seat:
                return
            hand_state = state.hand
            assert hand_state is not None and live.row.ai_level is not None
            bot = player(live.row.ai_level, f"{live.row.id}/{live.version}")
            action = bot.choose(hand_state.view(ai_seat))
            self._commit(live, state.apply(action, ai_seat), [(ai_seat, action)])
        raise RuntimeError("the AI did not finish its turns")  # pragma: no cover

    def _commit(
        self,
        live: _Live,
        state: GameState,
        entries: list[tuple[int | None, str]],
        deal: tuple[int, str, str] | None = None,
    ) -> None:
        try:
            self.store.append(
                live.row.id, live.version, entries, self.clock(), deal, finished=state.is_over
            )
        except IntegrityError:
            # another server wrote first: forget our copy, the caller retries on fresh state
            self._live.pop(live.row.id, None)
            raise ServiceError(
                "the game changed meanwhile; try again", "service/conflict"
            ) from None
        live.state = state
        live.version += len(entries)
        if deal is not None:
            live.seeds.append(deal[1])
            live.commitments.append(deal[2])

    # --- loading --------------------------------------------------------------------------

    def _seat(self, live: _Live, token: str | None) -> int | None:
        """The seat a seat token, or the token of the player holding a seat, stands for."""
        if not token:
            return None
        digest = _hash(token)
        for seat in (0, 1):
            stored = live.row.tokens[seat]
            if stored is not None and secrets.compare_digest(stored, digest):
                return seat
        owner = self._player_by_hash(digest)
        if owner is not None:
            for seat in (0, 1):
                if live.row.players[seat] == owner:
                    return seat
        return None

    def _player_by_hash(self, digest: str) -> str | None:
        if digest not in self._players:
            found = self.store.player_by_token(digest)
            if found is None:
                return None  # unknown tokens are not cached: they may be seat tokens
            self._players[digest] = found[0]
        return self._players[digest]

    def _player(self, token: str | None) -> tuple[str, str | None]:
        found = self.store.player_by_token(_hash(token)) if token else None
        if found is None:
            raise ServiceError("unknown player token", "service/bad-player")
        return found

    # --- players --------------------------------------------------------------------------

    def create_player(self, name: str | None = None) -> tuple[str, str]:
        """A new player: ``(player id, player token)``. The token stands for the player in
        every game they create or join with it, so they can list and resume them."""
        player_id = secrets.token_hex(16)
        token = secrets.token_urlsafe(24)
        self.store.add_player(player_id, name, _hash(token), self.clock())
        return player_id, token

    def games_of(self, player_token: str) -> list[dict[str, Any]]:
        """The player's games, oldest first: open ones and finished ones, with the scores."""
        player_id, _ = self._player(player_token)
        out = []
        with self._lock:
            for game_id in self.store.games_of(player_id):
                live = self._load(game_id)
                seat = 0 if live.row.players[0] == player_id else 1
                state = live.state
                outcome = state.outcome
                out.append(
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "names": list(live.row.names),
                        "rules": state.rules.name,
                        "ai_level": live.row.ai_level,
                        "points": list(state.points),
                        "hands_won": list(state.hands_won),
                        "finished": state.is_over,
                        "winner": None if outcome is None else outcome.winner,
                        "version": live.version,
                    }
                )
        return out

    def stats(self, player_token: str) -> dict[str, Any]:
        """The player's statistics over finished games: games, wins, points, gins, undercuts,
        knocks and average deadwood at knock."""
        player_id, name = self._player(player_token)
        games = wins = drawn = points = gins = undercuts = knocks = 0
        knock_deadwood = 0
        with self._lock:
            for game_id in self.store.games_of(player_id):
                live = self._load(game_id)
                state = live.state
                if not state.is_over or state.outcome is None:
                    continue
                seat = 0 if live.row.players[0] == player_id else 1
                games += 1
                wins += state.outcome.winner == seat
                drawn += state.outcome.winner is None
                points += state.points[seat]
                for result in state.results:
                    if result.knocker == seat and result.kind in ("gin", "big-gin"):
                        gins += 1
                    if result.kind == "undercut" and result.winner == seat:
                        undercuts += 1
                    if result.knocker == seat and result.kind in ("knock", "undercut"):
                        knocks += 1
                        knock_deadwood += result.deadwood[seat]
        return {
            "player_id": player_id,
            "name": name,
            "games": games,
            "wins": wins,
            "drawn": drawn,
            "points": points,
            "gins": gins,
            "undercuts": undercuts,
            "knocks": knocks,
            "average_deadwood_at_knock": knock_deadwood / knocks if knocks else None,
        }

    def _load(self, game_id: str) -> _Live:
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = self.store.game(game_id)
        if row is None:
            raise ServiceError(f"no game {game_id!r}", "service/no-game")
        rules = Rules.from_dict(row.rules)
        state = GameState.new(rules, row.first_dealer)
        deals = self.store.deals(game_id)
        seeds = [seed for _, seed, _ in deals]
        commitments = [c for _, _, c in deals]
        log = self.store.moves(game_id)
        for _, seat, action in log:
            if action == "deal":
                state = state.deal_seeded(seeds[state.hand_number])
            else:
                state = state.apply(action, seat)
        version = log[-1][0] if log else 0
        live = _Live(row, state, version, seeds, commitments)
        self._live[game_id] = live
        return live


def _own_arrangement(mask: int) -> dict[str, Any]:
    """A seat's own hand split into melds and deadwood (what the table outlines), with, for
    an 11-card hand, the least deadwood a discard leaves."""
    arrangement = arrange_mask(mask).to_dict()
    if mask.bit_count() == 11:
        arrangement["deadwood_after_discard"] = best_discard_mask(mask)[0]
    return arrangement
