"""``python -m ginrummy.learn``: train what the AI ships, from a seed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..ai import LEVELS, TEST_LEVELS
from ..ai.master import KNOCK_FEATURES, MASTER_KNOCK
from . import beliefs, knock, knocker

MASTER = knock.RUNS[MASTER_KNOCK]
"""The run of master's learned knock: the knock command's defaults."""


F = TypeVar("F", bound=Callable[..., Any])


def written_data(flag: str, text: str) -> Callable[[F], F]:
    """An option naming position files written before (``--data``), repeatable."""
    return click.option(
        flag,
        flag.lstrip("-").replace("-", "_"),
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        multiple=True,
        help=text,
    )


def runner_options(f: F) -> F:
    """``--workers`` and ``--cluster``: where the self-play hands are played."""
    f = click.option("--cluster", default=None, help="local:N or a Dask scheduler's address.")(f)
    return click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)(f)


def data_option(text: str) -> Callable[[F], F]:
    """``--data``: a file to write the played data to as well."""
    return click.option(
        "--data", type=click.Path(dir_okay=False, path_type=Path), default=None, help=text
    )


out_option = click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the parameter file here (default: print it).",
)
"""``--out``: the parameter file to write (default: print it)."""


@click.group()
def main() -> None:
    """Train the AI's parameters on self-play (needs numpy: pip install 'ginrummy[train]')."""
    try:
        import numpy  # noqa: F401  (every command fits with it)
    except ImportError as e:
        raise click.ClickException(
            "training needs numpy, which is not installed: pip install 'ginrummy[train]'"
        ) from e


@main.command(name="beliefs")
@click.option("--seed", default=beliefs.SHIPPED.seed, show_default=True, help="Self-play seed.")
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=beliefs.SHIPPED_HANDS,
    show_default=True,
    help="Self-play hands.",
)
@click.option("--level", default=beliefs.SHIPPED.level, show_default=True, help="Players' level.")
@runner_options
@out_option
def beliefs_command(
    seed: str, hands: int, level: str, workers: int, cluster: str | None, out: Path | None
) -> None:
    """Fit the learned opponent model (ginrummy.ai.beliefs) on self-play hands."""
    params = beliefs.train(
        beliefs.SelfPlay(seed, level), hands, workers=workers, cluster=cluster, progress=True
    )
    if out is None:
        click.echo(beliefs.dumps(params), nl=False)
    else:
        beliefs.write(params, out)
        click.echo(
            f"wrote {out}: {params['trained_on']['rows']} rows, log-loss {params['log_loss']}"
        )


