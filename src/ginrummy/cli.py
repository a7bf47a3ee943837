"""The ``ginrummy`` command line.

Every command prints errors to stderr with a non-zero exit status, never a traceback (the
statuses are listed in :data:`EXIT_STATUSES` and in ``ginrummy --help``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import signal
import socket
import sys
import textwrap
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import click

from . import record as rec
from .ai import LEVELS, TEST_LEVELS
from .cards import format_cards, mask_of, parse_cards, sort_by_rank
from .engine.game import GameState
from .engine.hand import HandState
from .errors import GinRummyError
from .fairness import check_deal
from .melds import Arrangement, arrange_mask, best_discard_mask, deadwood_mask
from .playout import random_game
from .rules import Rules
from .terminal import bonus_table, play, shutout_reason

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

EXIT_STATUSES = """\b
Exit status:
  0    success (verify: every deal proven fair; play: the game left with q or
       at the end of input; serve: stopped with Ctrl-C or SIGTERM)
  1    an error in the input or the run: a bad card, hand or preset, an unknown
       AI level given as an argument (arena A B), a malformed, tampered or
       unproven record, a file that cannot be read or written, a server that
       cannot start (port in use, database unreachable), arena --cluster
       without Dask installed; one line on stderr: error: ...
  2    a usage error: an unknown command or option, a missing argument, a value
       not among an option's choices (play --level), of the wrong kind or out
       of range (--workers 0, --cluster local:0), options that exclude each
       other; on stderr the usage, where the help is, and Error: ...
  130  interrupted (Ctrl-C), but for serve
Messages about errors go to stderr."""

MAX_MESSAGE = 1000
"""Longest error message printed, in characters (the rest is cut)."""


def _error(message: str) -> None:
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    click.echo(f"error: {message}", err=True)


class _Main(click.Group):
    """The command group: our errors become ``error: ...`` on stderr and status 1, Ctrl-C
    becomes ``interrupted`` and status 130, and an unexpected exception a one-line message
    (``GINRUMMY_TRACEBACK=1`` shows its traceback)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GinRummyError as exc:
            _error(exc.message)
            raise click.exceptions.Exit(EXIT_ERROR) from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted" if _stderr_is_terminal() else "interrupted", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader of our output went away: say nothing
                raise
            if os.environ.get("GINRUMMY_TRACEBACK"):
                raise
            where = f" ({exc.filename})" if exc.filename else ""
            _error(f"{exc.strerror or exc}{where}")
            raise click.exceptions.Exit(EXIT_ERROR) from None
        except Exception as exc:
            if os.environ.get("GINRUMMY_TRACEBACK"):
                raise
            _error(
                f"internal error (a bug, please report it): {type(exc).__name__}: {exc} "
                "(GINRUMMY_TRACEBACK=1 shows where)"
            )
            raise click.exceptions.Exit(EXIT_ERROR) from None


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # no stderr, or a closed one
        return False


def _preset(name: str) -> Rules:
    """The preset ``name``; an empty name is refused (not taken for the default)."""
    if not name.strip():
        raise GinRummyError(
            f"no preset named (the name is empty); presets are {', '.join(Rules.PRESET_NAMES)}",
            "rules/unknown-preset",
        )
    return Rules.preset(name)


def _preset_option(func: Any) -> Any:
    return click.option(
        "--preset",
        default="tournament",
        show_default=True,
        metavar="NAME",
        help="Rules preset: tournament, classic, app or parlor.",
    )(func)


@click.group(
    cls=_Main,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EXIT_STATUSES,
)
@click.version_option(package_name="ginrummy")
def main() -> None:
    """Gin Rummy: analyze hands, show rules, replay and play games.

    Cards are written rank then suit: As 7h Td Kc (10h and suit symbols such as 7♥ are
    accepted too).
    """


main.add_command(play)


