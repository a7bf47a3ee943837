"""AI-vs-AI matches with duplicate deals, and their statistics.

Duplicate: every deck is played twice with the seats swapped, so the luck of the cards cancels
out; the unit of the statistics is the deal pair (or the game pair). Deal ``i`` uses the deck
``shuffled_deck(f"{seed}/deal/{i}")`` with dealer ``i % 2``; game ``j`` deals hand ``h`` from
``f"{seed}/game/{j}/hand/{h}"`` with the first dealer cut from ``f"{seed}/game/{j}"``. Players
are seeded from the same strings, so results do not depend on the number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from .ai import player
from .cards import shuffled_deck
from .engine.game import GameState, cut_for_deal
from .engine.hand import HandState, deal
from .rules import Rules


@dataclass(slots=True)
class HandSummary:
    """One hand from side A's point of view."""

    net: int
    """Points won by side A minus points won by side B."""
    kind: str
    a_knocked: bool
    b_knocked: bool
    a_deadwood_at_knock: int | None
    b_deadwood_at_knock: int | None
    draws: int


MAX_HAND_ACTIONS = 2000
"""A hand has at most about 70 actions unless both players keep taking each other's
discards from the pile, which the rules allow for ever: past this many actions the arena
stops with an error naming the deal instead of running out of memory."""


def _check_length(hand: HandState, where: str) -> None:
    if hand.action_count > MAX_HAND_ACTIONS:
        raise RuntimeError(
            f"{where}: over {MAX_HAND_ACTIONS} actions in one hand (the players are cycling "
            "through the pile)"
        )


def _play_hand(state: HandState, players: dict[int, Any], where: str = "a hand") -> HandState:
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(players[seat].choose(state.view(seat)), seat)
        _check_length(state, where)
    return state


def _summary(state: HandState, a_seat: int) -> HandSummary:
    r = state.result
    assert r is not None
    net = 0 if r.winner is None else (r.points if r.winner == a_seat else -r.points)
    k = r.knocker
    draws = sum(1 for e in state.history if e.action in ("stock", "pile", "take"))
    at_knock = None if k is None or r.kind in ("gin", "big-gin") else r.deadwood[k]
    return HandSummary(
        net=net,
        kind=r.kind,
        a_knocked=k == a_seat,
        b_knocked=k == 1 - a_seat,
        a_deadwood_at_knock=at_knock if k == a_seat else None,
        b_deadwood_at_knock=at_knock if k == 1 - a_seat else None,
        draws=draws,
    )


@dataclass(frozen=True, slots=True)
class Job:
    a: str
    b: str
    rules: Rules
    seed: str


def dealt_hand(job: Job, i: int) -> HandState:
    """Deal ``i`` of ``job`` before its first action (the same for both seatings)."""
    return deal(job.rules, i % 2, shuffled_deck(f"{job.seed}/deal/{i}"))


def seated_players(
    job: Job, i: int, a_seat: int, make_a: Callable[[str], Any] | None = None
) -> dict[int, Any]:
    """The players of deal ``i`` with A in ``a_seat``, by seat, seeded as the arena seeds
    them; ``make_a`` (given A's seed) makes another player to sit in A's place, for a
    diagnostic that watches A's decisions."""
    tag = _deal_tag(job, i, a_seat)
    a = player(job.a, f"{tag}/a") if make_a is None else make_a(f"{tag}/a")
    return {a_seat: a, 1 - a_seat: player(job.b, f"{tag}/b")}


def _deal_tag(job: Job, i: int, a_seat: int) -> str:
    return f"{job.seed}/deal/{i}/{a_seat}"


def deal_pair_states(job: Job, i: int) -> list[HandState]:
    """Deal ``i`` played twice, A in seat 0, then A in seat 1: the hands as they ended."""
    start = dealt_hand(job, i)
    return [
        _play_hand(start, seated_players(job, i, a_seat), _deal_tag(job, i, a_seat))
        for a_seat in (0, 1)
    ]


def play_deal_pair(job: Job, i: int) -> list[HandSummary]:
    """Deal ``i`` twice: A in seat 0, then A in seat 1."""
    return [_summary(state, a_seat) for a_seat, state in enumerate(deal_pair_states(job, i))]


@dataclass(slots=True)
class GameSummary:
    """One game from side A's point of view."""

    a_won: float
    """1 for a win, 0 for a loss, 0.5 for a drawn game."""
    hands: list[HandSummary]


