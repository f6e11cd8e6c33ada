#!/usr/bin/env python3
"""Cactus plots and headline counts from the stored result files.

Usage: benches/cactus.py [--results DIR] [--anchors DIR|none] [--out DIR] [--sets A,B,...]
                         [--summary] [--no-plots]

For each level set, draws one cactus plot: every run's solved levels sorted by their time, so
that the point (n, t) says "n levels were solved in at most t seconds each" (x: levels solved,
y: time per level, log scale). The further right and the lower a curve ends, the better.

Our rows are the `sokoban bench --solutions` files in benches/results/ (fields `status`,
`seconds`, `optimal`); `seconds` is the solver's own wall time per level inside one process
(parse and analysis included, process start-up not). The anchors' rows are the
`<solver>__<collection>.tsv` files of --anchors (default: benches/anchors/ next to this script;
`--anchors none` leaves them out); their `seconds` is the whole process's wall time, start-up
included. For XSokoban and Sasquatch a second plot, `cactus-<set>-side-by-side.png`, draws the
rows of `side-by-side-2core/public_rows.tsv` under the anchor directory, where ours and the
anchors ran in one shuffled job list on the same machine (whole-process times for everyone).

--summary prints, per set, a Markdown table of solved, proven, sum and median time of the
solved for every run (the headline tables of BENCHMARKS.md come from it). Plots need
matplotlib (`python3 -m venv /tmp/plot && /tmp/plot/bin/pip install matplotlib`); --summary alone needs
only the standard library. PNGs go to --out (default: docs/ next to benches/).
"""

import argparse
import csv
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Our runs per set: (label, result file, limit in seconds). The label is the mode as the
# result file's name gives it (no mode named = `pushes`, bench's default; `default` = `--mode
# auto`, what `solve` runs with no flags; `auto` = the same with `--prove`, as `auto` was
# when those files were written).
SETS = {
    "xsokoban": dict(title="XSokoban", levels=90, collection="xsokoban", runs=[
        ("ours default 10 s", "xsokoban-default-10s.jsonl", 10),
        ("ours --prove 10 s", "xsokoban-auto-10s.jsonl", 10),
        ("ours fast 10 s", "xsokoban-fast-10s.jsonl", 10),
        ("ours pushes 10 s", "xsokoban-10s.jsonl", 10),
        ("ours fast 60 s", "xsokoban-fast-60s.jsonl", 60),
    ]),
    "sasquatch": dict(title="Sasquatch", levels=50, collection="sasquatch", runs=[
        ("ours default 10 s", "sasquatch-default-10s.jsonl", 10),
        ("ours --prove 10 s", "sasquatch-auto-10s.jsonl", 10),
        ("ours fast 10 s", "sasquatch-fast-10s.jsonl", 10),
        ("ours pushes 10 s", "sasquatch-10s.jsonl", 10),
        ("ours fast 60 s", "sasquatch-fast-60s.jsonl", 60),
    ]),
    "microban": dict(title="Microban", levels=155, collection="microban", runs=[
        ("ours default 10 s", "microban-default-10s.jsonl", 10),
        ("ours --prove 10 s", "microban-auto-10s.jsonl", 10),
        ("ours fast 10 s", "microban-fast-10s.jsonl", 10),
        ("ours pushes 10 s", "microban-10s.jsonl", 10),
    ]),
    "microban-ii": dict(title="Microban II", levels=135, collection="microban2", runs=[
        ("ours default 10 s", "microban-ii-default-10s.jsonl", 10),
        ("ours --prove 10 s", "microban-ii-auto-10s.jsonl", 10),
        ("ours fast 10 s", "microban-ii-fast-10s.jsonl", 10),
        ("ours pushes 10 s", "microban-ii-10s.jsonl", 10),
    ]),
    # The anchors ran the first 300 levels of Boxoban hard; our file holds all 3332.
    "boxoban-hard300": dict(title="Boxoban hard, levels 1-300", levels=300,
                            collection="boxoban_hard300", max_level=300, runs=[
        ("ours default 10 s", "boxoban-hard-default-10s.jsonl", 10),
        ("ours --prove 10 s", "boxoban-hard-auto-10s.jsonl", 10),
    ]),
}
# Sets without anchors: counted by --summary, not drawn. Each run: (label, result files).
SASQUATCH_II_VII = ("ii", "iii", "iv", "v", "vi", "vii")
SUMMARY_ONLY = {
    "boxoban-hard": ("Boxoban hard (all)", 3332, [
        ("ours default 10 s", ["boxoban-hard-default-10s.jsonl"]),
        ("ours --prove 10 s", ["boxoban-hard-auto-10s.jsonl"]),
    ]),
    "sasquatch-ii-vii": ("Sasquatch II-VII", 300, [
        ("ours default 10 s", [f"sasquatch-{n}-default-10s.jsonl" for n in SASQUATCH_II_VII]),
        ("ours --prove 10 s", [f"sasquatch-{n}-auto-10s.jsonl" for n in SASQUATCH_II_VII]),
    ]),
    "du-peloux": ("du Peloux (Pico/Mini/Micro/Nabokosmos)", 140, [
        ("ours --prove 10 s", [f"{n}-auto-10s.jsonl" for n in ("picokosmos", "minicosmos", "microcosmos",
                                                              "nabokosmos")]),
    ]),
}
ANCHOR_SOLVERS = [("festival", "Festival 3.1"), ("yass", "YASS 2.153"), ("sisyphus", "sisyphus"),
                  ("martin-t", "martin-t (push-optimal A*)"), ("rollingstone", "Rolling Stone")]