def _text_seed(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """A seed is hashed as UTF-8: refuse bytes that are not (they arrive as surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter("a seed is text; this one has bytes that are not UTF-8") from None
    return value


def _finite(_ctx: click.Context, param: click.Parameter, value: float) -> float:
    """Refuse ``nan`` and ``inf``, which float() reads and a range check lets through."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number")
    return value


def _cluster_address(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """A malformed or out-of-range ``--cluster`` is a usage error (status 2), as
    ``--workers 0`` is; whether Dask is installed is checked later (status 1)."""
    from .cluster import SHAPES, is_cluster_address

    if value is not None and not is_cluster_address(value):
        raise click.BadParameter(f"{value[:60]!r} is not a cluster; give {SHAPES}")
    return value


def _check_output(path: str, option: str) -> None:
    """Refuse, before any long work, an output file that cannot be written."""
    if not path:
        raise GinRummyError(f"{option}: no file name given")
    if "\0" in path:
        raise GinRummyError(f"cannot write {path!r}: a file name cannot hold a NUL character")
    if os.path.isdir(path):
        raise GinRummyError(f"cannot write {path}: it is a folder; give a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            raise GinRummyError(f"cannot write {path}: {folder} is a file, not a folder")
        raise GinRummyError(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (
        os.path.exists(path) and not os.access(path, os.W_OK)
    ):
        raise GinRummyError(f"cannot write {path}: permission denied")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise GinRummyError(f"cannot write {path}: {exc.strerror or exc}") from None


def _arrangement_lines(arr: Arrangement) -> list[str]:
    lines = [f"  meld     {format_cards(m)}" for m in arr.melds]
    dead = format_cards(arr.deadwood) if arr.deadwood else "(none)"
    lines.append(f"  deadwood {dead}  = {arr.deadwood_points}")
    return lines


@main.command()
@click.argument("cards", nargs=-1, required=True)
@_preset_option
def analyze(cards: tuple[str, ...], preset: str) -> None:
    """Show the deadwood-minimal arrangement of CARDS (1 to 11 cards).

    A hand is 10 cards, 11 after the draw: for eleven also the best discard and whether the
    hand can knock, go gin or has Big Gin; fewer cards are arranged as they are. Example:
    ginrummy analyze "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"
    """
    rules = _preset(preset)
    hand = parse_cards(" ".join(cards))
    if not hand:
        raise GinRummyError(
            "no cards given; a hand is 10 cards, or 11 after the draw", "card/parse"
        )
    if len(hand) > 11:
        raise GinRummyError(f"{len(hand)} cards given; a hand holds at most 11", "card/parse")
    mask = mask_of(hand)
    arr = arrange_mask(mask)
    count = "1 card" if len(hand) == 1 else f"{len(hand)} cards"
    click.echo(f"hand ({count}): {format_cards(sort_by_rank(hand))}")
    click.echo("\n".join(_arrangement_lines(arr)))
    if len(hand) == 11:
        dw, card = best_discard_mask(mask)
        kept = arrange_mask(mask & ~(1 << card))
        click.echo(f"best discard: {format_cards([card])}, leaving {dw} deadwood:")
        click.echo("\n".join(_arrangement_lines(kept)))
        if rules.big_gin and deadwood_mask(mask) == 0:
            verdict = f"Big Gin: all eleven cards melded (bonus {rules.big_gin_bonus})"
        elif dw == 0:
            verdict = f"gin: discard {format_cards([card])} and go gin"
        elif dw <= rules.knock_limit:
            verdict = f"can knock: {dw} deadwood, limit {rules.knock_limit}"
        else:
            verdict = f"cannot knock: {dw} deadwood is over the limit of {rules.knock_limit}"
        click.echo(verdict)


@main.command(name="rules")
@click.argument("preset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@click.option("--all", "show_all", is_flag=True, help="Print every preset (give no PRESET).")
def rules_command(preset: str | None, as_json: bool, show_all: bool) -> None:
    """Print a ruleset: PRESET is tournament (default), classic, app or parlor.

    The options of each preset are printed here; the full rules of the game, and what each
    option changes, are in docs/rules.md.
    """
    if show_all and preset is not None:
        raise click.UsageError(f"give a PRESET or --all, not both (got {preset!r} and --all)")
    names = Rules.PRESET_NAMES if show_all else ("tournament" if preset is None else preset,)
    chosen = [_preset(n) for n in names]
    if as_json:
        data: Any = [r.to_dict() for r in chosen] if show_all else chosen[0].to_dict()
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo("\n\n".join(r.describe() for r in chosen))


def _hand_lines(hand: HandState, number: int, verbose: bool) -> list[str]:
    out = [f"hand {number}: dealer seat {hand.dealer}, upcard {hand.upcard}"]
    if verbose:
        for e in hand.history:
            drawn = f" ({e.card})" if e.card is not None else ""
            out.append(f"  seat {e.seat}: {e.action}{drawn}")
    else:
        out.append(f"  {hand.action_count} actions")
    r = hand.result
    if r is None:
        out.append("  (in progress)")
        return out
    for seat in (0, 1):
        role = ""
        if r.knocker is not None:
            role = " (knocker)" if seat == r.knocker else " (defender)"
        out.append(f"  seat {seat}{role}:")
        out.extend("  " + line for line in _arrangement_lines(r.arrangements[seat]))
    if r.layoffs:
        laid = ", ".join(
            f"{lo.card} on {format_cards(r.arrangements[r.knocker or 0].melds[lo.meld])}"
            for lo in r.layoffs
        )
        out.append(f"  laid off: {laid}")
    out.append(f"  {r.explain()}")
    return out


def _game_over_lines(game: GameState) -> list[str]:
    """The end of a finished game as ``play`` shows it (:func:`ginrummy.terminal.bonus_table`:
    the hand points with a shutout's doubling, each bonus with its amounts, the grand totals;
    then the shutout's reason), the seats named seat 0 and seat 1."""
    outcome, rules = game.outcome, game.rules
    assert outcome is not None
    crosser = outcome.crosser
    columns = [(0, "seat 0"), (1, "seat 1")]
    lines = bonus_table(outcome, rules, game.points, game.hands_won, columns)
    lines.append(f"seat {crosser} reached the target of {rules.target} first")
    if outcome.shutout:
        lines.append(shutout_reason(rules, f"seat {1 - crosser}", f"seat {crosser}'s"))
    lines.append("drawn game" if outcome.winner is None else f"seat {outcome.winner} wins")
    return ["game over:", *(f"  {line}" for line in lines)]


def _read_record(path: str) -> bytes:
    """The bytes of a record file, or of standard input for ``-``."""
    if path == "-":
        stream: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise GinRummyError("there is no standard input to read", "record/invalid")
        if stream.isatty():
            raise GinRummyError(
                "standard input is a terminal: pipe a record into it (e.g. - < game.json)",
                "record/invalid",
            )
        return rec.read_bytes(stream, "standard input")
    if not path:
        raise GinRummyError("no record file given (the name is empty)", "record/invalid")
    return rec.read_bytes(path)


@main.command()
@click.argument("record_file", metavar="RECORD.json")
@click.option("--actions/--no-actions", default=False, show_default=True, help="List every action.")
def replay(record_file: str, actions: bool) -> None:
    """Verify a game record and print the game hand by hand (- reads standard input)."""
    record = rec.loads(_read_record(record_file))
    game = rec.replay(record)
    click.echo(f"rules: {record.rules.name}; first dealer seat {record.first_dealer}")
    points = [0, 0]
    for number, hand in enumerate(game.finished_hands, start=1):
        click.echo("\n".join(_hand_lines(hand, number, actions)))
        r = hand.result
        if r is not None and r.winner is not None:
            points[r.winner] += r.points
        click.echo(f"  score: seat 0 {points[0]}, seat 1 {points[1]}")
    if game.hand is not None and not game.hand.is_over:
        click.echo("\n".join(_hand_lines(game.hand, game.hand_number, actions)))
    if game.outcome is not None:
        click.echo("\n".join(_game_over_lines(game)))


@main.command()
@click.argument("record_file", metavar="RECORD.json")
def verify(record_file: str) -> None:
    """Check that every deal of a game record was fair (- reads standard input).

    For each hand: the revealed shuffle seed matches the commitment published before the
    deal, and it reproduces the deck that was played; then the whole game is replayed. Exit
    status 0 only when every hand is proven fair.
    """
    record = rec.from_dict(rec.parse_json(_read_record(record_file)))
    if not record.hands:
        raise GinRummyError("the record has no hands: there is no deal to verify", "record/unfair")
    failed = False
    for number, hand in enumerate(record.hands, start=1):
        if hand.seed is None or hand.commitment is None:
            missing = [
                what
                for what, value in (("commitment", hand.commitment), ("seed", hand.seed))
                if value is None
            ]
            click.echo(f"hand {number}: NOT VERIFIABLE: no {' and no '.join(missing)} recorded")
            failed = True
            continue
        problems = check_deal(hand.commitment, hand.seed, hand.deck)
        if problems:
            click.echo(f"hand {number}: UNFAIR: " + "; ".join(problems))
            failed = True
        else:
            click.echo(
                f"hand {number}: fair: seed matches commitment {hand.commitment[:16]}... "
                "and reproduces the deck"
            )
    rec.replay(record)
    click.echo(f"replayed {len(record.hands)} hands: every action legal, every score matches")
    if failed:
        raise GinRummyError("the record does not prove every deal fair", "record/unfair")


@main.command()
@click.option(
    "--seed",
    default="1",
    show_default=True,
    callback=_text_seed,
    help="Seed for the deals and the moves (any text).",
)
@_preset_option
@click.option(
    "--out",
    "out_file",
    metavar="FILE",
    help="Write the record to FILE (in a folder that exists) instead of printing it (- prints it).",
)
def selfplay(seed: str, preset: str, out_file: str | None) -> None:
    """Play one game by random legal actions (for testing) and print or save its record."""
    rules = _preset(preset)
    if out_file == "-":
        out_file = None
    if out_file is not None:
        _check_output(out_file, "--out")
    game = random_game(rules, seed)
    text = rec.dumps(rec.record_of(game))
    if out_file is not None:
        _write(out_file, text)
        click.echo(f"{game.hand_number} hands, the record written to {out_file}")
        click.echo("\n".join(_game_over_lines(game)))
    else:
        click.echo(text, nl=False)


def _level_list() -> str:
    """The levels ``arena`` plays, from :data:`ginrummy.ai.LEVELS` and :data:`TEST_LEVELS`
    (so that the help never falls behind them), as a paragraph click prints as it is: wrapped
    here without breaking a name such as master-2026-11 at its hyphens."""
    text = f"A and B are levels: {', '.join(LEVELS)}; and, for measuring: {', '.join(TEST_LEVELS)}."
    return "\b\n" + textwrap.fill(text, width=76, break_on_hyphens=False)


ARENA_HELP = (
    "Play AI level A against level B on duplicate deals (every deck twice, seats swapped).\n\n"
    + _level_list()
    + """

--deals N plays N deal pairs (default 200); --games N plays N pairs of whole games to the
target instead. Prints points per hand with a 95 % confidence interval, the game win rate
(with --games, with its 95 % Wilson interval) and each side's style. Reproducible from
--seed whatever --workers is. Ctrl-C stops the match (status 130).
"""
)


@main.command(help=ARENA_HELP)
@click.argument("level_a", metavar="A")
@click.argument("level_b", metavar="B")
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Play N duplicate deal pairs (200 unless --games is given).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Play N duplicate pairs of whole games to the target instead of deals.",
)
@_preset_option
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes playing at once.",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    default=None,
    callback=_cluster_address,
    help="Play on a Dask cluster instead: local:N (N worker processes here) or a "
    "scheduler's address, tcp://HOST:8786. Same results as a serial run. Needs "
    "pip install 'ginrummy[cluster]'.",
)
@click.option(
    "--seed",
    default="1",
    show_default=True,
    callback=_text_seed,
    help="Seed for the deals and the AIs (any text).",
)
@click.option(
    "--json",
    "json_file",
    metavar="FILE",
    help="Also write the results to FILE as JSON (in a folder that exists).",
)
@click.option(
    "--progress/--no-progress",
    default=True,
    show_default=True,
    help="Show a progress bar on stderr (only ever when stderr is a terminal).",
)
def arena(
    level_a: str,
    level_b: str,
    deals: int | None,
    games: int | None,
    preset: str,
    workers: int,
    cluster: str | None,
    seed: str,
    json_file: str | None,
    progress: bool,
) -> None:
    from .arena import json_safe, run_arena

    if deals is not None and games is not None:
        raise click.UsageError("give --deals or --games, not both")
    for level in (level_a, level_b):
        if level not in LEVELS and level not in TEST_LEVELS:
            raise GinRummyError(
                f"unknown AI level {level!r}; levels are {', '.join(LEVELS)} (and for "
                f"measuring: {', '.join(TEST_LEVELS)})"
            )
    rules = _preset(preset)
    if json_file is not None:
        _check_output(json_file, "--json")
    if cluster is not None:
        from .cluster import check_cluster

        if workers != 1:
            raise click.UsageError("give --workers or --cluster, not both")
        check_cluster(cluster)
    try:
        result = run_arena(
            level_a,
            level_b,
            rules,
            deals=0 if games is not None else (deals or 200),
            games=games or 0,
            seed=seed,
            workers=workers,
            progress=progress,
            cluster=cluster,
        )
    except RuntimeError as exc:  # a hand that never ends (see arena.MAX_HAND_ACTIONS)
        raise GinRummyError(str(exc)) from None
    click.echo("\n".join(result.lines(big_gin=rules.big_gin)))
    if json_file is not None:
        _write(json_file, json.dumps(json_safe(result.to_dict()), indent=2, allow_nan=False))


_DB_KINDS = "a SQLite file path or a postgresql://user@host/database URL"


def _check_db(db: str | None) -> tuple[str, str]:
    """The ``--db`` to open and how to show it (never its password), or a clear error: only
    SQLite and PostgreSQL are supported, and a SQLite file goes in a folder that exists
    (the default data folder is created)."""
    if db is None:
        import platformdirs

        folder = platformdirs.user_data_path("ginrummy")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GinRummyError(
                f"cannot create the data folder {folder}: {exc.strerror or exc}"
            ) from None
        db = str(folder / "games.db")
        return db, db
    if not db.strip():
        raise GinRummyError(f"--db is empty; give {_DB_KINDS}")
    if "://" in db:
        scheme, rest = db.split("://", 1)
        scheme = scheme.lower()  # a scheme is the same in any case; SQLAlchemy wants it lower
        # never print a password: the user and password before @, the query after ?
        shown = f"{scheme}://{rest.rsplit('@', 1)[-1].split('?', 1)[0]}"
        if scheme in ("postgresql", "postgresql+psycopg"):
            authority = rest.split("/", 1)[0].split("?", 1)[0]
            if authority.count("@") > 1:  # the driver would take the rest for the host
                raise GinRummyError(
                    f"--db {shown}: write an @ in the user or password as %40 (the URL has "
                    "more than one)"
                )
            try:
                urlsplit(f"{scheme}://{authority}").port  # noqa: B018 (parsed to check it)
            except ValueError as exc:
                raise GinRummyError(f"--db {shown} is not a valid URL: {exc}") from None
            return f"{scheme}://{rest}", shown
        if scheme == "postgres":
            raise GinRummyError(
                f"--db {shown}: write postgresql:// for PostgreSQL (postgres:// is not taken)"
            )
        hint = " (for SQLite give the file path itself)" if scheme.startswith("sqlite") else ""
        raise GinRummyError(
            f"unsupported database {scheme}://...{hint}: SQLite and PostgreSQL are supported; "
            f"--db takes {_DB_KINDS}"
        )
    path = Path(db)
    if path.is_dir():
        raise GinRummyError(f"--db {db} is a folder; give a file in it, e.g. {path / 'games.db'}")
    folder = path.parent
    if not folder.is_dir():
        if folder.exists():
            raise GinRummyError(f"--db {db}: {folder} is a file, not a folder")
        raise GinRummyError(f"--db {db}: the folder {folder} does not exist (create it first)")
    return db, db


def _reason(exc: BaseException) -> str:
    """The first line of a database error, without SQLAlchemy's wrapping."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip() or type(exc).__name__
    return text.splitlines()[0].strip()


def _check_postgres(url: str, shown: str) -> None:
    """Connect once (giving up after 10 s) so that an unreachable server is a message."""
    import sqlalchemy as sa

    engine = None
    try:
        engine = sa.create_engine(
            "postgresql+psycopg://" + url.split("://", 1)[1],
            connect_args={"connect_timeout": 10},
            poolclass=sa.pool.NullPool,
        )
        with engine.connect():
            pass
    except Exception as exc:
        raise GinRummyError(f"cannot connect to the database at {shown}: {_reason(exc)}") from None
    finally:
        if engine is not None:
            engine.dispose()


def _check_redis(url: str) -> str:
    """Reach Redis once (giving up after 5 s) so that a wrong or unreachable one is a clear
    message; returns how to show it (never a password)."""
    import redis

    shown = url.split("@", 1)[-1] if "@" in url else url
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise GinRummyError(f"--redis takes a redis://HOST:PORT/N URL, not {shown[:60]!r}")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        raise GinRummyError(f"cannot reach Redis at {shown}: {_reason(exc)}") from None
    return shown


def _each_as(pattern: str) -> Any:
    """A callback for a repeated option: each value as ``ginrummy.server.security``'s
    ``pattern`` writes it (``host_pattern``: as the Host check compares it; ``origin_pattern``:
    as a browser writes an Origin), or a usage error saying why it could never match."""

    def convert(
        _ctx: click.Context, _param: click.Parameter, value: tuple[str, ...]
    ) -> tuple[str, ...]:
        from .server import security

        try:
            return tuple(getattr(security, pattern)(item) for item in value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    return convert


def _check_port(host: str, port: int) -> None:
    """Bind to HOST:PORT as the server will (then let go), so that a port in use or an
    address not of this machine is a clear error before anything is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            sock.bind((host, port))
    except socket.gaierror:
        raise GinRummyError(f"cannot listen on {host!r}: no such host or address") from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            what = "is already in use (another server?); choose another with --port"
            raise GinRummyError(f"port {port} on {host} {what}") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise GinRummyError(
                f"cannot listen on {host}: not an address of this machine"
            ) from None
        if exc.errno == errno.EACCES:
            raise GinRummyError(
                f"cannot listen on port {port}: permission denied (ports below 1024 need "
                "special rights)"
            ) from None
        raise GinRummyError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--db",
    default=None,
    metavar="PATH|URL",
    help="Where games are stored: a SQLite file path (in a folder that exists) or a "
    "postgresql://user@host/database URL (default: games.db in the user's data directory, "
    "created if need be).",
)
@click.option(
    "--max-rate",
    type=click.FloatRange(min=0.1),
    callback=_finite,
    default=10.0,
    show_default=True,
    help="Messages a second each WebSocket may send (bursts of twice that).",
)
@click.option(
    "--http-rate",
    type=click.FloatRange(min=0.1),
    callback=_finite,
    default=20.0,
    show_default=True,
    help="Requests a second to the API (/api/...) each client address may make (bursts of "
    "three times that); the table's pages and files are not counted.",
)
@click.option(
    "--create-rate",
    type=click.FloatRange(min=0.1),
    callback=_finite,
    default=20.0,
    show_default=True,
    help="Games and players each client address may create a minute (bursts of 1.5 times).",
)
@click.option(
    "--connections-per-client",
    type=click.IntRange(min=1),
    default=32,
    show_default=True,
    help="WebSocket connections one client address may hold at once (people behind one "
    "address share it).",
)
@click.option(
    "--ws-compression/--no-ws-compression",
    default=False,
    show_default=True,
    help="Compress WebSocket messages (permessage-deflate): views shrink from 3-13 KB to "
    "about a fifth, at about 0.25 ms of server CPU per move (most of its work); for slow "
    "links.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Server processes on this machine, behind the one port (more than 1 needs --redis).",
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help="redis://HOST:PORT/N: run as one of several server processes on one database "
    "(PostgreSQL), telling each other of every stored move over Redis (docs/protocol.md). "
    "Without it the server runs alone.",
)
@click.option(
    "--forwarded-allow-ips",
    default=None,
    help="Addresses of proxies in front of the server whose X-Forwarded-For header names the "
    "client (comma-separated; default: 127.0.0.1): rates and caps are then per person, not "
    "per proxy.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    callback=_each_as("host_pattern"),
    metavar="NAME",
    help="A Host name the server answers to, without a port (example.org; *.example.org for "
    "its subdomains; repeat for several; default: the loopback names when listening on a "
    "loopback address, any name otherwise). The address it listens on is always answered.",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    callback=_each_as("origin_pattern"),
    metavar="ORIGIN",
    help="A web origin (https://example.org) besides the server's own whose pages may open "
    "its WebSockets (repeat for several).",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    max_rate: float,
    http_rate: float,
    create_rate: float,
    connections_per_client: int,
    ws_compression: bool,
    workers: int,
    redis_url: str | None,
    forwarded_allow_ips: str | None,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
) -> None:
    """Start the game server on http://HOST:PORT, storing every game in --db.

    Ctrl-C or SIGTERM stops it (status 0): its WebSockets are closed at once, requests in
    progress get 10 s.
    """
    import uvicorn

    from .server.app import configure_logging, create_app
    from .server.handled import UVICORN_LOGGING, HandledErrors
    from .server.limits import Limits
    from .server.security import default_hosts
    from .server.service import GameService
    from .server.store import open_store
    from .server.transport import TimedH11Protocol
    from .server.websocket import protocol_class

    if workers > 1 and redis_url is None:
        raise click.UsageError(
            "--workers more than 1 needs --redis: the workers tell each other of every move "
            "through it"
        )
    db, shown = _check_db(db)
    _check_port(host, port)
    configure_logging()
    if "://" in db:
        _check_postgres(db, shown)
    if redis_url is not None:
        _check_redis(redis_url)
    limits = Limits(
        ws_rate=max_rate,
        ws_burst=2 * max_rate,
        http_rate=http_rate,
        http_burst=3 * http_rate,
        create_per_minute=create_rate,
        create_burst=1.5 * create_rate,
        connections_per_client=connections_per_client,
    )
    try:
        store = open_store(db)
    except Exception as exc:  # the driver's, SQLAlchemy's or the migrations' error
        raise GinRummyError(f"cannot open the database at {shown}: {_reason(exc)}") from None
    hosts = default_hosts(host, allowed_hosts)
    app: Any
    if workers > 1:  # each worker builds its own app from these settings
        import dataclasses

        from .server.app import SERVE_SETTINGS

        store.engine.dispose()
        os.environ[SERVE_SETTINGS] = json.dumps(
            {
                "db": db,
                "limits": dataclasses.asdict(limits),
                "allowed_hosts": hosts,
                "allowed_origins": list(allowed_origins),
                "redis_url": redis_url,
            }
        )
        app = "ginrummy.server.handled:app_from_environment"
    else:
        app = HandledErrors(
            create_app(
                GameService(store),
                limits,
                allowed_hosts=hosts,
                allowed_origins=allowed_origins,
                redis_url=redis_url,
            )
        )
    address = f"[{host}]" if ":" in host else host
    click.echo(f"ginrummy server on http://{address}:{port}, games stored in {shown}")
    import gc

    # Everything loaded so far lives as long as the server: out of the collector's sight. A
    # move makes a few thousand short-lived objects (views, messages); collecting the
    # youngest generation every 700 allocations cost a few percent of every move.
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    # uvicorn stops gracefully on SIGTERM as on Ctrl-C, then sends itself the signal again
    # for the handler it found: the default one killed the process (status 143, where
    # Ctrl-C and --workers N give 0); ours ends it as a stop.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level=None,  # the levels are UVICORN_LOGGING's
            log_config=UVICORN_LOGGING,
            access_log=False,
            ws_max_size=limits.ws_max_frame_bytes,
            ws_ping_interval=20,
            ws_per_message_deflate=ws_compression,
            ws=protocol_class(),
            forwarded_allow_ips=forwarded_allow_ips,
            ws_ping_timeout=20,
            # a stop waits this long for requests in progress, then cuts them: a client
            # sending its body a byte at a time held the server up for as long as it liked
            timeout_graceful_shutdown=STOP_SECONDS,
            # h11, not httptools (uvicorn's choice when it is installed): httptools takes a
            # request line and headers of any size (100 MB of headers cost 100 MB of memory
            # a connection); h11 holds at most 16 KiB of an incomplete head; ours also cuts
            # one slower than 10 s
            http=TimedH11Protocol,
            h11_max_incomplete_event_size=16 * 1024,
            workers=workers if workers > 1 else None,
            factory=workers > 1,
        )
    except _Terminated:
        pass
    except SystemExit as exc:  # uvicorn's own "could not start" (status 3): ours is 1
        if exc.code not in (None, 0):
            raise GinRummyError("the server could not start (the reason is above)") from None
        raise
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_past_stuck_threads(THREAD_SECONDS)


