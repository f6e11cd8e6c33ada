"""Sokoban levels, an independent verifier and push-optimal solvers, from Rust.

>>> import sokoban_solver as sk
>>> level = sk.parse("#####\\n#@$.#\\n#####\\n")[0]
>>> level
<Level 1: 5x3, 1 boxes>
>>> result = sk.solve(level, mode="pushes")
>>> result.status, result.lurd, result.pushes, result.optimal
('solved', 'R', 1, 'pushes,moves')
>>> bool(sk.verify(level, result.lurd))
True
>>> print(sk.apply(level, "R").board, end="")
#####
# @*#
#####

Solving releases the GIL (other Python threads run meanwhile) and Ctrl-C stops a solve
with ``KeyboardInterrupt``. ``solve_many`` spreads levels over Rust threads;
``sokoban_solver.ray`` spreads a dataset over a Ray cluster (``pip install sokoban-solver[ray]``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, Callable, Union

from ._sokoban import (
    IllegalMoveError,
    Level,
    ParseError,
    Played,
    Result,
    Verification,
    apply,
    parse,
    read,
    solve,
    verify,
)
from ._sokoban import solve_many as _solve_many

__all__ = [
    "IllegalMoveError",
    "Level",
    "ParseError",
    "Played",
    "Result",
    "Verification",
    "apply",
    "from_gym_sokoban",
    "parse",
    "read",
    "solve",
    "solve_many",
    "verify",
]

Progress = Union[bool, Callable[[int, int], Any], None]


def solve_many(
    levels: Iterable[Level],
    threads: int = 0,
    mode: str = "auto",
    time_limit: float | None = 60.0,
    memory_limit: int | None = None,
    node_limit: int | None = None,
    progress: Progress = None,
) -> list[Result]:
    """Solves levels on ``threads`` Rust threads (0: one per core), each with its own limits.

    Results come in input order. ``progress`` is a callable ``progress(done, total)`` called
    after each level, ``True`` for a tqdm bar, ``False`` for nothing, or ``None`` (default) for a
    tqdm bar when tqdm is installed and standard error is a terminal.

    >>> import sokoban_solver as sk
    >>> levels = sk.parse("#####\\n#@$.#\\n#####\\n\\n######\\n#@$ .#\\n######\\n")
    >>> [r.lurd for r in sk.solve_many(levels, threads=2, mode="pushes", progress=False)]
    ['R', 'RR']
    """
    levels = list(levels)
    bar = None
    callback: Callable[[int, int], Any] | None = None
    if callable(progress):
        callback = progress
    elif progress or (progress is None and sys.stderr is not None and sys.stderr.isatty()):
        try:
            from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
        except ImportError:
            if progress:
                raise
        else:
            bar = tqdm(total=len(levels), unit="level")

            def callback(done: int, total: int) -> None:
                bar.update(done - bar.n)

    try:
        return _solve_many(
            levels,
            threads=threads,
            mode=mode,
            time_limit=time_limit,
            memory_limit=memory_limit,
            node_limit=node_limit,
            progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()


# gym-sokoban's cell codes: room_fixed 0 wall, 1 floor, 2 box target; room_state 0 wall,
# 1 floor, 2 box target, 3 box on target, 4 box off target, 5 player.
_GYM_STATE = {0: "#", 1: " ", 2: ".", 3: "*", 4: "$", 5: "@"}


def _rows(grid: Any, name: str) -> list[list[int]]:
    if hasattr(grid, "tolist"):  # numpy arrays, without importing numpy
        grid = grid.tolist()
    try:
        rows = [[int(cell) for cell in row] for row in grid]
    except TypeError as e:
        raise TypeError(f"{name} must be a 2-D array or a list of rows of integers") from e
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise ValueError(f"{name} must be a non-empty rectangular 2-D array")
    return rows


def from_gym_sokoban(room_fixed: Any, room_state: Any) -> Level:
    """The level of a ``gym-sokoban`` environment (``env.room_fixed``, ``env.room_state``).

    Both are 2-D arrays (numpy or nested lists) with gym-sokoban's cell codes: ``room_fixed``
    0 wall, 1 floor, 2 box target; ``room_state`` 0 wall, 1 floor, 2 box target, 3 box on
    target, 4 box off target, 5 player (on a target when ``room_fixed`` says so).

    >>> import sokoban_solver as sk
    >>> fixed = [[0, 0, 0, 0, 0], [0, 1, 1, 2, 0], [0, 0, 0, 0, 0]]
    >>> state = [[0, 0, 0, 0, 0], [0, 5, 4, 2, 0], [0, 0, 0, 0, 0]]
    >>> print(sk.from_gym_sokoban(fixed, state).board, end="")
    #####
    #@$.#
    #####
    """
    fixed = _rows(room_fixed, "room_fixed")
    state = _rows(room_state, "room_state")
    if len(fixed) != len(state) or len(fixed[0]) != len(state[0]):
        raise ValueError("room_fixed and room_state must have the same shape")
    lines = []
    for r, (fixed_row, state_row) in enumerate(zip(fixed, state)):
        line = []
        for c, (f, s) in enumerate(zip(fixed_row, state_row)):
            if f not in (0, 1, 2) or s not in _GYM_STATE:
                raise ValueError(f"unknown gym-sokoban cell code at row {r}, column {c}: fixed {f}, state {s}")
            ch = _GYM_STATE[s]
            if ch == "@" and f == 2:
                ch = "+"
            elif ch in " $" and f == 2:  # a floor or box over a target that room_state hides
                ch = "." if ch == " " else "*"
            line.append(ch)
        lines.append("".join(line).rstrip())
    return parse("\n".join(lines) + "\n", format="xsb")[0]