@main.command(name="knock")
@click.option("--seed", default=MASTER.job.seed, show_default=True, help="Self-play seed.")
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=MASTER.hands,
    show_default=True,
    help="Self-play hands.",
)
@click.option(
    "--players",
    type=click.Choice(sorted(knock.PLAYERS)),
    default=MASTER.job.players,
    show_default=True,
    help="The self-play players' generation (simulated-knock: the first run's).",
)
@click.option(
    "--opponents",
    default=",".join(MASTER.job.opponents),
    show_default=True,
    help="Comma-separated levels to play instead of self-play (only the learner's chances "
    "are kept): a knock for that style.",
)
@click.option(
    "--features",
    type=click.IntRange(2, len(KNOCK_FEATURES)),
    default=MASTER.features,
    show_default=True,
    help="Fit on this many of the knock features (the first run: 9).",
)
@runner_options
@data_option("Also write the positions here (gzipped JSON lines).")
@click.option(
    "--first-hand",
    "first_hand",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    help="Play the run's hands from this one on (to make its data in parts).",
)
@written_data(
    "--from-data",
    "Fit positions written before instead of playing (repeat for data made in parts, in "
    "order; --hands: how many hands made them all).",
)
@click.option(
    "--mix",
    type=click.Choice(["none", *sorted(knock.RUNS)]),
    default=MASTER.mix[0] if MASTER.mix else "none",
    show_default=True,
    help="Fit another run's positions too (none: this run's alone).",
)
@click.option(
    "--mix-share",
    "mix_share",
    type=click.FloatRange(0.0, min_open=True),
    default=MASTER.mix[1] if MASTER.mix else 1.0,
    show_default=True,
    help="What each of the other run's positions weighs against one of this run's.",
)
@written_data(
    "--mix-data",
    "The other run's positions, written before (repeat for parts, in order); without it its "
    "hands are played too.",
)
@out_option
def knock_command(
    seed: str,
    hands: int,
    players: str,
    opponents: str,
    features: int,
    workers: int,
    cluster: str | None,
    data: Path | None,
    first_hand: int,
    from_data: tuple[Path, ...],
    mix: str,
    mix_share: float,
    mix_data: tuple[Path, ...],
    out: Path | None,
) -> None:
    """Fit the learned knock (master's knock or play on) on self-play knock chances, each
    played both ways from the true state (about half a second a hand on one core). The
    defaults make master's shipped parameters; ginrummy.learn.knock.RUNS lists the options
    of every shipped file."""
    levels = tuple(name.strip() for name in opponents.split(",") if name.strip())
    unknown = [name for name in levels if name not in LEVELS and name not in TEST_LEVELS]
    if unknown:
        raise click.BadParameter(f"unknown level {unknown[0]!r}", param_hint="--opponents")
    job = knock.KnockSelfPlay(seed, players=players, opponents=levels)
    if from_data and mix != "none" and not mix_data:
        raise click.UsageError(f"--from-data needs the {mix} run's --mix-data (or --mix none)")
    if from_data:
        positions = knock.read_parts(from_data)
    else:
        positions = knock.collect(
            job, hands, workers=workers, cluster=cluster, progress=True, first=first_hand
        )
    if data is not None:
        knock.write_data(positions, data)
    mixed = None
    if mix != "none":
        other = knock.RUNS[mix]
        if mix_data:
            theirs = knock.read_parts(mix_data)
        else:
            theirs = knock.collect(
                other.job, other.hands, workers=workers, cluster=cluster, progress=True
            )
        mixed = knock.Mix(mix, mix_share, theirs)
    params = knock.params_of(job, hands, positions, features, mixed)
    text = beliefs.dumps(params)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}: {len(positions)} knock chances")


@main.command(name="knocker")
@click.option("--seed", default=knocker.SHIPPED.seed, show_default=True, help="The run's seed.")
@click.option(
    "--hands",
    type=click.IntRange(1),
    default=knocker.SHIPPED.hands,
    show_default=True,
    help="Hands against each opponent.",
)
@runner_options
@data_option("Also write the chances here (gzipped JSON).")
@click.option(
    "--from-data",
    "from_data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Fit chances written before instead of playing (their seed and hands are the run's).",
)
@out_option
def knocker_command(
    seed: str,
    hands: int,
    workers: int,
    cluster: str | None,
    data: Path | None,
    from_data: Path | None,
    out: Path | None,
) -> None:
    """Fit the regression behind master's hedge: the chance that the opponent knocks at once,
    from its public play this hand, on hands of master-2026-12 against players of five styles
    (about a sixth of a second a hand on one core: four minutes for the defaults on two
    processes). The defaults make the shipped parameters."""
    if from_data is not None:
        try:
            run, chances = knocker.read_data(from_data)
            params = knocker.params_of(run, chances)
        except (OSError, EOFError, ValueError, KeyError, TypeError) as e:
            raise click.ClickException(f"{from_data} does not hold knocker data: {e}") from e
    else:
        run = knocker.KnockerRun(seed, hands)
        chances = knocker.collect(run, workers=workers, cluster=cluster, progress=True)
        params = knocker.params_of(run, chances)
    if data is not None:
        knocker.write_data(run, chances, data)
    text = beliefs.dumps(params)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}: {params['trained_on']['chances']} chances")


if __name__ == "__main__":
    main()