STOP_SECONDS = 10
"""How long ``serve``, told to stop, waits for the requests in progress (its WebSockets are
closed at once)."""
THREAD_SECONDS = 5
"""How much longer a request cut at a stop may go on in its thread (waiting for the
database) before the process ends without it."""


def _end_past_stuck_threads(seconds: float) -> None:
    """Once the server has stopped: the threads still at work (a request cut at the stop,
    its thread still waiting for a database someone else holds) get ``seconds``; then the
    process ends without them, as a kill would end it (every move is stored in one
    transaction, so nothing is half-written). Python would wait for them for as long as
    the database kept them."""
    import logging
    import threading
    import time

    deadline = time.monotonic() + seconds

    def working() -> list[threading.Thread]:
        main = threading.main_thread()
        return [t for t in threading.enumerate() if t is not main and not t.daemon and t.is_alive()]

    for thread in working():
        thread.join(max(0.0, deadline - time.monotonic()))
    stuck = working()
    if stuck:
        logging.getLogger("ginrummy.server").warning(
            "stopped with %d request(s) still waiting for the database", len(stuck)
        )
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(EXIT_OK)


class _Terminated(Exception):
    """SIGTERM came: the server is to stop (status 0)."""


def _terminated(_signum: int, _frame: Any) -> None:
    raise _Terminated


if __name__ == "__main__":  # pragma: no cover
    main()