OURS_STYLE = {
    "ours default 10 s": dict(color="#d62728", lw=2.4, ls="-"),
    "ours --prove 10 s": dict(color="#17becf", lw=1.6, ls="-"),
    "ours fast 10 s": dict(color="#ff7f0e", lw=1.8, ls="--"),
    "ours pushes 10 s": dict(color="#8c564b", lw=1.8, ls=":"),
    "ours fast 60 s": dict(color="#e377c2", lw=1.4, ls="-."),
    "ours auto 9.5 s": dict(color="#d62728", lw=2.4, ls="-"),
}
ANCHOR_COLOR = {"festival": "#1f77b4", "yass": "#2ca02c", "sisyphus": "#9467bd",
                "martin-t": "#7f7f7f", "rollingstone": "#bcbd22"}
FLOOR = 1e-3  # times under 1 ms are drawn at 1 ms (log scale)


class Run:
    """One solver's rows on one set: the times of the solved levels, and how many are proven."""

    def __init__(self, label, times, total, proven=None, limit=10, style=None):
        self.label, self.times, self.total = label, sorted(times), total
        self.proven, self.limit, self.style = proven, limit, style or {}

    def row(self):
        t = self.times
        return (self.label, f"{len(t)}/{self.total}", "" if self.proven is None else str(self.proven),
                f"{sum(t):.1f}" if t else "", f"{statistics.median(t):.3f}" if t else "")


def load_ours(path, max_level=None):
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if max_level is None or row["level"] <= max_level:
                    rows.append(row)
    solved = [r for r in rows if r["status"] == "solved"]
    return rows, [r["seconds"] for r in solved], sum(1 for r in solved if r.get("optimal"))


def ours_runs(results, spec):
    runs = []
    for label, name, limit in spec["runs"]:
        path = os.path.join(results, name)
        if not os.path.exists(path):
            print(f"skipped (no file): {path}", file=sys.stderr)
            continue
        rows, times, proven = load_ours(path, spec.get("max_level"))
        if len(rows) != spec["levels"]:
            print(f"warning: {path} has {len(rows)} rows, the set {spec['levels']}", file=sys.stderr)
        runs.append(Run(label, times, spec["levels"], proven, limit, OURS_STYLE[label]))
    return runs


def anchor_runs(anchors, spec):
    runs = []
    for solver, name in ANCHOR_SOLVERS:
        path = os.path.join(anchors, f"{solver}__{spec['collection']}.tsv")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            rows = [r for r in csv.DictReader(f, delimiter="\t")
                    if spec.get("max_level") is None or int(r["level"]) <= spec["max_level"]]
        times = [float(r["seconds"]) for r in rows if r["solved"] == "1"]
        runs.append(Run(name, times, spec["levels"], None, 10,
                        dict(color=ANCHOR_COLOR[solver], lw=1.3, ls="-")))
    return runs


