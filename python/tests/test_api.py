"""The module's API: levels, errors, solving, the verifier, apply, gym-sokoban arrays."""

from __future__ import annotations

import json
import pickle
import re

import pytest
from conftest import DATA, ROOT, cli_json, without_seconds

import sokoban_solver as sk

SIMPLE = "#####\n#@$.#\n#####\n"


def test_parse_level_attributes():
    levels = sk.parse("; a comment\nTitle: Tiny\n" + SIMPLE)
    assert len(levels) == 1
    level = levels[0]
    assert level.number == 1
    assert level.size == (5, 3) and level.width == 5 and level.height == 3
    assert level.boxes == [(1, 2)] and level.goals == [(1, 3)] and level.player == (1, 1)
    assert level.board == SIMPLE
    assert str(level) == SIMPLE
    assert level.format == "xsb"
    assert "5x3" in repr(level) and "1 boxes" in repr(level)


def test_read_numbers_levels_as_the_file():
    levels = sk.read(DATA / "microban.xsb")
    assert len(levels) == 155
    assert [lv.number for lv in levels[:3]] == [1, 2, 3]
    assert levels[0].board.startswith("####\n# .#\n")


def test_read_missing_file_is_an_oserror(tmp_path):
    with pytest.raises(OSError, match="cannot read"):
        sk.read(tmp_path / "nothing.xsb")


def test_pickle_and_equality():
    level = sk.read(DATA / "microban.xsb")[9]
    again = pickle.loads(pickle.dumps(level))
    assert again == level and again.number == 10 and hash(again) == hash(level)
    assert again != sk.read(DATA / "microban.xsb")[8]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("#####\n#@$.#\n#  x#\n#####\n", 3, 4, "unknown character 'x'"),
        ("#####\n#@$.#\n#@  #\n#####\n", 3, 2, "second player"),
        ("######\n#@$$.#\n######\n", 1, 1, "2 boxes but 1 goal"),
    ],
)
def test_parse_errors_carry_line_and_column(text, line, column, words):
    with pytest.raises(sk.ParseError) as info:
        sk.parse(text)
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.line, e.column) == (line, column)
    assert words in str(e) and words in e.reason
    assert str(e).startswith(f"line {line}, column {column}: ")


def test_parse_other_formats_and_bad_format_name():
    grid = sk.parse("((1 1 1 1 1) (1 3 2 4 1) (1 1 1 1 1))", format="grid")[0]
    assert grid.boxes == [(1, 2)] and grid.format == "grid"
    with pytest.raises(ValueError, match="unknown format"):
        sk.parse(SIMPLE, format="png")


def test_solve_simple_and_result_fields():
    level = sk.parse(SIMPLE)[0]
    r = sk.solve(level, mode="pushes")
    assert (r.status, r.solved, r.lurd, r.moves, r.pushes, r.optimal) == ("solved", True, "R", 1, 1, "pushes,moves")
    assert r.nodes >= 1 and r.seconds >= 0 and r.error is None
    assert r.found_by == "a-star" == r.to_dict()["found_by"]
    # The default's fast engine found it (with several cores its searches race each other).
    assert sk.solve(level).found_by not in ("", "a-star")
    assert json.loads(r.to_json()) == r.to_dict()
    assert r.to_dict()["box_lines"] == 1
    assert "solved" in repr(r)


def test_limits_are_statuses_and_bad_options_are_errors():
    level = sk.read(DATA / "microban.xsb")[145]
    r = sk.solve(level, mode="pushes", node_limit=100)
    assert r.status == "node-limit" and r.lurd is None and r.moves is None and not r.solved
    assert r.error == "node limit reached"
    with pytest.raises(ValueError, match="unknown mode"):
        sk.solve(level, mode="fastest")
    with pytest.raises(ValueError, match="time_limit"):
        sk.solve(level, time_limit=-1)
    with pytest.raises(ValueError, match="memory_limit"):
        sk.solve(level, memory_limit=0)
    with pytest.raises(TypeError):
        sk.solve("not a level")  # type: ignore[arg-type]


def test_unsolvable_is_proven():
    level = sk.parse("######\n#@$ .#\n#  # #\n######\n")[0]
    dead = sk.parse("#####\n#@ .#\n#$  #\n#####\n")[0]  # the box sits in a corner
    assert sk.solve(level, mode="pushes").solved
    assert sk.solve(dead, mode="pushes").status == "unsolvable"


def test_microban_equals_the_cli():
    """Microban 1-155, push-optimal with a node limit: the same JSON lines as the CLI."""
    args = ["--mode", "pushes", "--node-limit", "5000", "--jobs", "2"]
    expected = cli_json(str(DATA / "microban.xsb"), *args)
    assert len(expected) == 155
    results = sk.solve_many(sk.read(DATA / "microban.xsb"), threads=2, mode="pushes", node_limit=5000)
    assert without_seconds([r.to_dict() for r in results]) == without_seconds(expected)
    assert sum(r.solved for r in results) > 100
    for level, r in zip(sk.read(DATA / "microban.xsb"), results):
        if r.solved:
            assert sk.verify(level, r.lurd).valid


