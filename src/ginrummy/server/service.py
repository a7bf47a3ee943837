"""The game service: the only authority over games, above the store and below any transport.

* A game is created against an AI (level, seat) or for two people (an invite token for the
  second seat). Each seat holds a secret token; the store keeps only its SHA-256 hash.
  Whoever has no seat's token is a spectator and sees only the public view.
* **One request, one transaction.** Whatever a request makes happen is stored together or
  not at all: a person's action with the AI's replies and any new deal; a new game with its
  first deal (and the AI's opening moves). Nobody is told of a move before it is stored.
* **Nothing owed is left undone.** A step that belongs to the server (a deal, the AI's turn)
  is found whenever a game is loaded, and by :meth:`GameService.settle_all` at start, and
  done then, so a crash or a database fault between steps (or a database written by an
  older version, which stored each step on its own) can never leave a game waiting for ever.
* **Transient database faults** (a lost connection, a server restarting) are retried: a write
  whose outcome is unknown is checked against the log before it is tried again, so it is
  stored exactly once; when the database stays unreachable the request is refused with the
  retryable code ``service/unavailable`` and nothing is half-written.
* **Versions.** Every stored move has a version, one more than the last; an action may name
  the version it was made against and is refused (``service/stale``) if the game has moved.
* Each hand is dealt from a fresh secret seed whose commitment is stored with the deal and
  shown to both seats at once; the seed itself is shown only when the hand is over.
* The AI plays through :func:`ginrummy.ai.player` with its seat's view, like a person would.
* Games are rebuilt from the move log on first use and kept in a bounded cache (least
  recently used out); each game has its own lock, so a busy game never slows another.
* **Turn timers.** A game between people may have ``turn_seconds``: after each move the
  stored deadline is set for the seat to act, and :meth:`GameService.time_out` (called by the
  server's timer task, :mod:`.timers`, in whichever process finds the deadline passed) plays
  that seat's turn with the ``normal`` AI, stored like any move and marked ``timer``; the
  version check makes it happen once however many processes try. After three timed-out
  turns in a row the opponent may ``claim`` the game (a win for the claimant). The rules
  are in ``docs/protocol.md`` ("Turn timers and claims").
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError

from ..ai import hint, player
from ..engine.game import GameState, cut_for_deal
from ..errors import GinRummyError, IllegalActionError
from ..fairness import commitment, new_seed
from ..melds import arrange_mask, best_discard_mask
from ..rules import Rules
from ..views import event_dict, view_of
from .store import KEEP, Entry, GameRow, Store, is_transient

T = TypeVar("T")

GAME_ID = re.compile(r"[0-9a-f]{32}")
"""What a game id looks like (anything else is no game, without asking the database)."""
MAX_NAME = 40
"""Longest player name, in characters."""
TURN_SECONDS = (3, 600)
"""The turn timers allowed, in seconds (least, most); none is the default."""
CLAIM_AFTER = 3
"""Timed-out turns in a row after which the opponent may claim the game."""
TIMER = "timer"
"""``played_by`` of a move the turn timer played."""
TIMER_LEVEL = "normal"
"""The AI level that plays a timed-out turn."""


class ServiceError(GinRummyError):
    """A request the service refuses (unknown game, wrong token, ...); nothing changed."""

    code = "service/error"


def _hash(token: str) -> str:
    # surrogatepass: a token with a lone surrogate is just a wrong token, not a crash
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str | None) -> str | None:
    """A player's name as given, or a :class:`ServiceError` saying what is wrong with it."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise ServiceError("a name is text", "service/bad-name")
    if len(name) > MAX_NAME:
        raise ServiceError(f"a name is at most {MAX_NAME} characters", "service/bad-name")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 for c in name):
        raise ServiceError(
            "a name may not hold control characters or lone surrogates", "service/bad-name"
        )
    return name


V = TypeVar("V")


class _Recent(OrderedDict[str, V]):
    """A dictionary of at most ``size`` entries; the least recently used go first."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def recent(self, key: str) -> V | None:
        """The entry (now the most recently used), or None."""
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: str, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


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
    """A game in memory: its state, version, move log, seeds, and views built so far."""

    row: GameRow
    state: GameState
    version: int
    seeds: list[str]
    commitments: list[str]
    log: list[tuple[int, int | None, str]] = field(default_factory=list)
    """Every stored move: (version, seat, action)."""
    views: dict[int | None, str] = field(default_factory=dict)
    """Views of the current version as JSON text, by seat (None: a spectator), built on
    first use."""
    fragments: dict[str, tuple[Any, str]] = field(default_factory=dict)
    """Parts of every view that change rarely (past results, fairness, rules) as JSON text,
    each with the key it was built for."""
    timed: set[int] = field(default_factory=set)
    """Versions of the moves the turn timer played."""
    hand_start: int = 0
    """Version of the current hand's deal (its history's first event is the next move)."""
    timeouts: tuple[int, int] = (0, 0)
    """Per seat: its turns in a row the timer played (0 once it acts itself)."""
    last_mover: tuple[int, str | None] | None = None
    """(seat, played_by) of the latest move since the latest deal, for counting timeouts."""
    claimed_by: int | None = None
    """The seat that claimed the game (it is over, a win for that seat)."""
    deadline: float | None = None
    """When the seat to act must have acted (seconds since the epoch), if a timer runs."""
    read_at: int = 0
    """The service's news count when this copy's reading from the store began (a copy read
    before news of its game came is not trusted: see :meth:`GameService.note_version`)."""

    @property
    def over(self) -> bool:
        """Whether the game is over: played out, or claimed."""
        return self.claimed_by is not None or self.state.is_over

    def winner(self) -> int | None:
        """The winner of a game that is over (None: drawn, or not over)."""
        if self.claimed_by is not None:
            return self.claimed_by
        outcome = self.state.outcome
        return None if outcome is None else outcome.winner


@dataclass(slots=True)
class _Plan:
    """Steps a request makes happen, to be stored in one transaction."""

    state: GameState
    version: int
    entries: list[Entry] = field(default_factory=list)
    deals: list[tuple[int, str, str]] = field(default_factory=list)
    claimed_by: int | None = None

    @property
    def finished(self) -> bool:
        return self.claimed_by is not None or self.state.is_over


@dataclass(frozen=True, slots=True)
class _Prefetched:
    """What :meth:`GameService._prefetch` read for a copy of a game that missed news."""

    version: int
    """The copy's version the moves were read after."""
    read_at: int
    """The service's news count when the reading began (as :attr:`_Live.read_at`)."""
    moves: list[tuple[int, int | None, str, str | None]]
    deals: list[tuple[int, str, str]] | None
    """The deals after the copy's, if the moves hold a deal (None: not read)."""
    row: GameRow | None
    """The game's row, if it has a turn timer and moves came (None: not read)."""


