#!/usr/bin/env python3
"""Measures that the limits hold: process wall time and peak RSS (GNU /usr/bin/time) of `solve`
under --time-limit S, under Ctrl-C, and under --memory-limit M, in every mode.

    cargo build --release
    benches/limits.py /work/shared/repros            # the directory with boxes200.xsb, room250_1000.xsb
    benches/limits.py REPROS --quick                 # S = 1 only, for a smoke run

Levels: XSokoban 4, 29, 50 (data/xsokoban90.xsb) and the repro levels boxes200.xsb and
room250_1000.xsb. Checks, as the issue states them:
  time:   wall <= 1.1 * S + 0.2 s, for S in 1, 5, 20 (a level solved sooner passes trivially);
  ctrl-c: SIGINT 1 s after the start (during the analysis or the search) ends the process
          within 0.5 s;
  memory: --memory-limit M (with --time-limit 10) keeps peak RSS under M + 50 MB.
Prints a Markdown table (one row per run) and a summary line; exit status 1 if a check failed.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

import sokoban_cli

MODES = ["pushes", "moves", "cost", "bfs", "fast", "auto"]


def levels(repros):
    xs = [(f"XSokoban {n}", ["data/xsokoban90.xsb", "--level", str(n)]) for n in (4, 29, 50)]
    big = [(name, [os.path.join(repros, name)]) for name in ("boxes200.xsb", "room250_1000.xsb")]
    return xs + big


def run(binary, args, interrupt_after=None):
    """Runs `binary solve args` under /usr/bin/time; returns (wall s, peak RSS MB, status, reaction s)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", tf.name, binary, "solve"] + sokoban_cli.one_thread(binary) + args
        started = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             start_new_session=True)
        reaction = None
        if interrupt_after is not None:
            try:
                p.wait(timeout=interrupt_after)
            except subprocess.TimeoutExpired:
                sent = time.monotonic()
                os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
                p.wait()
                reaction = time.monotonic() - sent
        out, _ = p.communicate()
        wall_outer = time.monotonic() - started
        fields = tf.read().split()
    try:
        wall, rss_mb = float(fields[-2]), int(fields[-1]) / 1024
    except (IndexError, ValueError):
        wall, rss_mb = wall_outer, float("nan")
    # The last "level N: status, ..." line (a solved level's moves follow its status line).
    lines = [line for line in out.splitlines() if line.startswith("level ")]
    status = lines[-1] if lines else f"exit {p.returncode}"
    status = status.split(":", 1)[-1].split(",")[0].strip()
    return wall, rss_mb, status, reaction


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repros", help="directory holding boxes200.xsb and room250_1000.xsb")
    ap.add_argument("--binary", default="target/release/sokoban")
    ap.add_argument("--limits", default="1,5,20", help="time limits S in seconds")
    ap.add_argument("--memory", type=int, default=64, help="memory limit M in MB")
    ap.add_argument("--quick", action="store_true", help="S = 1 only")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: time,ctrl-c,memory")
    ap.add_argument("--modes", default=",".join(MODES), help="comma list of modes to run")
    args = ap.parse_args()
    limits = [1.0] if args.quick else [float(s) for s in args.limits.split(",")]
    skip = set(filter(None, args.skip.split(",")))
    failed = total = 0
    print("| level | mode | test | limit | wall s | peak RSS MB | status | ok |")
    print("|---|---|---|---|---|---|---|---|")

    def row(name, mode, test, limit, wall, rss, status, ok):
        nonlocal failed, total
        total += 1
        failed += not ok
        print(f"| {name} | {mode} | {test} | {limit} | {wall:.2f} | {rss:.0f} | {status} | {'yes' if ok else 'NO'} |",
              flush=True)

    for name, largs in levels(args.repros):
        for mode in args.modes.split(","):
            if "time" not in skip:
                for s in limits:
                    wall, rss, status, _ = run(args.binary, largs + ["--mode", mode, "--time-limit", str(s)])
                    row(name, mode, "time", f"{s:g} s", wall, rss, status, wall <= 1.1 * s + 0.2)
            if "ctrl-c" not in skip:
                wall, rss, status, reaction = run(args.binary, largs + ["--mode", mode, "--time-limit", "600"],
                                                  interrupt_after=1.0)
                ok = reaction is None or reaction <= 0.5
                shown = "finished first" if reaction is None else f"{reaction:.3f} s after SIGINT"
                row(name, mode, "ctrl-c", shown, wall, rss, status, ok)
            if "memory" not in skip:
                m = args.memory
                wall, rss, status, _ = run(args.binary, largs + ["--mode", mode, "--memory-limit", str(m),
                                                                 "--time-limit", "10"])
                row(name, mode, "memory", f"{m} MB", wall, rss, status, rss < m + 50)
    print(f"\n{total - failed} of {total} checks passed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
