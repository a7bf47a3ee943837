"""Durable storage: games, deals (with their secret seeds) and moves, via SQLAlchemy.

The move log is the truth: a game's state is rebuilt by replaying its moves through the
engine, so whatever was stored before a crash is exactly what a restarted server resumes.
Each move has a version, increasing by one per game; the primary key ``(game_id, version)``
makes two writers racing for the same version fail instead of both succeeding.

Schema changes go through Alembic migrations (``migrations/``); :func:`open_store` upgrades
the database to the newest schema when it opens it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("first_dealer", sa.Integer, nullable=False),
    sa.Column("ai_level", sa.String(16), nullable=True),
    sa.Column("ai_seat", sa.Integer, nullable=True),
    sa.Column("token0", sa.String(64), nullable=True),
    sa.Column("token1", sa.String(64), nullable=True),
    sa.Column("invite", sa.String(64), nullable=True),
    sa.Column("name0", sa.String(64), nullable=True),
    sa.Column("name1", sa.String(64), nullable=True),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("player0", sa.String(32), nullable=True, index=True),
    sa.Column("player1", sa.String(32), nullable=True, index=True),
    sa.Column("turn_seconds", sa.Integer, nullable=True),
    sa.Column("deadline", sa.Float, nullable=True, index=True),
)
"""One row per game. Seat tokens and the invite are stored as SHA-256 hashes; ``player0``
and ``player1`` name the players holding the seats, when known. ``turn_seconds`` is the
game's turn timer (null: none) and ``deadline`` the time (seconds since the epoch) by which
the seat to act must act before the timer plays for it (null: no timer running)."""

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""A player: a name and the SHA-256 of the token that stands for them in all their games."""

deals = sa.Table(
    "deals",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("hand", sa.Integer, primary_key=True),
    sa.Column("seed", sa.String(128), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
)
"""The secret shuffle seed and its public commitment, per hand (hand numbers from 1)."""

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("played_by", sa.String(8), nullable=True),
)
"""Every accepted move in order: ``deal`` (seat null), an action in the engine notation, or
``claim`` (the game claimed after the opponent's timeouts). ``played_by`` is ``timer`` for a
move the turn timer played for an absent seat, else null."""

Entry = tuple[int | None, str, str | None]
"""A move to store: (seat, action, played_by)."""

KEEP: Any = ...
"""For a ``deadline`` argument: leave the stored deadline as it is."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's stored settings."""

    id: str
    rules: dict[str, Any]
    first_dealer: int
    ai_level: str | None
    ai_seat: int | None
    tokens: tuple[str | None, str | None]
    invite: str | None
    names: tuple[str | None, str | None]
    finished: bool
    players: tuple[str | None, str | None] = (None, None)
    turn_seconds: int | None = None
    deadline: float | None = None


