"""Shared fixtures: the repository's paths and the `sokoban` binary the answers are compared with."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

# Ray (in the Ray tests) reports no usage statistics from test clusters.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def sokoban_binary() -> Path:
    """The release binary of the worktree (SOKOBAN_BIN overrides), built when missing."""
    given = os.environ.get("SOKOBAN_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    binary = target / "release" / "sokoban"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return binary


def cli_json(*args: str) -> list[dict]:
    """The lines of `sokoban solve --json ARGS`, as dicts."""
    out = subprocess.run([str(sokoban_binary()), "solve", "--json", *args], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr  # 1: some level without a verdict
    return [json.loads(line) for line in out.stdout.splitlines()]


def without_seconds(rows: list[dict]) -> list[dict]:
    """The rows without their timings (the only field that differs between two runs)."""
    return [{k: v for k, v in row.items() if k not in ("seconds", "found_seconds")} for row in rows]


@pytest.fixture(scope="session")
def binary() -> Path:
    return sokoban_binary()