def test_solve_equals_cli_one_level_auto():
    expected = cli_json(str(DATA / "microban.xsb"), "--level", "7", "--time-limit", "10", "--threads", "1")
    r = sk.solve(sk.read(DATA / "microban.xsb")[6], time_limit=10)
    assert without_seconds([r.to_dict()]) == without_seconds(expected)


def test_solve_on_several_threads():
    level = sk.read(DATA / "xsokoban90.xsb")[2]
    r = sk.solve(level, mode="fast", threads=2, time_limit=30)
    assert r.solved and sk.verify(level, r.lurd).valid
    with pytest.raises(ValueError, match="threads"):
        sk.solve(level, threads=0)


def test_solve_many_order_and_progress():
    levels = sk.read(DATA / "microban.xsb")[:20]
    calls = []
    results = sk.solve_many(levels, threads=3, mode="pushes", progress=lambda d, t: calls.append((d, t)))
    assert [r.level for r in results] == list(range(1, 21))
    assert calls == [(d, 20) for d in range(1, 21)]
    assert sk.solve_many([], progress=False) == []
    with pytest.raises(TypeError, match="Level objects"):
        sk.solve_many([SIMPLE])  # type: ignore[list-item]


def test_progress_callback_errors_propagate():
    def boom(done, total):
        raise ZeroDivisionError("stop")

    with pytest.raises(ZeroDivisionError):
        sk.solve_many(sk.read(DATA / "microban.xsb")[:5], threads=1, mode="pushes", progress=boom)


def test_verify():
    level = sk.parse(SIMPLE)[0]
    assert sk.verify(level, "R").valid and sk.verify(level, "R")
    assert sk.verify(level, "1R").valid  # run-length encoded
    wrong_case = sk.verify(level, "r")
    assert not wrong_case and wrong_case.solved and "case" in wrong_case.reason
    unsolved = sk.verify(level, "")
    assert not unsolved.solved and "not solved" in unsolved.reason
    illegal = sk.verify(level, "L")
    assert illegal.illegal_index == 0 and "wall" in illegal.reason
    assert not sk.verify(level, "RR").valid


def test_apply():
    level = sk.parse("######\n#@$ .#\n######\n")[0]
    played = sk.apply(level, "R")
    assert played.board == "######\n# @$.#\n######\n"
    assert (played.moves, played.pushes, played.solved) == (1, 1, False)
    assert sk.apply(level, ["right", "right"]).solved
    assert sk.apply(level, '["right","right"]').solved
    assert sk.solve(played.level, mode="pushes").lurd == "R"
    with pytest.raises(sk.IllegalMoveError) as info:
        sk.apply(level, "RRR")
    assert info.value.index == 2 and isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="not a direction"):
        sk.apply(level, "Rx")


GYM_FIXED = [
    [0, 0, 0, 0, 0, 0],
    [0, 1, 1, 1, 2, 0],
    [0, 1, 0, 1, 2, 0],
    [0, 0, 0, 0, 0, 0],
]
GYM_STATE = [
    [0, 0, 0, 0, 0, 0],
    [0, 5, 4, 1, 2, 0],
    [0, 1, 0, 1, 3, 0],
    [0, 0, 0, 0, 0, 0],
]


def test_from_gym_sokoban_lists():
    level = sk.from_gym_sokoban(GYM_FIXED, GYM_STATE)
    assert level.board == "######\n#@$ .#\n# # *#\n######\n"
    assert sk.solve(level, mode="pushes").lurd == "RR"
    state = [row[:] for row in GYM_STATE]
    state[1][1], state[1][4] = 1, 5  # the player on the empty target
    assert sk.from_gym_sokoban(GYM_FIXED, state).board == "######\n# $ +#\n# # *#\n######\n"
    with pytest.raises(ValueError, match="unknown gym-sokoban cell code"):
        sk.from_gym_sokoban(GYM_FIXED, [[7] * 6] * 4)
    with pytest.raises(ValueError, match="same shape"):
        sk.from_gym_sokoban(GYM_FIXED, GYM_STATE[:3])


def test_from_gym_sokoban_numpy():
    np = pytest.importorskip("numpy")
    level = sk.from_gym_sokoban(np.array(GYM_FIXED, dtype=np.uint8), np.array(GYM_STATE, dtype=np.uint8))
    assert level.board == "######\n#@$ .#\n# # *#\n######\n"


def readme_python_example() -> str:
    """The first ```python block of the README's "Python" section."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "the README's Python section has no ```python block"
    return block.group(1)


def test_readme_python_example(monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(readme_python_example(), "README.md", "exec"), {})


def test_docstring_examples():
    import doctest

    for module in (sk, sk._sokoban):
        result = doctest.testmod(module)
        assert result.attempted > 5 and result.failed == 0, module.__name__


def test_solve_many_tqdm_bar(capsys):
    levels = sk.read(DATA / "microban.xsb")[:20]
    try:
        import tqdm  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError):
            sk.solve_many(levels, mode="pushes", progress=True)
        return
    assert len(sk.solve_many(levels, mode="pushes", progress=True)) == 20
    assert "20/20" in capsys.readouterr().err
