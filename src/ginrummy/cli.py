"""The ``ginrummy`` command line.

Every command prints errors to stderr with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from . import record as rec
from .cards import format_cards, mask_of, parse_cards, sort_by_rank
from .engine.hand import HandState
from .errors import GinRummyError
from .fairness import check_deal
from .melds import Arrangement, arrange_mask, best_discard_mask, deadwood_mask
from .playout import random_game
from .rules import Rules
from .terminal import play

F = TypeVar("F", bound=Callable[..., Any])


def _friendly(func: F) -> F:
    """Turn our errors into a message on stderr and exit status 1."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GinRummyError as exc:
            click.echo(f"error: {exc.message}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _preset_option(func: F) -> F:
    return click.option(
        "--preset",
        default="tournament",
        show_default=True,
        metavar="NAME",
        help="Rules preset: tournament, classic, app or parlor.",
    )(func)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ginrummy")
def main() -> None:
    """Gin Rummy: analyse hands, show rules, replay and play games.

    Cards are written rank then suit: As 7h Td Kc (10h and suit symbols such as 7♥ are
    accepted too).
    """


main.add_command(play)


def _arrangement_lines(arr: Arrangement) -> list[str]:
    lines = [f"  meld     {format_cards(m)}" for m in arr.melds]
    dead = format_cards(arr.deadwood) if arr.deadwood else "(none)"
    lines.append(f"  deadwood {dead}  = {arr.deadwood_points}")
    return lines


@main.command()
@click.argument("cards", nargs=-1, required=True)
@_preset_option
@_friendly
def analyze(cards: tuple[str, ...], preset: str) -> None:
    """Show the deadwood-minimal arrangement of 0-11 CARDS.

    For eleven cards also the best discard and whether the hand can knock, go gin or has
    Big Gin. Example: ginrummy analyze "As 2s 3s 7h 7d 7c Kd Qd Jd 5c"
    """
    rules = Rules.preset(preset)
    hand = parse_cards(" ".join(cards))
    if len(hand) > 11:
        raise GinRummyError(f"{len(hand)} cards given; a hand holds at most 11", "card/parse")
    mask = mask_of(hand)
    arr = arrange_mask(mask)
    click.echo(f"hand ({len(hand)} cards): {format_cards(sort_by_rank(hand))}")
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
@click.argument("preset", required=False, default="tournament")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@click.option("--all", "show_all", is_flag=True, help="Print every preset.")
@_friendly
def rules_command(preset: str, as_json: bool, show_all: bool) -> None:
    """Print a ruleset: PRESET is tournament (default), classic, app or parlor."""
    names = Rules.PRESET_NAMES if show_all else (preset,)
    chosen = [Rules.preset(n) for n in names]
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


@main.command()
@click.argument("record_file", metavar="RECORD.json", type=click.Path(dir_okay=False))
@click.option("--actions/--no-actions", default=False, help="List every action.")
@_friendly
def replay(record_file: str, actions: bool) -> None:
    """Verify a game record and print the game hand by hand."""
    record = rec.load(record_file)
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
        click.echo("game over:")
        for line in game.outcome.explain():
            click.echo(f"  {line}")


@main.command()
@click.argument("record_file", metavar="RECORD.json", type=click.Path(dir_okay=False))
@_friendly
def verify(record_file: str) -> None:
    """Check that every deal of a game record was fair.

    For each hand: the revealed shuffle seed matches the commitment published before the
    deal, and it reproduces the deck that was played; then the whole game is replayed. Exit
    status 0 only when every hand is proven fair.
    """
    try:
        with open(record_file, "rb") as f:
            data = json.loads(f.read(rec.MAX_RECORD_BYTES + 1))
    except OSError as exc:
        raise GinRummyError(
            f"cannot read {record_file}: {exc.strerror}", "record/invalid"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GinRummyError(f"not valid JSON: {exc}", "record/invalid") from None
    record = rec.from_dict(data)
    failed = False
    for number, hand in enumerate(record.hands, start=1):
        if hand.seed is None or hand.commitment is None:
            click.echo(f"hand {number}: NOT VERIFIABLE: no commitment and seed recorded")
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
@click.option("--seed", default="1", show_default=True, help="Seed for the deals and the moves.")
@_preset_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="Write the record here.")
@_friendly
def selfplay(seed: str, preset: str, out_file: str | None) -> None:
    """Play one game by random legal actions (for testing) and print or save its record."""
    game = random_game(Rules.preset(preset), seed)
    text = rec.dumps(rec.record_of(game))
    if out_file:
        with open(out_file, "w", encoding="utf-8") as f:
            f.write(text)
        assert game.outcome is not None
        click.echo(f"{game.hand_number} hands; " + "; ".join(game.outcome.explain()))
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("level_a", metavar="A")
@click.argument("level_b", metavar="B")
@click.option("--deals", type=click.IntRange(min=0), default=0, help="Duplicate deal pairs.")
@click.option("--games", type=click.IntRange(min=0), default=0, help="Duplicate game pairs.")
@_preset_option
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", default="1", show_default=True)
@click.option("--json", "json_file", type=click.Path(dir_okay=False), help="Write results here.")
@click.option("--progress/--no-progress", default=True, help="Show a progress bar.")
@_friendly
def arena(
    level_a: str,
    level_b: str,
    deals: int,
    games: int,
    preset: str,
    workers: int,
    seed: str,
    json_file: str | None,
    progress: bool,
) -> None:
    """Play AI level A against level B on duplicate deals (every deck twice, seats swapped).

    --deals N plays N deal pairs (default 200); --games N plays N pairs of whole games to the
    target instead. Prints points per hand with a 95 % confidence interval, the game win rate
    (with --games) and each side's style. Reproducible from --seed whatever --workers is.
    """
    from .ai import LEVELS
    from .arena import run_arena

    for level in (level_a, level_b):
        if level not in LEVELS:
            raise GinRummyError(f"unknown AI level {level!r}; levels are {', '.join(LEVELS)}")
    if deals and games:
        raise GinRummyError("give --deals or --games, not both")
    result = run_arena(
        level_a,
        level_b,
        Rules.preset(preset),
        deals=deals or (0 if games else 200),
        games=games,
        seed=seed,
        workers=workers,
        progress=progress,
    )
    click.echo("\n".join(result.lines()))
    if json_file:
        with open(json_file, "w", encoding="utf-8") as f:
            json.dump(result.to_dict(), f, indent=2, default=str)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--db",
    default=None,
    help="A SQLite file path or a postgresql://... URL (default: games.db in the user's "
    "data directory).",
)
@click.option(
    "--max-rate",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Messages a second each WebSocket may send (bursts of twice that).",
)
@click.option(
    "--http-rate",
    type=click.FloatRange(min=0.1),
    default=20.0,
    show_default=True,
    help="HTTP requests a second each client address may make (bursts of three times that).",
)
@click.option(
    "--create-rate",
    type=click.FloatRange(min=0.1),
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
    help="A Host name the server answers to (repeat for several; default: the loopback names "
    "when listening on a loopback address, any name otherwise).",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    help="A web origin (https://example.org) besides the server's own whose pages may open "
    "its WebSockets (repeat for several).",
)
@_friendly
def serve(
    host: str,
    port: int,
    db: str | None,
    max_rate: float,
    http_rate: float,
    create_rate: float,
    connections_per_client: int,
    ws_compression: bool,
    forwarded_allow_ips: str | None,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
) -> None:
    """Start the game server on http://HOST:PORT, storing every game in --db."""
    import platformdirs
    import uvicorn

    from .server.app import create_app
    from .server.limits import Limits
    from .server.security import default_hosts
    from .server.service import GameService
    from .server.store import open_store
    from .server.websocket import protocol_class

    if db is None:
        db = str(platformdirs.user_data_path("ginrummy") / "games.db")
    shown = db.split("@")[-1] if "://" in db else db  # never print a password
    limits = Limits(
        ws_rate=max_rate,
        ws_burst=2 * max_rate,
        http_rate=http_rate,
        http_burst=3 * http_rate,
        create_per_minute=create_rate,
        create_burst=1.5 * create_rate,
        connections_per_client=connections_per_client,
    )
    app = create_app(
        GameService(open_store(db)),
        limits,
        allowed_hosts=default_hosts(host, allowed_hosts),
        allowed_origins=allowed_origins,
    )
    click.echo(f"ginrummy server on http://{host}:{port}, games stored in {shown}")
    import gc

    # Everything loaded so far lives as long as the server: out of the collector's sight. A
    # move makes a few thousand short-lived objects (views, messages); collecting the
    # youngest generation every 700 allocations cost a few percent of every move.
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=limits.ws_max_frame_bytes,
        ws_ping_interval=20,
        ws_per_message_deflate=ws_compression,
        ws=protocol_class(),
        forwarded_allow_ips=forwarded_allow_ips,
        ws_ping_timeout=20,
        h11_max_incomplete_event_size=16 * 1024,
    )


if __name__ == "__main__":  # pragma: no cover
    main()