class GameService:
    """Creates games, applies actions, and gives each seat its own view.

    Thread-safe: requests for different games run in parallel; requests for one game are
    serialized by that game's lock. ``cache_size`` bounds the games kept in memory (the
    rest reload from the log on use); ``retries`` and ``retry_delay`` (seconds, doubling)
    govern retries after transient database errors.
    """

    def __init__(
        self,
        store: Store,
        clock: Any = time.time,
        *,
        cache_size: int = 1000,
        retries: int = 4,
        retry_delay: float = 0.05,
    ) -> None:
        self.store = store
        self.clock = clock
        self.cache_size = cache_size
        self.retries = retries
        self.retry_delay = retry_delay
        self._live: _Recent[_Live] = _Recent(cache_size)
        self._players: _Recent[str] = _Recent(cache_size)
        """Player token hash -> player id, for the tokens seen lately."""
        self._news_count = 0
        """How many pieces of news of other processes' changes this service has heard."""
        self._news: _Recent[int] = _Recent(10 * cache_size)
        """Per game, the news count when news of it last came: a copy read from the store
        before that is old."""
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._cache_lock = threading.Lock()
        """Guards ``_live``, ``_players`` and ``_locks`` (held only for dictionary work)."""

    # --- locking, caching, retrying -------------------------------------------------------

    def _lock_of(self, game_id: str) -> threading.Lock:
        with self._cache_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = threading.Lock()
                self._locks[game_id] = lock
            return lock

    @contextmanager
    def _game(self, game_id: str) -> Iterator[_Live]:
        """The game, loaded (and settled) under its own lock for the block's duration."""
        with self._game_prefetched(game_id, None) as live:
            assert live is not None  # waited for the lock
            yield live

    def _cached(self, game_id: str) -> _Live | None:
        """The copy in memory if it can be trusted (not read before the latest news of its
        game came: that one :meth:`_load` brings up to date)."""
        with self._cache_lock:
            live = self._live.recent(game_id)
            if live is not None and live.read_at < self._news.get(game_id, 0):
                return None
            return live

    def _remember(self, live: _Live) -> None:
        with self._cache_lock:
            self._live.keep(live.row.id, live)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._live.pop(game_id, None)

    @property
    def cached_games(self) -> int:
        """How many games are in memory now (at most ``cache_size``)."""
        return len(self._live)

    def _read(self, func: Callable[..., T], *args: Any) -> T:
        """A store read, retried after transient errors (reads are always safe to repeat)."""
        delay = self.retry_delay
        for attempt in range(self.retries + 1):
            try:
                return func(*args)
            except DBAPIError as exc:
                if not is_transient(exc) or attempt == self.retries:
                    if is_transient(exc):
                        raise _unavailable() from None
                    raise
            time.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, write: Callable[[], T], stored: Callable[[], bool]) -> T | bool:
        """A store write retried after transient errors, exactly once: before each retry
        ``stored()`` tells whether the lost attempt committed after all (then True is
        returned). When the store stays away: ``service/unavailable``."""
        delay = self.retry_delay
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(delay)
                delay *= 2
                try:
                    if stored():
                        return True
                except DBAPIError as exc:
                    if not is_transient(exc):
                        raise
                    continue
            try:
                return write()
            except DBAPIError as exc:
                if not is_transient(exc):
                    raise
        raise _unavailable()

    # --- creating and joining -------------------------------------------------------------

    def create_game(
        self,
        rules: Rules,
        *,
        ai_level: str | None = None,
        seat: int = 0,
        name: str | None = None,
        player_token: str | None = None,
        turn_seconds: int | None = None,
    ) -> SeatTicket:
        """A new game: against ``ai_level`` (the person at ``seat``) or, with no level, for two
        people (the creator at ``seat``; the other joins with the ticket's invite). The game,
        its first deal and the AI's opening moves are stored in one transaction.
        ``turn_seconds`` (games between people; see :data:`TURN_SECONDS`): the turn timer."""
        if seat not in (0, 1):
            raise ServiceError("seat must be 0 or 1", "service/bad-seat")
        name = check_name(name)
        check_turn_seconds(turn_seconds, ai_level)
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
            turn_seconds=turn_seconds,
        )
        live = _Live(row, GameState.new(rules, row.first_dealer), 0, [], [])
        plan = self._owed(live, _Plan(live.state, 0))
        with self._lock_of(game_id):
            self._store_new(live, plan)
            self._applied(live, plan, None)
            self._remember(live)
        return SeatTicket(game_id, seat, token, invite)

    def _store_new(self, live: _Live, plan: _Plan) -> None:
        """Store a new game with ``plan``, exactly once despite transient faults."""
        self._write(
            lambda: self.store.add_game(
                live.row, self.clock(), plan.entries, plan.deals, plan.finished
            ),
            lambda: self.store.game(live.row.id) is not None,
        )

    def join(
        self,
        game_id: str,
        invite: str,
        name: str | None = None,
        player_token: str | None = None,
    ) -> SeatTicket:
        """Take the free seat of a game between people with its invite token.

        ``player_token`` (the bearer) is a player's token, or the seat token of someone
        already at this game: either way, whoever already sits at the game is refused
        (``service/already-seated``) rather than given the friend's seat."""
        name = check_name(name)
        with self._game(game_id) as live:
            row = live.row
            if row.invite is None or not secrets.compare_digest(row.invite, _hash(invite)):
                raise ServiceError("wrong invite for this game", "service/bad-invite")
            if player_token and any(
                stored is not None and secrets.compare_digest(stored, _hash(player_token))
                for stored in row.tokens
            ):  # an anonymous host opening their own invite with their seat token
                raise ServiceError("you already sit at this game", "service/already-seated")
            owner = self._player(player_token) if player_token else None
            if owner is not None and name is None:
                name = owner[1]
            if owner is not None and owner[0] in row.players:
                # the host opening their own link must not take the friend's seat
                raise ServiceError("you already sit at this game", "service/already-seated")
            free = [s for s in (0, 1) if row.tokens[s] is None]
            if not free:
                raise ServiceError("this game already has two players", "service/full")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            owner_id = None if owner is None else owner[0]
            digest = _hash(token)
            # both seats taken: the turn timer starts
            deadline = (
                KEEP if row.turn_seconds is None or live.over else self.clock() + row.turn_seconds
            )
            taken = self._write(
                lambda: self.store.set_seat(game_id, seat, digest, name, owner_id, deadline),
                # after a lost answer: did our token land in the seat?
                lambda: _stored_seat(self.store.game(game_id), seat) == digest,
            )
            self._forget(game_id)  # reload the row with the new seat
            if not taken:
                raise ServiceError("this game already has two players", "service/full")
        return SeatTicket(game_id, seat, token)

    # --- reading --------------------------------------------------------------------------

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token holds in a game, or ``None`` (a spectator)."""
        with self._game(game_id) as live:
            return self._seat(live, token)

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as the token's seat (or a spectator) may see it, as plain JSON data."""
        return dict(json.loads(self.view_text(game_id, token)))

    def view_text(self, game_id: str, token: str | None) -> str:
        """:meth:`view` as JSON text (what the server sends)."""
        with self._game(game_id) as live:
            return self._view_text(live, self._seat(live, token))

    def view_for_seat(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """:meth:`view` for a seat already authenticated (by a connection's token)."""
        return dict(json.loads(self.view_text_for_seat(game_id, seat)))

    def view_text_for_seat(self, game_id: str, seat: int | None) -> str:
        """:meth:`view_for_seat` as JSON text."""
        with self._game(game_id) as live:
            return self._view_text(live, seat)

    def state_view(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` built the plain way, with no cached parts: the game's
        :meth:`~ginrummy.engine.game.GameState.view` as JSON data plus the server's fields
        (what :meth:`view` must equal; tests compare the two)."""
        with self._game(game_id) as live:
            data = live.state.view(seat).to_dict()
            finished = len(live.state.finished_hands)
            data.update(
                version=live.version,
                game_id=live.row.id,
                names=list(live.row.names),
                ai_level=live.row.ai_level,
                seat_free=_seat_free(live.row),
                fairness=_fairness(live, finished),
                is_over=live.over,
                claimed_by=live.claimed_by,
                timer=self._timer(live, seat),
            )
            state = live.state.hand
            if data["hand"] is not None:
                if live.claimed_by is not None:
                    data["hand"]["legal_actions"] = []
                for number, event in enumerate(data["hand"]["history"]):
                    if live.hand_start + 1 + number in live.timed:
                        event["by"] = TIMER
            if seat is not None and state is not None and not state.is_over:
                data["hand"]["arrangement"] = _own_arrangement(state.hand_mask(seat))
            return dict(json.loads(_dumps(data)))

    def view_texts(self, game_id: str, seats: set[int | None]) -> tuple[int, dict[int | None, str]]:
        """The game's version and the view of each of ``seats`` as JSON text, all of that
        version."""
        with self._game(game_id) as live:
            return live.version, {seat: self._view_text(live, seat) for seat in seats}

    def view_texts_now(
        self, game_id: str, seats: set[int | None]
    ) -> tuple[int, dict[int | None, str]] | None:
        """:meth:`view_texts` if it can be answered at once - the game in memory and not busy
        - else ``None`` (ask :meth:`view_texts`, which may wait). For an event loop, which
        must never wait on a game's lock or the database."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            return None
        lock = self._lock_of(game_id)
        if not lock.acquire(blocking=False):
            return None
        try:
            live = self._cached(game_id)
            if live is None:
                return None
            return live.version, {seat: self._view_text(live, seat) for seat in seats}
        finally:
            lock.release()

    def view_texts_many(
        self, wanted: dict[str, set[int | None]]
    ) -> dict[str, tuple[int, dict[int | None, str]]]:
        """:meth:`view_texts` of several games (game id -> seats), for news of many games at
        once: the copies in memory that missed news are brought up to date from one read of
        the store for all of them (:meth:`_prefetch`), not one read per game. A game that
        cannot be read now (gone, the store away a moment) is left out of the answer; its
        clients sync by themselves."""
        stale: dict[str, _Live] = {}
        for game_id in wanted:
            if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
                continue
            with self._cache_lock:
                live = self._live.get(game_id)
                if live is not None and live.read_at < self._news.get(game_id, 0):
                    stale[game_id] = live
        prefetched: dict[str, _Prefetched] = {}
        if len(stale) > 1:  # one game alone: read as ever, when it is loaded
            try:
                prefetched = self._prefetch(stale)
            except (DBAPIError, ServiceError):
                prefetched = {}  # each game tries on its own below
        found: dict[str, tuple[int, dict[int | None, str]]] = {}
        busy: list[str] = []
        # the games not busy first: one busy a while (its AI thinking) holds up no other
        for wait in (False, True):
            for game_id in busy if wait else wanted:
                seats = wanted[game_id]
                try:
                    with self._game_prefetched(game_id, prefetched.get(game_id), wait) as live:
                        if live is None:
                            busy.append(game_id)
                            continue
                        views = {seat: self._view_text(live, seat) for seat in seats}
                        found[game_id] = (live.version, views)
                except (GinRummyError, DBAPIError):
                    continue
        return found

    @contextmanager
    def _game_prefetched(
        self, game_id: str, prefetched: _Prefetched | None, wait: bool = True
    ) -> Iterator[_Live | None]:
        """:meth:`_game`, bringing the copy up to date with ``prefetched`` if it is of use;
        without ``wait``, None at once if another thread holds the game."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            shown = game_id[:40] if isinstance(game_id, str) else type(game_id).__name__
            raise ServiceError(f"no game {shown!r}", "service/no-game")
        lock = self._lock_of(game_id)
        if not lock.acquire(blocking=wait):
            yield None
            return
        try:
            yield self._load(game_id, prefetched=prefetched)
        finally:
            lock.release()

    def _view_text(self, live: _Live, seat: int | None) -> str:
        """A seat's view as JSON text: the parts every seat shares, built once per version
        (:meth:`_public_parts`), around the seat's own cards, legal actions, arrangement and
        history."""
        cached = live.views.get(seat)
        if cached is None:
            cached = live.views[seat] = self._view_base(live, seat)
        if live.row.turn_seconds is None:
            return cached  # its "timer" is null
        # the seconds left change by the moment: never cached
        return f'{cached[:-1]},"timer":{_dumps(self._timer(live, seat))}}}'

    def _timer(self, live: _Live, seat: int | None) -> dict[str, Any] | None:
        """The view's ``timer``: the turn timer's seconds, the deadline of the seat to act
        (seconds since the epoch) and the seconds left now (both null when no timer runs),
        each seat's timed-out turns in a row, and whether ``seat`` may claim the game."""
        turn_seconds = live.row.turn_seconds
        if turn_seconds is None:
            return None
        deadline = live.deadline
        return {
            "turn_seconds": turn_seconds,
            "deadline": deadline,
            "seconds_left": None
            if deadline is None
            else max(0.0, round(deadline - self.clock(), 1)),
            "timeouts": list(live.timeouts),
            "can_claim": seat is not None
            and not live.over
            and live.timeouts[1 - seat] >= CLAIM_AFTER,
        }

    def _view_base(self, live: _Live, seat: int | None) -> str:
        """The view as :meth:`_view_text` gives it, less the ``timer`` of a game that has
        one (its seconds left change by the moment, so it is added at each sending)."""
        head, hand_public, tail, hand_number = self._public_parts(live)
        state = live.state.hand
        hand_text = "null"
        if hand_public is not None and state is not None:
            own = view_of(state, seat)
            mine: dict[str, Any] = {
                "seat": seat,
                "hand": [str(c) for c in own.hand],
                "legal_actions": [] if live.claimed_by is not None else list(own.legal_actions),
            }
            if seat is not None and not state.is_over:
                mine["arrangement"] = _own_arrangement(state.hand_mask(seat))
            history = self._history_text(live, seat, hand_number, own.history)
            hand_text = f'{_dumps(mine)[:-1]},"history":{history},{hand_public}}}'
        shown = "null" if seat is None else str(seat)
        timer = ',"timer":null' if live.row.turn_seconds is None else ""
        return f'{{"seat":{shown},{head},"hand":{hand_text}{tail}{timer}}}'

    def _public_parts(self, live: _Live) -> tuple[str, str | None, str, int]:
        """What every seat's view of this version shares, as pieces of JSON text: the game's
        fields, the hand's public fields (None between hands), the rules, results and
        fairness, and the hand's number."""
        cached = live.fragments.get("public")
        if cached is not None and cached[0] == live.version:
            parts: tuple[str, str | None, str, int] = cached[1]  # type: ignore[assignment]
            return parts
        view = live.state.view(None)
        head = {
            "points": list(view.points),
            "hands_won": list(view.hands_won),
            "hand_number": view.hand_number,
            "next_dealer": view.next_dealer,
            "is_over": live.over,
            "outcome": None if view.outcome is None else view.outcome.to_dict(),
            "claimed_by": live.claimed_by,
            "version": live.version,
            "game_id": live.row.id,
            "names": list(live.row.names),
            "ai_level": live.row.ai_level,
            "seat_free": _seat_free(live.row),
        }
        hand_public = None
        if view.hand is not None:
            public = view.hand.to_dict(history=False)
            for own in ("seat", "hand", "legal_actions"):  # each seat's own
                del public[own]
            hand_public = _dumps(public)[1:-1]
        finished = len(live.state.finished_hands)
        rules = self._fragment(live, "rules", None, lambda: view.rules.to_dict())
        results = self._fragment(
            live, "results", len(view.results), lambda: [r.to_dict() for r in view.results]
        )
        fairness = self._fragment(
            live,
            "fairness",
            (len(live.commitments), finished),
            lambda: _fairness(live, finished),
        )
        tail = f',"rules":{rules},"results":{results},"fairness":{fairness}'
        parts = (_dumps(head)[1:-1], hand_public, tail, view.hand_number)
        live.fragments["public"] = (live.version, parts)  # type: ignore[assignment]
        return parts

    @staticmethod
    def _history_text(
        live: _Live, seat: int | None, hand_number: int, events: tuple[Any, ...]
    ) -> str:
        """The hand's history as ``seat`` sees it, as JSON text. A seat's history only grows
        during a hand, so only the events new since the last view are encoded."""
        name = f"history/{seat}"
        cached = live.fragments.get(name)
        known = 0
        text = "[]"
        if cached is not None and cached[0][0] == hand_number and cached[0][1] <= len(events):
            known, text = cached[0][1], cached[1]
        if known < len(events):
            start = live.hand_start + 1  # the version of the hand's first event
            added = ",".join(
                _dumps(_marked(event_dict(e), start + number in live.timed))
                for number, e in enumerate(events[known:], start=known)
            )
            text = f"[{added}]" if known == 0 else f"{text[:-1]},{added}]"
            live.fragments[name] = ((hand_number, len(events)), text)
        return text

    @staticmethod
    def _fragment(live: _Live, name: str, key: Any, build: Callable[[], Any]) -> str:
        cached = live.fragments.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = _dumps(build())
        live.fragments[name] = (key, text)
        return text

    def hint(self, game_id: str, token: str | None) -> dict[str, str]:
        """The AI's advice for the token's seat: ``{"action", "reason"}``
        (:func:`ginrummy.ai.hint`). Only in games against the AI (between people it would
        be a third player at the table), and only when the seat is to act."""
        with self._game(game_id) as live:
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
            version = live.version
        return hint(view, f"{game_id}/{version}").to_dict()

    def hand_record(self, game_id: str, number: int) -> dict[str, Any]:
        """The record of hand ``number`` (1-based) once it is over: dealer, deck, seed,
        commitment, every action and the result, as in :mod:`ginrummy.record`. Everything it
        shows follows from the seed, which the view reveals at the same moment; a browser
        checks the deal with it (``docs/fairness.md``)."""
        from ..record import record_of

        with self._game(game_id) as live:
            finished = len(live.state.finished_hands)
            if not 1 <= number <= finished:
                raise ServiceError(
                    f"hand {number} is not over (hands over: {finished})", "service/not-over"
                )
            hands = record_of(live.state).to_dict()["hands"]
        return dict(hands[number - 1])

    def events_since(self, game_id: str, since: int) -> list[dict[str, Any]]:
        """Moves after version ``since``: ``{"version", "seat", "action", "by"}`` (``by``:
        ``"timer"`` for a move the turn timer played, else null). Public as they are: an
        action's text never names a hidden card (a stock draw is just ``stock``), and a
        ``deal`` carries no card; cards reach a seat only through its view."""
        with self._game(game_id) as live:
            return [
                {
                    "version": v,
                    "seat": seat,
                    "action": action,
                    "by": TIMER if v in live.timed else None,
                }
                for v, seat, action in live.log[max(0, since) :]
            ]

    def record(self, game_id: str) -> dict[str, Any]:
        """The full record of a finished game (every card), as in :mod:`ginrummy.record`."""
        from ..record import record_of

        with self._game(game_id) as live:
            if not live.over:
                raise ServiceError(
                    "the game is not over: its record would show hidden cards", "service/not-over"
                )
            record = record_of(live.state).to_dict()
            if live.claimed_by is not None:
                record["claimed_by"] = live.claimed_by  # ended by a claim, mid-hand
            return record

    # --- acting ---------------------------------------------------------------------------

    def act(self, game_id: str, token: str | None, action: str, version: int | None = None) -> int:
        """Apply ``action`` for the token's seat, then the AI's replies and any new deal, all
        stored in one transaction before this returns the new version. With ``version``, the
        action is refused (``service/stale``) unless the game is still at that version. An
        illegal action raises :class:`~ginrummy.errors.IllegalActionError` and changes
        nothing."""
        with self._game(game_id) as live:
            seat = self._seat(live, token)
            if seat is None:
                raise ServiceError(
                    "spectators cannot act; a seat's token is needed", "service/not-a-player"
                )
            return self._act_once_more_if_beaten(live, seat, action, version)

    def act_for_seat(self, game_id: str, seat: int, action: str, version: int | None = None) -> int:
        """:meth:`act` for a seat already authenticated (by a connection's token)."""
        with self._game(game_id) as live:
            return self._act_once_more_if_beaten(live, seat, action, version)

    def _act_once_more_if_beaten(
        self, live: _Live, seat: int, action: str, version: int | None
    ) -> int:
        """:meth:`_act`; if another server process stored a move of this game first (our
        copy was old), once more on the game as the database now has it - where the action
        may be refused as it would have been had it come a moment later."""
        try:
            return self._act(live, seat, action, version)
        except ServiceError as exc:
            if exc.code != "service/conflict":
                raise
        return self._act(self._load(live.row.id), seat, action, version)

    def note_version(self, game_id: str, version: int) -> None:
        """News from another server process: the game is now at ``version`` (``-1``: its
        seats or names changed). A copy in memory that is older is no longer trusted: when
        next needed it takes the moves after its own from the database (``-1``: it is read
        again whole)."""
        with self._cache_lock:
            live = self._live.get(game_id)
            if live is not None and version >= 0 and live.version >= version:
                return  # this copy has it already
            # any copy of this game read before now is old, even one being read this moment
            # (it may have read the store just before the change): counted, not only marked
            self._news_count += 1
            self._news.keep(game_id, self._news_count)
            if version < 0:
                self._live.pop(game_id, None)

    def refresh(self, game_id: str) -> None:
        """Make sure the copy in memory is the stored game: if the database holds a newer
        version (news of another process's move was lost), the copy is read again. One
        query; for a client catching up (a sync), not for every move."""
        live = self._cached(game_id)
        if live is not None and self._read(self.store.latest_version, game_id) > live.version:
            self.note_version(game_id, -1)

    def forget_all(self) -> None:
        """Trust no copy of a game in memory: each is read again from the database when
        next used (news of other processes' moves may have been lost meanwhile)."""
        with self._cache_lock:
            self._live.clear()

    def act_now(
        self, game_id: str, seat: int, action: str, version: int | None = None
    ) -> int | None:
        """:meth:`act_for_seat` if it can be done at once, without waiting or thinking: the
        game in memory, not busy, no AI seat, and a store whose commits are quick (SQLite in
        this process); else ``None`` (call :meth:`act_for_seat`, which may wait). For an
        event loop: it saves a trip to a worker thread for most moves between people."""
        if not self.store.quick_commits or not GAME_ID.fullmatch(game_id):
            return None
        lock = self._lock_of(game_id)
        if not lock.acquire(blocking=False):
            return None
        try:
            live = self._cached(game_id)
            if live is None or live.row.ai_seat is not None:
                return None
            return self._act(live, seat, action, version, quick=True)
        except _Busy:
            return None  # another writer holds the database: nothing stored, hand it over
        finally:
            lock.release()

    def _act(
        self, live: _Live, seat: int, action: str, version: int | None, quick: bool = False
    ) -> int:
        if version is not None and version != live.version:
            raise ServiceError(
                f"the game has moved on (it is at version {live.version}, the action was made "
                f"at {version}); sync and try again",
                "service/stale",
            )
        if live.over:
            raise IllegalActionError("the game is over", code="game/over")
        # steps still owed from before (if settling on load failed) go first, in this transaction
        plan = self._owed(live, _Plan(live.state, live.version))
        if plan.state.is_over:
            raise IllegalActionError("the game is over", code="game/over")
        if action == "claim":
            self._check_claim(live, seat)
            plan.entries.append((seat, action, None))
            plan.version += 1
            plan.claimed_by = seat
        else:
            state = plan.state.apply(action, seat)  # raises without side effects
            plan = _Plan(state, plan.version + 1, [*plan.entries, (seat, action, None)], plan.deals)
            plan = self._owed(live, plan)
        self._store_steps(live, plan, quick)
        return live.version

    @staticmethod
    def _check_claim(live: _Live, seat: int) -> None:
        """A :class:`ServiceError` unless ``seat`` may claim the game now."""
        if live.row.turn_seconds is None:
            raise ServiceError(
                "only a game with a turn timer can be claimed", "service/cannot-claim"
            )
        missed = live.timeouts[1 - seat]
        if missed < CLAIM_AFTER:
            raise ServiceError(
                f"a game can be claimed once the opponent's turn has timed out {CLAIM_AFTER} "
                f"times in a row ({missed} so far)",
                "service/cannot-claim",
            )

    def time_out(self, game_id: str, deadline: float | None = None) -> int | None:
        """Play the turn of the seat to act with the ``normal`` AI if its deadline has
        passed: every action it has to make until the other seat is to act (or the hand
        ends), stored with any new deal in one transaction, each marked ``timer``. Returns
        the new version, or None when there was nothing to do (no timer, not due yet, or
        another process or the person was first: the version check decides).
        ``deadline``: the deadline the caller found stored; a copy in memory with another
        is read again first."""
        with self._game(game_id) as live:
            if deadline is not None and live.deadline != deadline:
                self._forget(game_id)  # ours may be old
                live = self._load(game_id)
            if live.over or live.deadline is None or live.deadline > self.clock():
                return None
            plan = self._owed(live, _Plan(live.state, live.version))
            seat = plan.state.to_act
            while not plan.state.is_over and not plan.state.needs_deal:
                hand = plan.state.hand
                if hand is None or plan.state.to_act != seat:
                    break
                bot = player(TIMER_LEVEL, f"{game_id}/{plan.version}/{TIMER}")
                action = bot.choose(hand.view(seat))
                plan.entries.append((seat, action, TIMER))
                plan.state, plan.version = plan.state.apply(action, seat), plan.version + 1
            plan = self._owed(live, plan)
            try:
                self._store_steps(live, plan)
            except ServiceError as exc:
                if exc.code == "service/conflict":
                    return None  # the game moved meanwhile: its deadline moved with it
                raise
            return live.version

    def _owed(self, live: _Live, plan: _Plan) -> _Plan:
        """``plan`` followed by every step the server owes after it: deals when a hand is
        needed and the AI's turns, until a person is to act or the game is over."""
        for _ in range(10_000):
            state = plan.state
            if state.is_over or live.claimed_by is not None:
                return plan
            if state.needs_deal:
                seed = new_seed()
                dealt = state.deal_seeded(seed)
                plan.deals.append((dealt.hand_number, seed, commitment(seed)))
                plan.entries.append((None, "deal", None))
                plan.state, plan.version = dealt, plan.version + 1
                continue
            ai_seat = live.row.ai_seat
            if ai_seat is None or state.to_act != ai_seat:
                return plan
            hand_state = state.hand
            assert hand_state is not None and live.row.ai_level is not None
            bot = player(live.row.ai_level, f"{live.row.id}/{plan.version}")
            action = bot.choose(hand_state.view(ai_seat))
            plan.entries.append((ai_seat, action, None))
            plan.state, plan.version = state.apply(action, ai_seat), plan.version + 1
        raise RuntimeError("the AI did not finish its turns")  # pragma: no cover

    def _store_steps(self, live: _Live, plan: _Plan, quick: bool = False) -> None:
        """Append ``plan`` after ``live``'s version in one transaction, exactly once despite
        transient faults; then ``live`` takes the new state. On a version conflict (another
        server wrote first) the cached game is dropped and ``service/conflict`` raised. With
        ``quick`` (from the event loop) it never waits or retries: a busy database raises
        :class:`_Busy` and nothing is stored."""
        base = live.version
        now = self.clock()
        deadline = self._deadline(live, plan, now)

        def append(quick: bool = False) -> None:
            self.store.append(
                live.row.id,
                base,
                plan.entries,
                now,
                plan.deals,
                plan.finished,
                quick=quick,
                deadline=deadline,
            )

        try:
            if quick:
                try:
                    append(quick=True)
                except IntegrityError:
                    raise
                except DBAPIError:
                    raise _Busy() from None
            else:
                self._write(append, lambda: self._stored(live.row.id, base, plan))
        except IntegrityError:
            self._forget(live.row.id)
            raise _conflict() from None
        except (ServiceError, DBAPIError):
            self._forget(live.row.id)
            raise
        self._applied(live, plan, deadline)

    def _deadline(self, live: _Live, plan: _Plan, now: float) -> float | None:
        """The game's deadline once ``plan`` is stored (:data:`~.store.KEEP`: no timer): the
        turn's seconds from ``now``; none once the game is over, while a seat is empty, or
        while both seats have timed out :data:`CLAIM_AFTER` times in a row (nobody is there:
        the game waits for whoever comes back)."""
        turn_seconds = live.row.turn_seconds
        if turn_seconds is None:
            return KEEP  # type: ignore[no-any-return]
        timeouts, _ = _count_timeouts(live.timeouts, live.last_mover, plan.entries)
        if plan.finished or None in live.row.tokens or min(timeouts) >= CLAIM_AFTER:
            return None
        return now + turn_seconds

    def _stored(self, game_id: str, base: int, plan: _Plan) -> bool:
        """After a write of unknown outcome: whether it committed (False: nothing after
        ``base``, try again); someone else's moves there are a ``service/conflict``."""
        after = [(s, a, by) for v, s, a, by in self.store.log(game_id) if v > base]
        if not after:
            return False
        seeds = {h: seed for h, seed, _ in self.store.deals(game_id)}
        if after == plan.entries and all(seeds.get(h) == seed for h, seed, _ in plan.deals):
            return True
        raise _conflict()

    def _applied(self, live: _Live, plan: _Plan, deadline: float | None) -> None:
        """``live`` after ``plan`` was stored with ``deadline``."""
        _note_moves(live, live.version, plan.entries)
        for _, seed, digest in plan.deals:
            live.seeds.append(seed)
            live.commitments.append(digest)
        live.state = plan.state
        live.version = plan.version
        if plan.claimed_by is not None:
            live.claimed_by = plan.claimed_by
        if deadline is not KEEP:
            live.deadline = deadline
        live.views = {}

    # --- loading --------------------------------------------------------------------------

    def _seat(self, live: _Live, token: str | None) -> int | None:
        """The seat a seat token, or the token of the player holding a seat, stands for.

        A token that fits no seat of a game with a seat still empty may be the newcomer's,
        who joined through another process a moment ago: the game's row is read again
        (one query) before the token is taken for a spectator's."""
        seat = self._seat_in(live, token)
        if seat is None and token and None in live.row.tokens:
            row = self._read(self.store.game, live.row.id)
            if row is not None and row.tokens != live.row.tokens:
                live.row, live.deadline = row, row.deadline
                live.views = {}
                live.fragments.pop("public", None)  # the names changed
                seat = self._seat_in(live, token)
        return seat

    def _seat_in(self, live: _Live, token: str | None) -> int | None:
        if not token or not isinstance(token, str):
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
        with self._cache_lock:
            known = self._players.recent(digest)
        if known is not None:
            return known
        found = self._read(self.store.player_by_token, digest)
        if found is None:
            return None  # unknown tokens are not cached: they may be seat tokens
        with self._cache_lock:
            self._players.keep(digest, found[0])
        return found[0]

    def _player(self, token: str | None) -> tuple[str, str | None]:
        found = (
            self._read(self.store.player_by_token, _hash(token))
            if token and isinstance(token, str)
            else None
        )
        if found is None:
            raise ServiceError("unknown player token", "service/bad-player")
        return found

    # --- players --------------------------------------------------------------------------

    def create_player(self, name: str | None = None) -> tuple[str, str]:
        """A new player: ``(player id, player token)``. The token stands for the player in
        every game they create or join with it, so they can list and resume them."""
        name = check_name(name)
        player_id = secrets.token_hex(16)
        token = secrets.token_urlsafe(24)
        self._write(
            lambda: self.store.add_player(player_id, name, _hash(token), self.clock()),
            lambda: self.store.player_by_token(_hash(token)) is not None,
        )
        return player_id, token

    def check_ready(self) -> None:
        """Nothing when a move could be stored now (the database answers and takes writes),
        else ``service/unavailable``: a load balancer's readiness check (``GET /api/ready``)."""
        if not self._read(self.store.takes_writes):
            raise _unavailable()

    def games_of(self, player_token: str) -> list[dict[str, Any]]:
        """The player's games, oldest first: open ones and finished ones, with the scores
        (``points``: hand points; ``grand_totals``: the final score with the bonuses, for a
        game played out)."""
        player_id, _ = self._player(player_token)
        out = []
        for game_id in self._read(self.store.games_of, player_id):
            with self._game(game_id) as live:
                seat = 0 if live.row.players[0] == player_id else 1
                state = live.state
                out.append(
                    {
                        "game_id": game_id,
                        "seat": seat,
                        "names": list(live.row.names),
                        "rules": state.rules.name,
                        "ai_level": live.row.ai_level,
                        "seat_free": _seat_free(live.row),
                        "points": list(state.points),
                        "hands_won": list(state.hands_won),
                        # the final score with the bonuses (the end-of-game dialog's
                        # grand totals) once played out; null while in play or if claimed
                        "grand_totals": (
                            None if state.outcome is None else list(state.outcome.grand_totals)
                        ),
                        "finished": live.over,
                        "winner": live.winner(),
                        "claimed_by": live.claimed_by,
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
        for game_id in self._read(self.store.games_of, player_id):
            with self._game(game_id) as live:
                state = live.state
                seat = 0 if live.row.players[0] == player_id else 1
                over, winner = live.over, live.winner()
            if not over:
                continue
            games += 1
            wins += winner == seat
            drawn += winner is None
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

    # --- loading and settling -------------------------------------------------------------

    def _load(
        self, game_id: str, remember: bool = True, prefetched: _Prefetched | None = None
    ) -> _Live:
        """The game from the cache, or rebuilt from its log; any step the server owes it
        (left by a fault) is done before it is returned. The caller holds its lock.
        ``prefetched``: what :meth:`view_texts_many` read for the copy in memory, used instead
        of reading it again if the copy is still the one it was read for."""
        live = self._cached(game_id)
        if live is not None:
            return live
        with self._cache_lock:
            old = self._live.get(game_id)  # a copy that missed news: brought up to date
        if prefetched is not None and (old is None or old.version != prefetched.version):
            prefetched = None  # read for another copy: of no use to this one
        live = (
            old
            if old is not None and self._catch_up(old, prefetched)
            else self._read_whole(game_id)
        )
        plan = self._owed(live, _Plan(live.state, live.version))
        if plan.entries:
            try:
                self._store_steps(live, plan)
            except ServiceError as exc:
                if exc.code != "service/conflict":
                    raise
                self._forget(game_id)
                return self._load(game_id, remember)  # another server settled it: reload
        if remember:
            self._remember(live)
        return live

    def _read_whole(self, game_id: str) -> _Live:
        """The game rebuilt from its whole log."""
        with self._cache_lock:
            read_at = self._news_count
        row = self._read(self.store.game, game_id)
        if row is None:
            raise ServiceError(f"no game {game_id!r}", "service/no-game")
        rules = Rules.from_dict(row.rules)
        state = GameState.new(rules, row.first_dealer)
        # the moves before the deals: a move is stored with its deal, so every deal the
        # moves read name is there (read the other way, a deal stored in between is missing)
        log = self._read(self.store.log, game_id)
        deals = self._read(self.store.deals, game_id)
        seeds = [seed for _, seed, _ in deals]
        commitments = [c for _, _, c in deals]
        state, claimed_by = _replay(state, None, log, seeds)
        version = log[-1][0] if log else 0
        live = _Live(
            row, state, version, seeds, commitments, deadline=row.deadline, read_at=read_at
        )
        _note_moves(live, 0, [(seat, action, by) for _, seat, action, by in log])
        live.claimed_by = claimed_by
        return live

    def _catch_up(self, live: _Live, prefetched: _Prefetched | None = None) -> bool:
        """Bring a copy that missed news up to date with the moves (and deals) stored after
        its version, instead of reading and replaying the whole game; False if that cannot
        be done (the moves do not follow on: read it whole). The caller holds its lock.
        ``prefetched``: those moves, deals and row, read already (for this copy's version)."""
        game_id = live.row.id
        if prefetched is not None:
            read_at, after = prefetched.read_at, prefetched.moves
        else:
            with self._cache_lock:
                read_at = self._news_count
            after = self._read(self.store.log, game_id, live.version)  # moves first, as in _load
        versions = [v for v, _, _, _ in after]
        if versions != list(range(live.version + 1, live.version + 1 + len(versions))):
            return False
        new_deals: list[tuple[int, str, str]] = []
        if any(action == "deal" for _, _, action, _ in after):
            if prefetched is not None and prefetched.deals is not None:
                new_deals = prefetched.deals
            else:
                new_deals = self._read(self.store.deals, game_id, len(live.seeds))
        row = live.row
        if row.turn_seconds is not None and after:
            if prefetched is not None and prefetched.row is not None:
                row = prefetched.row
            else:
                row = self._read(self.store.game, game_id) or row  # its deadline moved
        seeds = live.seeds + [seed for _, seed, _ in new_deals]
        try:
            state, claimed_by = _replay(live.state, live.claimed_by, after, seeds)
        except (GinRummyError, IndexError):
            return False
        _note_moves(live, live.version, [(seat, action, by) for _, seat, action, by in after])
        live.seeds = seeds
        live.commitments = live.commitments + [c for _, _, c in new_deals]
        live.state, live.claimed_by = state, claimed_by
        live.version = versions[-1] if versions else live.version
        live.row, live.deadline = row, row.deadline
        live.views = {}
        live.read_at = read_at
        return True

    def _prefetch(self, copies: dict[str, _Live]) -> dict[str, _Prefetched]:
        """For copies that missed news (game id -> copy, as in memory now): the moves after
        each one's version, the deals those moves need and the rows of timed games, read
        for all of them at once - one query each, however many games - in the order
        :meth:`_catch_up` reads them (moves before deals). Nothing is changed here."""
        with self._cache_lock:
            read_at = self._news_count
        bases = {game_id: live.version for game_id, live in copies.items()}
        logs = self._read(self.store.logs_after, bases)
        dealt = {
            game_id: len(copies[game_id].seeds)
            for game_id, after in logs.items()
            if any(action == "deal" for _, _, action, _ in after)
        }
        deals = self._read(self.store.deals_after, dealt) if dealt else {}
        timed = [g for g, after in logs.items() if after and copies[g].row.turn_seconds is not None]
        rows = self._read(self.store.games_by_id, timed) if timed else {}
        return {
            game_id: _Prefetched(
                bases[game_id], read_at, after, deals.get(game_id), rows.get(game_id)
            )
            for game_id, after in logs.items()
        }

    def settle_all(self) -> int:
        """Do every step the server owes any unfinished game (a deal, the AI's turn), as a
        starting server does; returns how many games were owed one. Games not already in
        memory are not kept there."""
        settled = 0
        for game_id in self._read(self.store.unfinished_games):
            try:
                with self._lock_of(game_id):
                    if self._cached(game_id) is not None:
                        continue
                    before = len(self._read(self.store.moves, game_id))
                    live = self._load(game_id, remember=False)
                    settled += len(live.log) > before
            except GinRummyError:
                continue  # unreachable now: the game settles on its next use
        return settled


def _replay(
    state: GameState,
    claimed_by: int | None,
    log: list[tuple[int, int | None, str, str | None]],
    seeds: list[str],
) -> tuple[GameState, int | None]:
    """``state`` after the stored moves ``log`` (deals from ``seeds`` by hand), and the seat
    that claimed the game, if one did."""
    for _, seat, action, _ in log:
        if action == "deal":
            state = state.deal_seeded(seeds[state.hand_number])
        elif action == "claim":
            claimed_by = seat
        else:
            state = state.apply(action, seat)
    return state, claimed_by


def _seat_free(row: GameRow) -> bool:
    """Whether a game between people still has the seat its invite is for (a view's
    ``seat_free``: the join page says up front that a game is full)."""
    return row.invite is not None and None in row.tokens


def _fairness(live: _Live, finished: int) -> list[dict[str, Any]]:
    """Each hand's commitment, and its seed once the hand is over (``finished`` hands)."""
    return [
        {
            "hand": number,
            "commitment": live.commitments[number - 1],
            # a seed is revealed only once its hand is over
            "seed": live.seeds[number - 1] if number <= finished else None,
        }
        for number in range(1, len(live.commitments) + 1)
    ]


def check_turn_seconds(turn_seconds: Any, ai_level: str | None = None) -> None:
    """A :class:`ServiceError` unless ``turn_seconds`` is a turn timer a game may have."""
    if turn_seconds is None:
        return
    least, most = TURN_SECONDS
    if type(turn_seconds) is not int or not least <= turn_seconds <= most:
        raise ServiceError(
            f"turn_seconds is a whole number of seconds from {least} to {most}, or null",
            "service/bad-timer",
        )
    if ai_level is not None:
        raise ServiceError(
            "turn timers are for games between people (the AI never keeps anyone waiting)",
            "service/bad-timer",
        )


def _count_timeouts(
    timeouts: tuple[int, int],
    last: tuple[int, str | None] | None,
    entries: list[Entry],
) -> tuple[tuple[int, int], tuple[int, str | None] | None]:
    """Each seat's timed-out turns in a row after ``entries``, and the new latest mover.

    A timer move starts a timed-out turn unless the move before it was the timer's for the
    same seat (the draw and the discard of one turn); a seat's own move ends its run."""
    counts = list(timeouts)
    for seat, _action, by in entries:
        if seat is None:  # a deal: a new hand, so a new turn
            last = None
            continue
        if by == TIMER:
            if last != (seat, TIMER):
                counts[seat] += 1
        else:
            counts[seat] = 0
        last = (seat, by)
    return (counts[0], counts[1]), last


def _note_moves(live: _Live, base: int, entries: list[Entry]) -> None:
    """``live``'s log, timer marks, hand start and timeout counts after ``entries`` were
    stored after version ``base``."""
    for offset, (seat, action, by) in enumerate(entries, start=1):
        version = base + offset
        live.log.append((version, seat, action))
        if by == TIMER:
            live.timed.add(version)
        if action == "deal":
            live.hand_start = version
    live.timeouts, live.last_mover = _count_timeouts(live.timeouts, live.last_mover, entries)


def _marked(event: dict[str, Any], by_timer: bool) -> dict[str, Any]:
    """A history event, with ``"by": "timer"`` if the turn timer played it."""
    if by_timer:
        event["by"] = TIMER
    return event


def _dumps(data: Any) -> str:
    """Compact, ASCII-only JSON (safe in any frame and any log)."""
    return json.dumps(data, separators=(",", ":"))


def _stored_seat(row: GameRow | None, seat: int) -> str | None:
    return None if row is None else row.tokens[seat]


class _Busy(Exception):
    """A quick write found the database busy; nothing was stored."""


def _conflict() -> ServiceError:
    return ServiceError("the game changed meanwhile; try again", "service/conflict")


def _unavailable() -> ServiceError:
    return ServiceError(
        "the game store is unavailable for a moment; try again", "service/unavailable"
    )


@functools.lru_cache(maxsize=8192)
def _own_arrangement(mask: int) -> dict[str, Any]:
    """A seat's own hand split into melds and deadwood (what the table outlines), with, for
    an 11-card hand, the least deadwood a discard leaves. Cached by hand (a hand stays the
    same through the opponent's turn); the dict is shared: read it, never change it."""
    arrangement = arrange_mask(mask).to_dict()
    if mask.bit_count() == 11:
        arrangement["deadwood_after_discard"] = best_discard_mask(mask)[0]
    return arrangement