class Store:
    """Reads and writes games; every write is one transaction."""

    def __init__(self, engine: Engine, quick_engine: Engine | None = None) -> None:
        self.engine = engine
        postgresql = engine.dialect.name == "postgresql"
        self.reader: Engine = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if postgresql else engine
        )
        """The engine of reads, and of :meth:`append`'s one statement on PostgreSQL: there in
        autocommit mode, so that a read is one round trip (no ``BEGIN`` before it, no
        ``ROLLBACK`` after it). Each read was a transaction of its own already; a reader that
        needs several reads to agree orders them as before (moves before deals)."""
        self.one_statement_writes = postgresql
        """Whether :meth:`append` stores its moves, deals and game row in one statement (one
        round trip, a transaction by itself) rather than ``BEGIN``, the statements and
        ``COMMIT``: PostgreSQL, whose data-modifying ``WITH`` does it."""
        self.quick_engine = quick_engine
        """For :meth:`append` with ``quick``: the same database through a connection that
        gives up at once when another writer holds the database (a local SQLite file)."""
        self.quick_commits = quick_engine is not None
        """Whether a commit can be made on an event loop: a local SQLite file in
        write-ahead-log mode (no network round trip, no fsync per commit), tried with
        ``quick``, which never waits for another writer."""

    def add_game(
        self,
        row: GameRow,
        created_at: float,
        entries: Sequence[Entry] = (),
        new_deals: Sequence[tuple[int, str, str]] = (),
        finished: bool = False,
    ) -> None:
        """Store a new game with its first moves and deals (``entries`` as in :meth:`append`,
        from version 1), all in one transaction: a game is never stored undealt."""
        with self.engine.begin() as conn:
            conn.execute(
                games.insert().values(
                    id=row.id,
                    created_at=created_at,
                    rules=json.dumps(row.rules),
                    first_dealer=row.first_dealer,
                    ai_level=row.ai_level,
                    ai_seat=row.ai_seat,
                    token0=row.tokens[0],
                    token1=row.tokens[1],
                    invite=row.invite,
                    name0=row.names[0],
                    name1=row.names[1],
                    finished=row.finished,
                    player0=row.players[0],
                    player1=row.players[1],
                    turn_seconds=row.turn_seconds,
                    deadline=row.deadline,
                )
            )
            _write_moves(conn, row.id, 0, entries, created_at, new_deals, finished, KEEP)

    def game(self, game_id: str) -> GameRow | None:
        with self.reader.connect() as conn:
            r = conn.execute(games.select().where(games.c.id == game_id)).mappings().first()
        return None if r is None else _game_row(r)

    def set_seat(
        self,
        game_id: str,
        seat: int,
        token: str,
        name: str | None,
        player: str | None = None,
        deadline: float | None = KEEP,
    ) -> bool:
        """Fill an empty seat (joining by invite), and set the game's ``deadline`` unless it
        is :data:`KEEP`; False if the seat was taken meanwhile."""
        token_col = games.c.token0 if seat == 0 else games.c.token1
        values: dict[str, Any] = {
            f"token{seat}": token,
            f"name{seat}": name,
            f"player{seat}": player,
        }
        if deadline is not KEEP:
            values["deadline"] = deadline
        with self.engine.begin() as conn:
            done = conn.execute(
                games.update().where(games.c.id == game_id, token_col.is_(None)).values(**values)
            )
        return done.rowcount == 1

    def append(
        self,
        game_id: str,
        version: int,
        entries: Sequence[Entry],
        now: float,
        new_deals: Sequence[tuple[int, str, str]] = (),
        finished: bool = False,
        quick: bool = False,
        deadline: float | None = KEEP,
    ) -> None:
        """Store moves ``version+1, version+2, ...`` (and new deals' seeds) in one transaction,
        with the game's new ``deadline`` unless it is :data:`KEEP`.

        Raises :class:`sqlalchemy.exc.IntegrityError` if another writer stored any of these
        versions first (the primary key is the version check), and nothing is stored. With
        ``quick`` (see :attr:`quick_commits`) it raises
        :class:`sqlalchemy.exc.OperationalError` at once, storing nothing, if another writer
        holds the database, instead of waiting for it.
        """
        if self.one_statement_writes and entries and not quick:
            with self.reader.connect() as conn:  # autocommit: the statement is the transaction
                _write_moves_at_once(
                    conn, game_id, version, entries, now, new_deals, finished, deadline
                )
            return
        engine = self.quick_engine if quick and self.quick_engine is not None else self.engine
        with engine.begin() as conn:
            _write_moves(conn, game_id, version, entries, now, new_deals, finished, deadline)

    def moves(self, game_id: str) -> list[tuple[int, int | None, str]]:
        """Every move of a game in order: (version, seat, action)."""
        return [(v, s, a) for v, s, a, _ in self.log(game_id)]

    def log(self, game_id: str, after: int = 0) -> list[tuple[int, int | None, str, str | None]]:
        """Every move of a game in order (after version ``after``): (version, seat, action,
        played_by)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(moves.c.version, moves.c.seat, moves.c.action, moves.c.played_by)
                .where(moves.c.game_id == game_id, moves.c.version > after)
                .order_by(moves.c.version)
            ).all()
        return [(int(v), s, a, by) for v, s, a, by in rows]

    def logs_after(
        self, after: Mapping[str, int]
    ) -> dict[str, list[tuple[int, int | None, str, str | None]]]:
        """:meth:`log` of several games at once, each after its own version (``after``: game id
        -> version), in one query: what a process catching up with news of many games reads.
        Every game asked for is in the answer (an empty list: no move after that version)."""
        found: dict[str, list[tuple[int, int | None, str, str | None]]] = {g: [] for g in after}
        if not after:
            return found
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(
                    moves.c.game_id,
                    moves.c.version,
                    moves.c.seat,
                    moves.c.action,
                    moves.c.played_by,
                )
                .where(
                    sa.or_(
                        *(
                            sa.and_(moves.c.game_id == g, moves.c.version > v)
                            for g, v in after.items()
                        )
                    )
                )
                .order_by(moves.c.game_id, moves.c.version)
            ).all()
        for g, v, seat, action, by in rows:
            found[g].append((int(v), seat, action, by))
        return found

    def deals_after(self, after: Mapping[str, int]) -> dict[str, list[tuple[int, str, str]]]:
        """:meth:`deals` of several games at once, each after its own hand number, in one
        query."""
        found: dict[str, list[tuple[int, str, str]]] = {g: [] for g in after}
        if not after:
            return found
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(deals.c.game_id, deals.c.hand, deals.c.seed, deals.c.commitment)
                .where(
                    sa.or_(
                        *(sa.and_(deals.c.game_id == g, deals.c.hand > h) for g, h in after.items())
                    )
                )
                .order_by(deals.c.game_id, deals.c.hand)
            ).all()
        for g, h, seed, digest in rows:
            found[g].append((int(h), seed, digest))
        return found

    def games_by_id(self, game_ids: Iterable[str]) -> dict[str, GameRow]:
        """:meth:`game` of several games at once, in one query (a game not stored is left
        out)."""
        wanted = list(dict.fromkeys(game_ids))
        if not wanted:
            return {}
        with self.reader.connect() as conn:
            rows = conn.execute(games.select().where(games.c.id.in_(wanted))).mappings().all()
        return {r["id"]: _game_row(r) for r in rows}

    def latest_version(self, game_id: str) -> int:
        """The version of a game's newest stored move (0: none)."""
        with self.reader.connect() as conn:
            found = conn.execute(
                sa.select(sa.func.max(moves.c.version)).where(moves.c.game_id == game_id)
            ).scalar()
        return int(found or 0)

    def due_games(self, horizon: float) -> list[tuple[str, float]]:
        """``(id, deadline)`` of every game whose turn deadline is at or before ``horizon``
        (seconds since the epoch), soonest first: what the turn timers look for."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(games.c.id, games.c.deadline)
                .where(games.c.deadline <= horizon)
                .order_by(games.c.deadline)
                .limit(1000)
            ).all()
        return [(r[0], float(r[1])) for r in rows]

    def deals(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        """Every deal of a game in order (after hand ``after``): (hand number, seed,
        commitment)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(deals.c.hand, deals.c.seed, deals.c.commitment)
                .where(deals.c.game_id == game_id, deals.c.hand > after)
                .order_by(deals.c.hand)
            ).all()
        return [(int(h), s, c) for h, s, c in rows]

    def add_player(self, player_id: str, name: str | None, token: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                players.insert().values(id=player_id, name=name, token=token, created_at=now)
            )

    def player_by_token(self, token: str) -> tuple[str, str | None] | None:
        """``(id, name)`` of the player whose token hash is ``token``."""
        with self.reader.connect() as conn:
            r = conn.execute(
                sa.select(players.c.id, players.c.name).where(players.c.token == token)
            ).first()
        return None if r is None else (r[0], r[1])

    def unfinished_games(self) -> list[str]:
        """Ids of every game not over, oldest first (what a starting server checks for
        steps it owes: a deal or an AI turn)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(games.c.id)
                .where(games.c.finished.is_(False))
                .order_by(games.c.created_at)
            ).all()
        return [r[0] for r in rows]

    def takes_writes(self) -> bool:
        """Whether the database answers on the writers' connections and takes writes now
        (PostgreSQL: not a standby, not read-only); a fault of the connection raises."""
        with self.engine.connect() as conn:
            if conn.dialect.name != "postgresql":
                conn.execute(sa.text("SELECT 1"))
                return True
            setting = conn.execute(sa.text("SELECT current_setting('transaction_read_only')"))
            return bool(setting.scalar_one() == "off")

    def games_of(self, player_id: str) -> list[str]:
        """Ids of the games a player holds a seat in, oldest first."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                sa.select(games.c.id)
                .where(sa.or_(games.c.player0 == player_id, games.c.player1 == player_id))
                .order_by(games.c.created_at)
            ).all()
        return [r[0] for r in rows]