def play_game(job: Job, j: int, a_seat: int) -> GameState:
    """Game ``j`` of ``job`` with A in ``a_seat``, played to its end (every hand's deck and
    each side's player seeded from the game's tag)."""
    tag = f"{job.seed}/game/{j}"
    players = {
        a_seat: player(job.a, f"{tag}/{a_seat}/a"),
        1 - a_seat: player(job.b, f"{tag}/{a_seat}/b"),
    }
    game = GameState.new(job.rules, cut_for_deal(tag))
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_seeded(f"{tag}/hand/{game.hand_number}")
            continue
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        game = game.apply(players[seat].choose(hand.view(seat)), seat)
        if game.hand is not None:
            _check_length(game.hand, f"game {tag}, hand {game.hand_number}")
        if game.hand_number > 2000:
            raise RuntimeError("a game ran over 2000 hands")
    return game


def play_game_pair(job: Job, j: int) -> list[GameSummary]:
    """Game ``j`` twice with the same decks, seats swapped."""
    out = []
    for a_seat in (0, 1):
        game = play_game(job, j, a_seat)
        assert game.outcome is not None
        hands = [_summary(hand, a_seat) for hand in game.finished_hands]
        w = game.outcome.winner
        out.append(GameSummary(0.5 if w is None else float(w == a_seat), hands))
    return out


# --- statistics -----------------------------------------------------------------------------


Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""

T975: tuple[float, ...] = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
)  # fmt: skip
"""Student's t quantile t(0.975, df) for df = 1 .. 29 (``T975[df - 1]``), from the standard
tables, to three decimals."""


def t975(df: int) -> float:
    """The multiplier of the standard error in a two-sided 95 % interval for a mean of
    ``df + 1`` values: Student's t for up to 30 values, where the normal 1.96 is far too
    narrow (12.706 for two values, 2.262 for ten), and 1.96 from 31 values on, as the arena
    always printed (the t quantile is then within 4 % of it: the usual rule of thumb, so that
    a run of 31 or more deal pairs prints what it printed before)."""
    if df < 1:
        raise ValueError("a spread needs two values or more")
    return T975[df - 1] if df <= len(T975) else 1.96


