"""Running the arena's independent tasks (deal pairs, game pairs, self-play) on a cluster.

The engine is Dask's ``distributed`` (an optional extra: ``pip install 'ginrummy[cluster]'``).
Why Dask rather than Ray: it is pure Python and small (one wheel, no daemon, no object
store), a local cluster starts in about a second, and a real one is two commands on any
machines with this package installed (``dask scheduler`` on one; ``dask worker
tcp://HOST:8786`` on each of the others). Each task is a plain function of its index, so a
cluster run gives results identical to a serial one: every deal and every player is seeded
from the match's seed and the task's index, never from where or when it ran.

``cluster`` is ``local:N`` (a cluster of N worker processes on this machine, started for the
run and stopped after it, listening on 127.0.0.1 only) or a scheduler's address
(``tcp://HOST:8786``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from .errors import GinRummyError

# (Dask's functions are untyped: they are called through Any here)

T = TypeVar("T")

INSTALL = "pip install 'ginrummy[cluster]'"
"""How to install what ``--cluster`` needs."""
LOCAL = re.compile(r"local:([1-9][0-9]?)")
"""A local cluster: ``local:N``, 1 to 99 workers."""
ADDRESS = re.compile(r"(tcp|tls)://[A-Za-z0-9_.\-\[\]:]+")
"""A scheduler's address."""


SHAPES = (
    "local:N (N workers on this machine, 1 to 99) or a scheduler's address such as "
    "tcp://10.0.0.5:8786"
)
"""What ``--cluster`` takes, for messages."""


def is_cluster_address(cluster: str) -> bool:
    """Whether ``cluster`` names a cluster: ``local:N`` (1 to 99) or a scheduler's address.
    (The command line refuses another as a usage error of ``--cluster``, status 2, as it
    refuses ``--workers 0``.)"""
    return bool(LOCAL.fullmatch(cluster) or ADDRESS.fullmatch(cluster))


def check_cluster(cluster: str) -> None:
    """A :class:`~ginrummy.errors.GinRummyError` unless ``cluster`` names a cluster and the
    cluster engine is installed."""
    if not is_cluster_address(cluster):
        raise GinRummyError(f"--cluster is {SHAPES}, not {cluster[:60]!r}", "cluster/bad-address")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise GinRummyError(
            f"--cluster needs Dask's distributed, which is not installed: {INSTALL}",
            "cluster/not-installed",
        ) from None


@contextmanager
def _client(cluster: str) -> Iterator[Any]:
    import logging

    import distributed

    Client: Any = distributed.Client
    LocalCluster: Any = distributed.LocalCluster

    # Dask's own log lines (worker start and stop) are noise in a match's output
    logging.getLogger("distributed").setLevel(logging.ERROR)
    local = LOCAL.fullmatch(cluster)
    if local:
        with (
            LocalCluster(
                n_workers=int(local.group(1)),
                threads_per_worker=1,  # the engine is pure Python: processes, not threads
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            ) as made,
            Client(made) as client,
        ):
            yield client
        return
    try:
        client = Client(cluster, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise GinRummyError(
            f"cannot reach the cluster's scheduler at {cluster}: {exc}", "cluster/unreachable"
        ) from None
    with client:
        yield client


def _batch(func: Callable[[Any], T], items: Sequence[Any]) -> list[T]:
    return [func(item) for item in items]


def map_on_cluster(
    func: Callable[[Any], T], items: Sequence[Any], cluster: str, done: Callable[[int], None]
) -> list[T]:
    """``[func(item) for item in items]`` on ``cluster``, in order; ``done(n)`` is called as
    each batch of ``n`` items finishes (for a progress bar). Items go in batches (about
    eight per worker) so that the scheduler's cost per task stays small."""
    check_cluster(cluster)
    import distributed

    as_completed: Any = distributed.as_completed

    with _client(cluster) as client:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = max(1, min(50, len(items) // (workers * 8)))
        batches = [items[i : i + size] for i in range(0, len(items), size)]
        futures = client.map(_batch, [func] * len(batches), batches, pure=False)
        order = {future.key: n for n, future in enumerate(futures)}
        results: list[list[T] | None] = [None] * len(batches)
        for future in as_completed(futures):
            results[order[future.key]] = future.result()
            done(len(batches[order[future.key]]))
    return [item for batch in results if batch is not None for item in batch]
