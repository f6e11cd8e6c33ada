"""sokoban_solver.ray on a local Ray cluster of two nodes (a head and one more), started here.

Every run solves the 1000 Boxoban medium levels push-optimally with a node limit; the results
must equal the CLI's, pass `sokoban verify`, and come once per level even when a node is
removed in the middle of a run (that run fails with NodeDiedError when `max_retries=0`: Ray's
retries are what bring its lost batches back)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import DATA, ROOT, cli_json, sokoban_binary, without_seconds

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

import sokoban_solver as sk  # noqa: E402
import sokoban_solver.ray as sr  # noqa: E402

BOXOBAN = DATA / "boxoban-medium-1000.xsb"
LIMITS = dict(mode="pushes", node_limit=5000, time_limit=60.0)
CLI_LIMITS = ["--mode", "pushes", "--node-limit", "5000", "--time-limit", "60", "--jobs", "2"]


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture(scope="module")
def expected():
    rows = cli_json(str(BOXOBAN), *CLI_LIMITS)
    assert len(rows) == 1000
    return without_seconds(rows)


def check_output(run: sr.Run, expected: list[dict], output) -> None:
    """1000 results in level order, each once, equal to the CLI's, and `sokoban verify` passes."""
    assert [r["level"] for r in run.results] == list(range(1, 1001))
    assert without_seconds(run.results) == expected
    lines = open(output).read().splitlines()
    assert len(lines) == 1000 and lines == run.json_lines
    verified = subprocess.run(
        [str(sokoban_binary()), "verify", str(BOXOBAN), str(output)], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    solved = sum(r["status"] == "solved" for r in run.results)
    assert f"{solved} valid, 0 invalid of {solved} solutions" in verified.stdout
    assert solved > 990


def test_boxoban_on_two_nodes(cluster, expected, tmp_path):
    out = tmp_path / "solutions.jsonl"
    run = sr.solve_dataset(BOXOBAN, output=out, batch_size=25, **LIMITS)
    check_output(run, expected, out)
    alive = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2
    assert set(run.nodes) == set(alive), "every node solved levels"
    assert all(count >= 100 for count in run.nodes.values()), run.nodes
    print(f"\n2 nodes: {1000 / run.seconds:.0f} levels/s ({run.seconds:.1f} s), by node {sorted(run.nodes.values())}")


def test_inputs_list_texts_and_dataset(cluster):
    levels = sk.read(BOXOBAN)[:30]
    local = [r.to_dict() for r in sk.solve_many(levels, threads=1, progress=False, **LIMITS)]
    from_levels = sr.solve_dataset(levels, batch_size=7, **LIMITS)
    assert without_seconds(from_levels.results) == without_seconds(local)
    from_texts = sr.solve_dataset([lv.board for lv in levels], batch_size=7, **LIMITS)
    assert [r["lurd"] for r in from_texts.results] == [r["lurd"] for r in local]
    dataset = ray.data.from_items([{"level": lv.board, "number": lv.number} for lv in levels])
    from_dataset = sr.solve_dataset(dataset, batch_size=7, **LIMITS)
    assert [(r["level"], r["lurd"]) for r in from_dataset.results] == [(r["level"], r["lurd"]) for r in local]
    with pytest.raises(ValueError, match="unknown mode"):
        sr.solve_dataset(levels, mode="quick")
    with pytest.raises(TypeError, match="not a Level"):
        sr.solve_dataset([1, 2])


def test_command_line(cluster, tmp_path):
    few = tmp_path / "few.xsb"
    few.write_text("".join(lv.to_text() + "\n" for lv in sk.read(DATA / "microban.xsb")[:12]))
    out = tmp_path / "few.jsonl"
    env = dict(os.environ, RAY_ADDRESS=cluster.address)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sokoban_solver.ray",
            str(few),
            "--out",
            str(out),
            "--mode",
            "pushes",
            "--time-limit",
            "10",
            "--batch-size",
            "5",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "12 of 12 solved" in done.stderr
    verified = subprocess.run([str(sokoban_binary()), "verify", str(few), str(out)], capture_output=True, text=True)
    assert verified.returncode == 0 and "12 valid, 0 invalid" in verified.stdout, verified.stdout + verified.stderr


def test_a_node_removed_mid_run_loses_and_duplicates_nothing(cluster, expected, tmp_path):
    doomed = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    removed_at = []

    def remove_midway(done: int, total: int) -> None:
        if not removed_at and done >= 200:
            removed_at.append(done)
            cluster.remove_node(doomed, allow_graceful=False)

    out = tmp_path / "solutions.jsonl"
    run = sr.solve_dataset(BOXOBAN, output=out, batch_size=25, max_retries=3, progress=remove_midway, **LIMITS)
    assert removed_at and removed_at[0] < 600, removed_at
    check_output(run, expected, out)
    assert sum(run.nodes.values()) == 1000
    assert len(run.nodes) == 3, "the removed node had solved levels before it went"


def test_a_failing_progress_callback_stops_the_run(cluster):
    levels = sk.read(BOXOBAN)[:60]

    def fail(done, total):
        raise ZeroDivisionError("stop")

    with pytest.raises(ZeroDivisionError):
        sr.solve_dataset(levels, batch_size=5, progress=fail, **LIMITS)
    # The cluster goes on working.
    assert len(sr.solve_dataset(levels[:10], batch_size=5, **LIMITS).results) == 10


def test_add_solutions_to_a_dataset_and_write_parquet(cluster, tmp_path):
    levels = sk.read(BOXOBAN)[:30]
    local = [r.to_dict() for r in sk.solve_many(levels, threads=1, progress=False, **LIMITS)]
    dataset = ray.data.from_items([{"level": lv.to_text(), "number": lv.number} for lv in levels])
    solved = sr.add_solutions(dataset, batch_size=8, **LIMITS)
    rows = sorted(solved.take_all(), key=lambda row: row["number"])
    assert [row["lurd"] for row in rows] == [r["lurd"] for r in local]
    assert [row["status"] for row in rows] == [r["status"] for r in local]
    assert without_seconds([json.loads(row["json"]) for row in rows]) == without_seconds(local)
    solved.write_parquet(str(tmp_path / "parquet"))
    back = ray.data.read_parquet(str(tmp_path / "parquet"))
    assert back.count() == 30 and set(sr.RESULT_COLUMNS) <= set(back.schema().names)