def _game_row(r: Any) -> GameRow:
    """A stored row of ``games`` as a :class:`GameRow`."""
    return GameRow(
        id=r["id"],
        rules=json.loads(r["rules"]),
        first_dealer=r["first_dealer"],
        ai_level=r["ai_level"],
        ai_seat=r["ai_seat"],
        tokens=(r["token0"], r["token1"]),
        invite=r["invite"],
        names=(r["name0"], r["name1"]),
        finished=bool(r["finished"]),
        players=(r["player0"], r["player1"]),
        turn_seconds=r["turn_seconds"],
        deadline=r["deadline"],
    )


_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}
"""The positional parameter mark of each parameter style of the drivers we use (SQLite:
qmark; psycopg: pyformat)."""


def _insert_moves(style: str, count: int) -> str:
    """One INSERT of ``count`` moves: a single statement (no executemany, which psycopg runs
    in pipeline mode, and which a lost connection leaves in a state its rollback cannot
    leave), in the driver's own parameter style, no SQL compiled per call."""
    row = "({})".format(", ".join([_MARKS[style]] * 6))
    return (
        "INSERT INTO moves (game_id, version, seat, action, created_at, played_by) VALUES "
        + ", ".join([row] * count)
    )


def _write_moves(
    conn: sa.Connection,
    game_id: str,
    version: int,
    entries: Sequence[Entry],
    now: float,
    new_deals: Sequence[tuple[int, str, str]],
    finished: bool,
    deadline: float | None,
) -> None:
    if new_deals:
        conn.execute(
            deals.insert(),
            [{"game_id": game_id, "hand": h, "seed": s, "commitment": c} for h, s, c in new_deals],
        )
    if entries:
        # the hot path of every move: the driver's own statement, no SQL compiled per call
        values = _move_values(game_id, version, entries, now)
        conn.exec_driver_sql(_insert_moves(conn.dialect.paramstyle, len(entries)), tuple(values))
    changes = _row_changes(finished, deadline)
    if changes:
        conn.execute(games.update().where(games.c.id == game_id).values(**changes))


