"""The figures of BENCHMARKS.md, "Python package and Ray": the Python package's overhead against
`sokoban bench` on the same levels, and Ray levels per second on one node against two.

    python benches/overhead_and_ray.py [LEVELS] [--node-limit N] [--rounds R]

Run from python/ with the package installed and the release binary built (target/release).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

import sokoban_solver as sk

ROOT = Path(__file__).resolve().parents[2]


def timed(f) -> float:
    began = time.perf_counter()
    f()
    return time.perf_counter() - began


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("levels", nargs="?", default=str(ROOT / "data" / "boxoban-medium-1000.xsb"))
    p.add_argument("--node-limit", type=int, default=5000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-ray", action="store_true")
    a = p.parse_args()
    binary = ROOT / "target" / "release" / "sokoban"
    limits = {"mode": "pushes", "node_limit": a.node_limit, "time_limit": 60.0}
    cli = [str(binary), "bench", a.levels, "--mode", "pushes", "--node-limit", str(a.node_limit)]
    count = len(sk.read(a.levels))
    print(f"{count} levels of {Path(a.levels).name}, --mode pushes --node-limit {a.node_limit}, one thread")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    def python_many():
        results = sk.solve_many(sk.read(a.levels), threads=1, progress=False, **limits)
        assert len(results) == count

    def python_loop():
        for level in sk.read(a.levels):
            sk.solve(level, **limits)

    rows = {"sokoban bench": [], "solve_many(threads=1)": [], "solve() per level": []}
    for _ in range(a.rounds):  # in turns, so that a busy spell hits all three alike
        rows["sokoban bench"].append(timed(lambda: subprocess.run(cli, check=True, capture_output=True)))
        rows["solve_many(threads=1)"].append(timed(python_many))
        rows["solve() per level"].append(timed(python_loop))
    base = statistics.median(rows["sokoban bench"])
    print("| run | median wall s | runs | levels/s | against `sokoban bench` |")
    print("| --- | ---: | --- | ---: | ---: |")
    for name, times in rows.items():
        med = statistics.median(times)
        runs = ", ".join(f"{t:.2f}" for t in times)
        print(f"| {name} | {med:.2f} | {runs} | {count / med:.0f} | {100 * (med / base - 1):+.1f}% |")
    if a.no_ray:
        return

    import ray
    from ray.cluster_utils import Cluster

    import sokoban_solver.ray as sr

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    sr.solve_dataset(sk.read(a.levels)[:50], batch_size=25, **limits)  # warm the workers
    print("| Ray nodes (1 CPU each) | wall s | levels/s |")
    print("| --- | ---: | ---: |")
    for nodes in (1, 2):
        if nodes == 2:
            cluster.add_node(num_cpus=1)
            cluster.wait_for_nodes()
            sr.solve_dataset(sk.read(a.levels)[:50], batch_size=25, **limits)
        run = sr.solve_dataset(a.levels, batch_size=25, **limits)
        assert len(run.results) == count and len(run.nodes) == nodes, run.nodes
        print(f"| {nodes} | {run.seconds:.2f} | {count / run.seconds:.0f} |")
    ray.shutdown()
    cluster.shutdown()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
