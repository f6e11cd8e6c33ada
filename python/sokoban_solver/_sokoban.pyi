"""Type stubs of the native module (re-exported by ``sokoban_solver``)."""

import os
from collections.abc import Iterable, Sequence
from typing import Any, Callable, final

__all__ = [
    "IllegalMoveError",
    "Level",
    "ParseError",
    "Played",
    "Result",
    "Verification",
    "apply",
    "parse",
    "read",
    "solve",
    "solve_many",
    "verify",
    "_level_from_text",
]

class ParseError(ValueError):
    """A level text that cannot be read.

    >>> import sokoban_solver as sk
    >>> try:
    ...     sk.parse("#####\\n#@$.#\\n#  x#\\n#####\\n")
    ... except sk.ParseError as e:
    ...     print(e.line, e.column)
    3 4
    """

    line: int
    """1-based line of the offending character."""
    column: int
    """1-based column of the offending character."""
    reason: str
    """What is wrong, without the position."""

class IllegalMoveError(ValueError):
    """A move that the rules do not allow."""

    index: int
    """0-based index of the illegal move."""

@final
class Level:
    """A Sokoban level (immutable, picklable). Made by ``parse``, ``read`` or ``from_gym_sokoban``."""

    @property
    def number(self) -> int:
        """1-based number of the level in the text or file it came from."""
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in cells."""
    @property
    def boxes(self) -> list[tuple[int, int]]:
        """The boxes' cells as (row, column), 0-based, in reading order."""
    @property
    def goals(self) -> list[tuple[int, int]]:
        """The goals' cells as (row, column), 0-based, in reading order."""
    @property
    def player(self) -> tuple[int, int]:
        """The player's cell as (row, column), 0-based."""
    @property
    def title(self) -> str | None: ...
    @property
    def format(self) -> str:
        """ "xsb", "grid", "json" or "warehouse"."""
    @property
    def board(self) -> str:
        """The board as XSB text, newline-terminated."""
    def to_text(self) -> str:
        """The level in its own format, as a file would hold it."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Result:
    """The outcome of one solve; ``to_dict()`` equals the line of ``sokoban solve --json``."""

    @property
    def level(self) -> int:
        """1-based number of the level in its file."""
    @property
    def status(self) -> str:
        """ "solved", "unsolvable", "timeout", "memory-limit", "node-limit", "cancelled" or "invalid"."""
    @property
    def solved(self) -> bool: ...
    @property
    def lurd(self) -> str | None:
        """The solution (lowercase walk, uppercase push), or None."""
    @property
    def moves(self) -> int | None: ...
    @property
    def pushes(self) -> int | None: ...
    @property
    def optimal(self) -> str | None:
        """What is proven minimal: "pushes", "pushes,moves", "moves" or "cost"; None if nothing."""
    @property
    def nodes(self) -> int:
        """States expanded."""
    @property
    def seconds(self) -> float: ...
    @property
    def found_by(self) -> str | None:
        """Which search found the solution: "a-star", "bfs", or the fast engine's pass ("first-pass", "first-pass/sprint", "second-pass/backward", "midpoint", …); None without one."""
    @property
    def error(self) -> str | None:
        """Why there is no solution, in words (None when solved)."""
    def to_json(self) -> str:
        """The JSON line of ``sokoban solve --json`` (keys sorted, no newline)."""
    def to_dict(self) -> dict[str, Any]: ...

@final
class Verification:
    """The independent verifier's report; true when the moves are a valid solution."""

    @property
    def valid(self) -> bool: ...
    @property
    def solved(self) -> bool: ...
    @property
    def moves(self) -> int: ...
    @property
    def pushes(self) -> int: ...
    @property
    def illegal_index(self) -> int | None: ...
    @property
    def reason(self) -> str | None: ...
    def __bool__(self) -> bool: ...

@final
class Played:
    """Where a move list leads (see ``apply``)."""

    @property
    def board(self) -> str: ...
    @property
    def solved(self) -> bool: ...
    @property
    def moves(self) -> int: ...
    @property
    def pushes(self) -> int: ...
    @property
    def level(self) -> Level:
        """The position after the moves as a level of its own."""

def parse(text: str, format: str | None = None) -> list[Level]:
    """Parses every level of a text ("xsb", "grid", "json", "warehouse"; None: recognised).

    >>> import sokoban_solver as sk
    >>> sk.parse("#####\\n#@$.#\\n#####\\n")[0].boxes
    [(1, 2)]

    Raises ParseError (a ValueError) with ``line`` and ``column``.
    """

def read(path: str | os.PathLike[str]) -> list[Level]:
    """Reads every level of a file (format from the extension and content); OSError if unreadable."""

def solve(
    level: Level,
    mode: str = "auto",
    time_limit: float | None = 60.0,
    memory_limit: int | None = None,
    node_limit: int | None = None,
    threads: int = 1,
) -> Result:
    """Solves a level; the GIL is released meanwhile and Ctrl-C raises KeyboardInterrupt.

    ``mode``: "auto" (fast engine, then proof of push-optimality), "pushes", "moves", "cost",
    "fast" or "bfs", as ``sokoban solve --mode``. ``time_limit`` in seconds (None: none),
    ``memory_limit`` in megabytes (None: half the physical memory), ``node_limit`` in
    expanded states (None: none). Running out of a limit is a status, not an exception.
    ``threads``: threads on this one level (the fast engine's portfolio, modes auto and fast,
    as ``sokoban solve --threads``); with 1 a node-limited solve is deterministic.

    >>> import sokoban_solver as sk
    >>> sk.solve(sk.parse("#####\\n#@$.#\\n#####\\n")[0], mode="pushes").lurd
    'R'
    """

def solve_many(
    levels: Iterable[Level],
    threads: int = 0,
    mode: str = "auto",
    time_limit: float | None = 60.0,
    memory_limit: int | None = None,
    node_limit: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
) -> list[Result]: ...
def verify(level: Level, lurd: str) -> Verification:
    """Replays LURD (run-length encoding allowed) with the independent verifier.

    >>> import sokoban_solver as sk
    >>> sk.verify(sk.parse("#####\\n#@$.#\\n#####\\n")[0], "R").valid
    True
    """

def apply(level: Level, moves: str | Sequence[str]) -> Played:
    """Plays moves (LURD, a JSON array, words, or a list of direction names) from the start.

    Raises IllegalMoveError (a ValueError) with ``index`` at the first illegal move.
    """

def _level_from_text(text: str, format: str, number: int) -> Level:
    """Rebuilds a pickled level (used by ``Level.__reduce__``)."""