def _move_values(game_id: str, version: int, entries: Sequence[Entry], now: float) -> list[Any]:
    """The parameters of :func:`_insert_moves` for ``entries`` stored after ``version``."""
    values: list[Any] = []
    for offset, (seat, action, played_by) in enumerate(entries, start=1):
        values += (game_id, version + offset, seat, action, now, played_by)
    return values


def _row_changes(finished: bool, deadline: float | None) -> dict[str, Any]:
    """The game row's change that goes with a write: over (no deadline), or a new deadline
    (``KEEP``: none)."""
    if finished:
        return {"finished": True, "deadline": None}
    return {} if deadline is KEEP else {"deadline": deadline}


def _write_moves_at_once(
    conn: sa.Connection,
    game_id: str,
    version: int,
    entries: Sequence[Entry],
    now: float,
    new_deals: Sequence[tuple[int, str, str]],
    finished: bool,
    deadline: float | None,
) -> None:
    """What :func:`_write_moves` stores, as one PostgreSQL statement on a connection in
    autocommit mode: the new deals and the game row's change in data-modifying ``WITH``
    clauses around the moves' ``INSERT``. One statement is one transaction: a version taken
    by another writer (the primary key) fails it whole, deals and row change included."""
    mark = _MARKS[conn.dialect.paramstyle]
    params: list[Any] = []
    clauses = []
    if new_deals:
        row = f"({mark}, {mark}, {mark}, {mark})"
        clauses.append(
            "d AS (INSERT INTO deals (game_id, hand, seed, commitment) VALUES "
            + ", ".join([row] * len(new_deals))
            + ")"
        )
        for hand, seed, digest in new_deals:
            params += (game_id, hand, seed, digest)
    changes = _row_changes(finished, deadline)
    if changes:
        sets = ", ".join(f"{column} = {mark}" for column in changes)
        clauses.append(f"g AS (UPDATE games SET {sets} WHERE id = {mark})")
        params += [*changes.values(), game_id]
    params += _move_values(game_id, version, entries, now)
    head = f"WITH {', '.join(clauses)} " if clauses else ""
    conn.exec_driver_sql(head + _insert_moves(conn.dialect.paramstyle, len(entries)), tuple(params))


READ_ONLY_SQLSTATE = "25006"
"""PostgreSQL's ``read_only_sql_transaction``: a write reached a server that takes none (a
standby, or one in a failover before its promotion, or a database set read-only)."""


