"""Batch solving on a Ray cluster: whatever cluster ``ray.init()`` connects to (a local one on a
laptop, or the cluster of ``ray start`` / ``RAY_ADDRESS``).

The levels are cut into batches; each batch is one Ray task (``max_retries`` lets Ray rerun the
tasks of failed or lost workers and nodes). The driver collects every batch's results, keeps one
result per level (by its index in the input) and writes the JSON lines in input order, so the
output holds each level exactly once, as ``sokoban solve --json`` would print it, and
``sokoban verify LEVELS OUTPUT`` checks it. ``add_solutions`` adds the solves to a
``ray.data.Dataset`` instead, for Ray Data's own writers (Parquet, JSON).

From Python::

    import ray, sokoban_solver.ray as sr
    ray.init()  # or ray.init(address="auto") on a cluster node
    run = sr.solve_dataset("levels.xsb", output="solutions.jsonl", mode="pushes", time_limit=10)

From a shell (the same on a laptop and on a cluster's head node)::

    python -m sokoban_solver.ray levels.xsb --out solutions.jsonl --mode pushes --time-limit 10
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Callable, Union

try:
    import ray
except ImportError as e:  # the optional extra
    raise ImportError("sokoban_solver.ray needs Ray: pip install 'sokoban-solver[ray]' (or './python[ray]')") from e

import sokoban_solver as sk

__all__ = ["Run", "add_solutions", "main", "solve_dataset"]

LevelsInput = Union[str, "os.PathLike[str]", Iterable[Union[sk.Level, str]], Any]


@dataclass
class Run:
    """What ``solve_dataset`` did."""

    results: list[dict[str, Any]]
    """One JSON object per level, in input order (as ``sokoban solve --json`` prints them)."""
    nodes: dict[str, int] = field(default_factory=dict)
    """Levels solved on each Ray node (by node id)."""
    seconds: float = 0.0
    """Wall time of the run, from the first task submitted to the last result collected."""
    output: str | None = None
    """The JSON lines file written, if any."""
    json_lines: list[str] = field(default_factory=list)
    """The same results as the JSON lines the library wrote (what ``output`` holds)."""


def _levels_of(levels: LevelsInput) -> list[sk.Level]:
    """The input as a list of levels: a file path, Levels or level texts, or a Ray Dataset whose
    rows have a ``level`` column of level text (and optionally ``number``)."""
    if isinstance(levels, (str, os.PathLike)):
        return sk.read(levels)
    if hasattr(levels, "iter_rows") and hasattr(levels, "map_batches"):  # a ray.data.Dataset
        out = []
        for i, row in enumerate(levels.iter_rows()):
            if "level" not in row:
                raise ValueError("a Dataset of levels needs a 'level' column of level text")
            level = _one(row["level"], i)
            number = int(row.get("number", i + 1))
            out.append(level if number == level.number else _renumbered(level, number))
        return out
    out = []
    for i, item in enumerate(levels):
        if isinstance(item, sk.Level):
            out.append(item)
        elif isinstance(item, str):
            out.append(_renumbered(_one(item, i), i + 1))
        else:
            raise TypeError(f"item {i} of the levels is a {type(item).__name__}, not a Level or a level text")
    return out


def _one(text: str, i: int) -> sk.Level:
    levels = sk.parse(text)
    if len(levels) != 1:
        raise ValueError(f"item {i} of the levels holds {len(levels)} levels, not one")
    return levels[0]


def _renumbered(level: sk.Level, number: int) -> sk.Level:
    return sk._sokoban._level_from_text(level.to_text(), level.format, number)


@ray.remote
def _solve_batch(start: int, levels: list[sk.Level], options: dict[str, Any]) -> tuple[str, int, list[str]]:
    """Solves one batch; returns the node's id, the batch's first index and the JSON lines."""
    results = sk.solve_many(levels, progress=False, **options)
    node = ray.get_runtime_context().get_node_id()
    return node, start, [r.to_json() for r in results]


def solve_dataset(
    levels: LevelsInput,
    *,
    output: str | os.PathLike[str] | None = None,
    mode: str = "auto",
    time_limit: float | None = 60.0,
    memory_limit: int | None = None,
    node_limit: int | None = None,
    batch_size: int = 20,
    num_cpus: int = 1,
    max_retries: int = 3,
    progress: Callable[[int, int], Any] | None = None,
) -> Run:
    """Solves every level on the Ray cluster this process is connected to (``ray.init()``
    starts a local one when none is).

    ``levels``: a level file's path, a list of ``Level`` objects or level texts, or a
    ``ray.data.Dataset`` with a ``level`` column of level texts (and optionally ``number``).
    The limits apply to each level (as in ``sokoban_solver.solve``). Each task solves
    ``batch_size`` levels on ``num_cpus`` threads and reserves that many CPUs; Ray reruns a task
    up to ``max_retries`` times (-1: without limit) when its worker or node dies.
    ``progress(done, total)`` is called as batches come back. ``output``: a JSON lines file
    written at the end (levels in input order, each once).
    """
    if batch_size < 1 or num_cpus < 1 or max_retries < -1:
        raise ValueError("batch_size and num_cpus must be at least 1, max_retries at least -1 (no limit)")
    if not ray.is_initialized():
        ray.init()
    todo = _levels_of(levels)
    options: dict[str, Any] = dict(
        threads=num_cpus, mode=mode, time_limit=time_limit, memory_limit=memory_limit, node_limit=node_limit
    )
    # Check the options here, where a mistake is one clear error instead of a failed task each.
    sk.solve_many([], **options)
    task = _solve_batch.options(
        num_cpus=num_cpus, max_retries=max_retries, retry_exceptions=False, scheduling_strategy="SPREAD"
    )
    began = time.monotonic()
    pending = [
        task.remote(start, todo[start : start + batch_size], options) for start in range(0, len(todo), batch_size)
    ]
    lines: list[str | None] = [None] * len(todo)
    nodes: Counter[str] = Counter()
    done = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            for ref in ready:
                node, start, batch = ray.get(ref)
                for i, line in enumerate(batch):
                    if lines[start + i] is None:  # one result per level, whatever Ray reran
                        lines[start + i] = line
                        nodes[node] += 1
                        done += 1
                if progress is not None:
                    progress(done, len(todo))
    except BaseException:
        # Ctrl-C, a failed batch or a failing progress callback: the batches still queued or
        # running are cancelled instead of left to run on the cluster.
        for ref in pending:
            ray.cancel(ref)
        raise
    missing = [i for i, line in enumerate(lines) if line is None]
    if missing:
        raise RuntimeError(f"{len(missing)} levels have no result (first: index {missing[0]})")
    json_lines = [line for line in lines if line is not None]
    run = Run(results=[json.loads(line) for line in json_lines], nodes=dict(nodes), json_lines=json_lines)
    run.seconds = time.monotonic() - began
    if output is not None:
        path = os.fspath(output)
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            for line in lines:
                f.write(f"{line}\n")
        os.replace(tmp, path)
        run.output = path
    return run


RESULT_COLUMNS = ("status", "lurd", "moves", "pushes", "optimal", "nodes", "seconds", "json")


def add_solutions(
    dataset: Any,
    *,
    mode: str = "auto",
    time_limit: float | None = 60.0,
    memory_limit: int | None = None,
    node_limit: int | None = None,
    batch_size: int = 20,
    num_cpus: int = 1,
) -> Any:
    """A ``ray.data.Dataset`` with each row's solve added, computed by Ray Data on the cluster
    (lazily, like every Dataset transformation; Ray Data reruns the tasks of lost workers).

    The rows need a ``level`` column of level text; a ``number`` column, when present, numbers
    the JSON lines. The columns added: ``status``, ``lurd``, ``moves``, ``pushes``, ``optimal``,
    ``nodes``, ``seconds`` and ``json`` (the line of ``sokoban solve --json``). Write the result
    with ``write_parquet`` or ``write_json``; ``solve_dataset`` is the way to one JSON lines
    file in level order.
    """
    if batch_size < 1 or num_cpus < 1:
        raise ValueError("batch_size and num_cpus must be at least 1")
    options: dict[str, Any] = dict(
        threads=num_cpus, mode=mode, time_limit=time_limit, memory_limit=memory_limit, node_limit=node_limit
    )
    sk.solve_many([], **options)  # a bad option is one clear error here, not one per task

    def solve_batch(batch: dict[str, Any]) -> dict[str, Any]:
        texts = list(batch["level"])
        numbers = list(batch["number"]) if "number" in batch else [1] * len(texts)
        levels = [_renumbered(_one(str(text), i), int(n)) for i, (text, n) in enumerate(zip(texts, numbers))]
        results = sk.solve_many(levels, progress=False, **options)
        out = dict(batch)
        for column in RESULT_COLUMNS[:-1]:
            out[column] = [getattr(r, column) for r in results]
        out["json"] = [r.to_json() for r in results]
        return out

    return dataset.map_batches(solve_batch, batch_size=batch_size, batch_format="numpy", num_cpus=num_cpus)


def main(argv: list[str] | None = None) -> int:
    """``python -m sokoban_solver.ray LEVELS --out FILE [options]``."""
    p = argparse.ArgumentParser(prog="python -m sokoban_solver.ray", description=main.__doc__)
    p.add_argument("levels", help="the level file")
    p.add_argument("--out", required=True, help="the JSON lines file to write (sokoban verify LEVELS FILE checks it)")
    p.add_argument(
        "--address", default=None, help="the Ray cluster (default: RAY_ADDRESS, a running local one, or a new one)"
    )
    p.add_argument("--mode", default="auto", choices=["auto", "pushes", "moves", "cost", "fast", "bfs"])
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per level")
    p.add_argument("--memory-limit", type=int, default=None, help="megabytes per level")
    p.add_argument("--node-limit", type=int, default=None, help="expanded states per level")
    p.add_argument("--batch-size", type=int, default=20, help="levels per Ray task")
    p.add_argument("--cpus-per-task", type=int, default=1, help="threads (and CPUs reserved) per task")
    p.add_argument("--max-retries", type=int, default=3, help="reruns of a task whose worker or node died")
    a = p.parse_args(argv)
    ray.init(address=a.address)

    def show(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{done}/{total} levels", end="", file=sys.stderr, flush=True)

    run = solve_dataset(
        a.levels,
        output=a.out,
        mode=a.mode,
        time_limit=a.time_limit,
        memory_limit=a.memory_limit,
        node_limit=a.node_limit,
        batch_size=a.batch_size,
        num_cpus=a.cpus_per_task,
        max_retries=a.max_retries,
        progress=show,
    )
    solved = sum(r["status"] == "solved" for r in run.results)
    nodes = f"{len(run.nodes)} node" + ("" if len(run.nodes) == 1 else "s")
    line = f"{solved} of {len(run.results)} solved in {run.seconds:.1f} s on {nodes}; wrote {a.out}"
    print(("\n" if sys.stderr.isatty() else "") + line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