def side_by_side_runs(anchors, spec):
    """ours and the anchors in one shuffled run (benches/anchors/side-by-side-2core)."""
    path = os.path.join(anchors, "side-by-side-2core", "public_rows.tsv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["set"] == spec["collection"]]
    runs = []
    names = dict(ANCHOR_SOLVERS, ours="ours auto 9.5 s")
    for solver in ["ours", "festival", "yass", "sisyphus"]:
        mine = [r for r in rows if r["solver"] == solver]
        if not mine:
            continue
        solved = [r for r in mine if r["solved"] == "1"]
        proven = sum(1 for r in solved if r["optimal"]) if solver == "ours" else None
        style = OURS_STYLE["ours auto 9.5 s"] if solver == "ours" else dict(
            color=ANCHOR_COLOR[solver], lw=1.3, ls="-")
        runs.append(Run(names[solver], [float(r["seconds"]) for r in solved], len(mine), proven,
                        10, style))
    return runs


def plot(runs, title, subtitle, path, levels):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5), dpi=110)
    top = max([10] + [r.limit for r in runs])
    for r in runs:
        if not r.times:
            ax.plot([], [], label=f"{r.label}: 0", **r.style)
            continue
        xs = list(range(1, len(r.times) + 1))
        ys = [max(t, FLOOR) for t in r.times]
        ax.plot(xs, ys, label=f"{r.label}: {len(r.times)}", marker="o", ms=2.2, **r.style)
    ax.set_yscale("log")
    ax.set_ylim(FLOOR * 0.8, top * 1.5)
    ax.set_xlim(0, levels * 1.02)
    ax.axvline(levels, color="black", lw=0.8, alpha=0.5)
    ax.axhline(10, color="black", lw=0.6, ls=":", alpha=0.6)
    if top > 10:
        ax.axhline(60, color="black", lw=0.6, ls=":", alpha=0.6)
    ax.set_xlabel(f"levels solved (of {levels})")
    ax.set_ylabel("time per level, s (log; under 1 ms drawn at 1 ms)")
    ax.set_title(f"{title}\n{subtitle}", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="run: levels solved",
              title_fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


def print_table(title, runs):
    print(f"\n### {title}\n")
    print("| run | solved | proven optimal | sum s (solved) | median s (solved) |")
    print("|---|---|---|---|---|")
    for r in runs:
        print("| " + " | ".join(r.row()) + " |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", default=os.path.join(HERE, "results"))
    p.add_argument("--anchors", default=os.path.join(HERE, "anchors"),
                   help="anchor directory, or 'none' for our rows only")
    p.add_argument("--out", default=os.path.join(ROOT, "docs"))
    p.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    p.add_argument("--summary", action="store_true", help="print the Markdown count tables")
    p.add_argument("--no-plots", action="store_true")
    a = p.parse_args()
    anchors = None if a.anchors == "none" or not os.path.isdir(a.anchors) else a.anchors
    if anchors is None and a.anchors != "none":
        print(f"no anchor directory {a.anchors}: our rows only", file=sys.stderr)
    draw = not a.no_plots
    for key in a.sets.split(","):
        spec = SETS[key]
        runs = ours_runs(a.results, spec) + (anchor_runs(anchors, spec) if anchors else [])
        if a.summary:
            print_table(f"{spec['title']} ({spec['levels']})", runs)
        long = any(limit > 10 for _, _, limit in spec["runs"])
        sub = ("2 cores, one thread per solver, 10 s per level" + (" (ours also at 60 s)" if long else "")
               + ";\nours: solver time in-process; anchors: whole-process wall time")
        if draw:
            plot(runs, f"{spec['title']}: levels solved against time per level", sub,
                 os.path.join(a.out, f"cactus-{key}.png"), spec["levels"])
        sbs = side_by_side_runs(anchors, spec) if anchors else []
        if sbs:
            if a.summary:
                print_table(f"{spec['title']}, one shuffled run side by side (whole-process times)",
                            sbs)
            if draw:
                plot(sbs, f"{spec['title']}: one shuffled run, all solvers side by side",
                     "2 cores, two jobs at once, 10 s kill (ours: solve --time-limit 9.5), "
                     "whole-process wall time", os.path.join(a.out, f"cactus-{key}-side-by-side.png"),
                     spec["levels"])
    if a.summary:
        for title, total, runs in SUMMARY_ONLY.values():
            rows = []
            for label, names in runs:
                paths = [os.path.join(a.results, n) for n in names]
                if not all(os.path.exists(x) for x in paths):
                    continue
                times, proven = [], 0
                for path in paths:
                    _, t, pr = load_ours(path)
                    times += t
                    proven += pr
                rows.append(Run(label, times, total, proven))
            if rows:
                print_table(f"{title} ({total})", rows)

if __name__ == "__main__":
    main()