def _signed(value: float) -> str:
    """``value`` with its sign and two decimals; zero is ``+0.00`` however it came (``-0.0``,
    or a small negative number that rounds to zero): never ``-0.00``."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95 % confidence interval: a mean (:meth:`of`, Student's t for
    up to 30 values, the normal approximation beyond) or a proportion (:meth:`wilson`,
    always inside 0..1). ``low`` and ``high`` are NaN when there are fewer than two
    values."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Interval:
        """The mean of ``values`` with its 95 % interval, ``t975(n - 1)`` standard errors
        either side (:func:`t975`)."""
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = sum(values) / n
        if n == 1:  # one value says nothing about the spread
            return cls(mean, math.nan, math.nan, 1)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = t975(n - 1) * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def wilson(cls, successes: float, n: int) -> Interval:
        """The proportion ``successes / n`` with its Wilson score interval (95 %), which
        stays inside 0..1 however few the trials or extreme the rate."""
        if n <= 0:
            return cls(math.nan, math.nan, math.nan, 0)
        p = successes / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        # (rounding must not put the rate itself outside: at 0 % and 100 % it is an end)
        low, high = min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))
        return cls(p, low, high, n)

    def __str__(self) -> str:
        if math.isnan(self.low):
            return f"{_signed(self.mean)} [no interval from {self.n} value(s)]"
        return f"{_signed(self.mean)} [{_signed(self.low)}, {_signed(self.high)}]"

    def percent(self) -> str:
        """A proportion as ``75.0 % [60.1, 85.2]``."""
        if math.isnan(self.low):
            return f"{100 * self.mean:.1f} %"
        return f"{100 * self.mean:.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"


@dataclass(slots=True)
class Style:
    """How a side plays, as rates per hand played."""

    hands: int = 0
    gin: float = 0.0
    big_gin: float = 0.0
    undercut: float = 0.0
    """Rate of undercutting the opponent."""
    knock: float = 0.0
    """Rate of knocking (won or undercut)."""
    undercut_against: float = 0.0
    """Rate of being undercut after knocking."""
    void: float = 0.0
    mean_deadwood_at_knock: float = math.nan
    mean_hand_length: float = math.nan
    """Draws per hand (both players)."""


def style_of(hands: Iterable[HandSummary], side: str) -> Style:
    """The style of side ``a`` or ``b`` over some hands."""
    hs = list(hands)
    n = len(hs)
    if not n:
        return Style()
    me_knocked = [h.a_knocked if side == "a" else h.b_knocked for h in hs]
    sign = 1 if side == "a" else -1
    wins = [h.net * sign > 0 for h in hs]

    def rate(pred: Callable[[int], bool]) -> float:
        return sum(1 for i in range(n) if pred(i)) / n

    at_knock = [
        d
        for h in hs
        for d in [h.a_deadwood_at_knock if side == "a" else h.b_deadwood_at_knock]
        if d is not None
    ]
    return Style(
        hands=n,
        gin=rate(lambda i: hs[i].kind == "gin" and me_knocked[i]),
        big_gin=rate(lambda i: hs[i].kind == "big-gin" and me_knocked[i]),
        undercut=rate(lambda i: hs[i].kind == "undercut" and not me_knocked[i] and wins[i]),
        knock=rate(lambda i: me_knocked[i] and hs[i].kind in ("knock", "undercut")),
        undercut_against=rate(lambda i: hs[i].kind == "undercut" and me_knocked[i]),
        void=rate(lambda i: hs[i].kind == "void"),
        mean_deadwood_at_knock=sum(at_knock) / len(at_knock) if at_knock else math.nan,
        mean_hand_length=sum(h.draws for h in hs) / n,
    )


@dataclass(slots=True)
class ArenaResult:
    """What a match measured (side A against side B)."""

    a: str
    b: str
    preset: str
    seed: str
    mode: str
    pairs: int
    points_per_hand: Interval
    """Side A's net points per hand (side B's is its negative)."""
    game_win_rate: Interval | None
    """Side A's share of games won (drawn games count half), with its Wilson interval;
    ``n`` is the number of games."""
    style_a: Style
    style_b: Style
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def labels(self) -> tuple[str, str]:
        """How the output names the two sides: the levels, told apart by ``(A)`` and ``(B)``
        when both sides play the same level."""
        if self.a == self.b:
            return f"{self.a} (A)", f"{self.b} (B)"
        return self.a, self.b

    def lines(self, big_gin: bool = True) -> list[str]:
        """The result as text. ``big_gin``: whether the rules play Big Gin; without it (classic,
        parlor) the style table has no Big Gin column (the JSON keeps its field, 0)."""
        p = self.points_per_hand
        a, b = self.labels()
        unit = "deal" if self.mode == "deals" else "game"
        out = [
            f"{a} vs {b}: {self.preset}, {self.pairs} duplicate "
            f"{unit} {'pair' if self.pairs == 1 else 'pairs'}, seed {self.seed}",
            f"  points per hand  {a}: {p}   {b}: "
            f"{Interval(-p.mean, -p.high, -p.low, p.n)}   (95 % CI)",
        ]
        if self.game_win_rate is not None:
            g = self.game_win_rate
            out.append(
                f"  game win rate    {a}: {g.percent()} of {g.n} games   (95 % Wilson interval)"
            )
        width = max(15, len(a), len(b))
        columns = [(h, cell) for h, cell in STYLE_COLUMNS if big_gin or h != "Big Gin"]
        rows = [
            (name, [cell(s) for _, cell in columns])
            for name, s in ((a, self.style_a), (b, self.style_b))
        ]
        # each column right-aligned to the wider of its heading and its cells
        widths = [
            max(len(h), *(len(cells[i]) for _, cells in rows)) for i, (h, _) in enumerate(columns)
        ]
        out.append(
            f"  {'style':<{width}}  "
            + "  ".join(f"{h:>{w}}" for (h, _), w in zip(columns, widths, strict=True))
        )
        for name, cells in rows:
            out.append(
                f"  {name:<{width}}  "
                + "  ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
            )
        out.append(
            "  (gin to void: shares of the side's hands; deadwood at knock: its mean; "
            "draws: a hand, both players)"
        )
        return out


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _num(value: float, digits: int) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


STYLE_COLUMNS: tuple[tuple[str, Callable[[Style], str]], ...] = (
    ("gin", lambda s: _pct(s.gin)),
    ("Big Gin", lambda s: _pct(s.big_gin)),
    ("undercuts", lambda s: _pct(s.undercut)),
    ("knocks", lambda s: _pct(s.knock)),
    ("got undercut", lambda s: _pct(s.undercut_against)),
    ("void", lambda s: _pct(s.void)),
    ("deadwood at knock", lambda s: _num(s.mean_deadwood_at_knock, 2)),
    ("draws", lambda s: _num(s.mean_hand_length, 1)),
)
"""The style table's columns: plain headings, and each side's cell."""


def json_safe(value: Any) -> Any:
    """``value`` with every NaN (a rate of nothing) as ``None``: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def _deal_worker(args: tuple[Job, int]) -> list[HandSummary]:
    return play_deal_pair(*args)