def is_transient(exc: BaseException) -> bool:
    """Whether a database error is worth a retry: a lost or refused connection, a server
    shutting down, a lock timeout, a server that takes no writes for now (a standby during a
    failover) - not a constraint violation or a bad statement. When the retries run out the
    client is told ``service/unavailable`` (503, try again), not that the server failed."""
    if isinstance(exc, sa.exc.IntegrityError):
        return False
    if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
        return True
    if getattr(getattr(exc, "orig", None), "sqlstate", None) == READ_ONLY_SQLSTATE:
        return True
    return isinstance(exc, sa.exc.OperationalError | sa.exc.InterfaceError)


_MIGRATION_LOCK = 0x67696E72
"""PostgreSQL advisory lock key held while migrating, so servers starting together on a
fresh database migrate it once (the others wait, then find it current)."""


def upgrade(engine: Engine) -> None:
    """Bring the database's schema to the newest migration."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        config.attributes["connection"] = conn
        _refuse_a_newer_schema(config, conn)
        command.upgrade(config, "head")


class NewerSchema(Exception):
    """The database's schema is at a migration this version does not have."""


def _refuse_a_newer_schema(config: Any, conn: sa.Connection) -> None:
    """A database a newer version migrated (then this older one started on it, after a
    rollback): a message that says so, not Alembic's "Can't locate revision identified by
    '...'"."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    for revision in MigrationContext.configure(conn).get_current_heads():
        if revision not in known:
            raise NewerSchema(
                f"its schema is at migration {revision!r}, which this version of ginrummy "
                "does not have: a newer version made it; run that one (or newer) on it"
            )


PING_IDLE_SECONDS = 5.0
"""A pooled PostgreSQL connection that has not been used for this long is pinged (one round
trip) before it is handed out, and replaced if the database dropped it (restarted, a proxy
or firewall closed it): as SQLAlchemy's ``pool_pre_ping``, but not for a connection used a
moment ago, so a move under load makes no round trip for it. A connection lost since its
last use fails its statement with a transient error, which the service retries."""


def _ping_idle_connections(engine: Engine) -> None:
    """Ping a connection taken from the pool after :data:`PING_IDLE_SECONDS` or more unused
    (see there); one that does not answer invalidates the pool, as a failed pre-ping does."""
    dialect = engine.dialect

    @sa.event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return  # new, or used a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as exc:
            raise sa.exc.InvalidatePoolError(f"a pooled connection did not answer: {exc}") from None


QUICK_WAIT = 0.005
"""Seconds a write from the event loop waits for another writer before it is handed to a
worker thread instead (which waits as long as it takes)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Write-ahead log: readers never wait for the writer, and a commit appends to the log
    instead of rewriting the file. ``synchronous=NORMAL`` in WAL mode keeps every committed
    transaction through a crash of the process (kill -9); only a power cut or an operating
    system crash may lose the last few commits (the database stays consistent either way)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def open_store(url: str) -> Store:
    """Open (creating and migrating as needed) the store at a SQLAlchemy URL or a file path.

    ``postgresql://...`` uses PostgreSQL (through psycopg); anything without ``://`` is a
    SQLite file path.
    """
    if "://" not in url:
        folder = Path(url).parent
        if not folder.is_dir():  # never make folders the caller did not ask for
            raise FileNotFoundError(f"no folder {str(folder)!r} for the database {url!r}")
        url = f"sqlite:///{url}"
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    # hide_parameters: a database error (logged with its traceback) names its statement but
    # not the values, which are a new deal's secret seed, players' names and token hashes
    if url.startswith("sqlite"):
        # no pre-ping: a local file does not drop its connection, and the ping is one more
        # statement on every transaction of every move
        engine = sa.create_engine(url, connect_args={"timeout": 30}, hide_parameters=True)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        # one connection for the event loop's writes, waiting at most QUICK_WAIT for a
        # writer in another thread (the loop must never sit in SQLite's busy wait)
        quick = sa.create_engine(
            url,
            connect_args={"timeout": QUICK_WAIT, "check_same_thread": False},
            pool_size=1,
            hide_parameters=True,
        )
        sa.event.listen(quick, "connect", _sqlite_pragmas)
        upgrade(engine)
        return Store(engine, quick)
    engine = sa.create_engine(
        url,
        hide_parameters=True,  # see above
        pool_size=10,
        max_overflow=10,
        connect_args={"connect_timeout": 10},  # a host that is down: an error, not a hang
    )
    _ping_idle_connections(engine)
    upgrade(engine)
    return Store(engine)