def _game_worker(args: tuple[Job, int]) -> list[GameSummary]:
    return play_game_pair(*args)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held() -> Iterator[list[int]]:
    """Ctrl-C held back for a moment: a Ctrl-C meanwhile is noted in the list yielded
    instead of raised (only the main thread may change it; elsewhere a no-op). Processes
    forked meanwhile inherit the holding handler until they set their own."""
    pending: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pending
        return
    before = signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield pending
    finally:
        signal.signal(signal.SIGINT, before)


def _run(
    func: Callable[[tuple[Any, int]], Any],
    job: Any,
    count: int,
    workers: int,
    progress: bool,
    unit: str,
    cluster: str | None = None,
) -> Iterator[Any]:
    from tqdm import tqdm

    tasks = [(job, i) for i in range(count)]
    # a bar only on a terminal: redirected to a log, its redraws would flood it
    show = progress and _is_terminal(sys.stderr)
    bar = tqdm(total=count, unit=unit, disable=not show, smoothing=0.05)
    try:
        if cluster is not None:
            from .cluster import map_on_cluster

            yield from map_on_cluster(func, tasks, cluster, bar.update)
        elif workers <= 1:
            for t in tasks:
                yield func(t)
                bar.update()
        else:
            ctx = multiprocessing.get_context("fork")
            # the workers leave Ctrl-C to this process, which stops them (no tracebacks):
            # held back while they are forked, so that none is ever without the setting, and
            # a Ctrl-C meanwhile (the workers already showing) still stops the run
            with _sigint_held() as pending:
                pool = ctx.Pool(workers, initializer=_ignore_sigint)
            with pool:
                if pending:
                    raise KeyboardInterrupt
                for item in pool.imap(
                    func, tasks, chunksize=max(1, min(20, count // (workers * 8)))
                ):
                    yield item
                    bar.update()
    finally:
        bar.close()


def run_tasks(
    func: Callable[[tuple[Any, int]], Any],
    job: Any,
    count: int,
    workers: int = 1,
    progress: bool = False,
    unit: str = "task",
    cluster: str | None = None,
) -> Iterator[Any]:
    """``func((job, i))`` for ``i`` in ``0 .. count-1``, in order, on ``workers`` processes or
    a ``cluster`` (the runner of the arena's deal and game pairs, for other independent tasks
    such as self-play: ``func`` must be a module-level function and ``job`` picklable)."""
    return _run(func, job, count, workers, progress, unit, cluster)


def game_pairs(
    job: Job, count: int, workers: int = 1, progress: bool = False, cluster: str | None = None
) -> list[list[GameSummary]]:
    """Game pairs ``0 .. count-1`` of ``job`` (each as :func:`play_game_pair` gives it), on
    ``workers`` processes or a ``cluster``; the same whichever."""
    return list(_run(_game_worker, job, count, workers, progress, "game pair", cluster))


def deal_pairs_of(
    job: Job, count: int, workers: int = 1, progress: bool = False, cluster: str | None = None
) -> list[list[HandSummary]]:
    """Deal pairs ``0 .. count-1`` of ``job`` (:func:`play_deal_pair`), as :func:`game_pairs`."""
    return list(_run(_deal_worker, job, count, workers, progress, "deal pair", cluster))


def run_arena(
    a: str,
    b: str,
    rules: Rules,
    *,
    deals: int = 0,
    games: int = 0,
    seed: str = "1",
    workers: int = 1,
    progress: bool = False,
    cluster: str | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deal pairs, or ``games`` duplicate game pairs, A against B.

    ``cluster`` (instead of ``workers``): run them on a Dask cluster, ``local:N`` or a
    scheduler's address (:mod:`ginrummy.cluster`); the result is the serial run's."""
    job = Job(a, b, rules, str(seed))
    if games:
        pairs = game_pairs(job, games, workers, progress, cluster)
        hands = [h for pair in pairs for g in pair for h in g.hands]
        nets_per_pair = []
        for pair in pairs:
            hs = [h for g in pair for h in g.hands]
            nets_per_pair.append(sum(h.net for h in hs) / max(1, len(hs)))
        wins = sum(g.a_won for pair in pairs for g in pair)
        return ArenaResult(
            a,
            b,
            rules.name,
            job.seed,
            "games",
            games,
            Interval.of(nets_per_pair),
            Interval.wilson(wins, 2 * len(pairs)),
            style_of(hands, "a"),
            style_of(hands, "b"),
        )
    deal_pairs = deal_pairs_of(job, deals, workers, progress, cluster)
    hands = [h for pair in deal_pairs for h in pair]
    nets = [(pair[0].net + pair[1].net) / 2 for pair in deal_pairs]
    return ArenaResult(
        a,
        b,
        rules.name,
        job.seed,
        "deals",
        deals,
        Interval.of(nets),
        None,
        style_of(hands, "a"),
        style_of(hands, "b"),
    )
