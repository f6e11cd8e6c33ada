#!/usr/bin/env python3
"""Runs `sokoban solve` once per level, as its own process, many at once, and records each
level's JSON answer with the process's wall time and peak resident memory (from wait4).

    benches/per_level.py BINARY OUTDIR JOBS TAG FILE FIRST LAST [solve options...] [-- TAG FILE ...]

Every level runs on one thread unless its options say `--threads N`. Each TAG writes OUTDIR/TAG.jsonl: the solver's JSON line plus `wall` (seconds, the process's
whole life) and `max_rss_kb`. Job groups are separated by `--`; every level of every group goes
into one queue, longest limits first, so the machine stays full.
"""
import json, os, subprocess, sys, time, threading, queue

import sokoban_cli

def main():
    binary, outdir, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    groups, cur = [], []
    for a in sys.argv[4:]:
        if a == "--":
            groups.append(cur); cur = []
        else:
            cur.append(a)
    if cur:
        groups.append(cur)
    tasks = []
    for g in groups:
        tag, path, first, last, extra = g[0], g[1], int(g[2]), int(g[3]), g[4:]
        limit = float(extra[extra.index("--time-limit") + 1]) if "--time-limit" in extra else 60.0
        for n in range(first, last + 1):
            tasks.append((limit, tag, path, n, extra))
    tasks.sort(key=lambda t: -t[0])
    os.makedirs(outdir, exist_ok=True)
    q = queue.Queue()
    for t in tasks:
        q.put(t)
    lock = threading.Lock()
    results = {}
    def worker():
        while True:
            try:
                limit, tag, path, n, extra = q.get_nowait()
            except queue.Empty:
                return
            cmd = [binary, "solve", path, "--level", str(n), "--json"] + sokoban_cli.one_thread(binary, extra) + extra
            start = time.monotonic()
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out = p.stdout.read()
            _, status, usage = os.wait4(p.pid, 0)
            wall = time.monotonic() - start
            lines = out.decode().strip().splitlines()
            rec = json.loads(lines[-1]) if lines else {"level": n, "status": "crash"}
            rec.update(wall=round(wall, 3), max_rss_kb=usage.ru_maxrss, lines=len(lines))
            with lock:
                results.setdefault(tag, []).append(rec)
    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads: t.start()
    for t in threads: t.join()
    for tag, recs in results.items():
        recs.sort(key=lambda r: r["level"])
        with open(os.path.join(outdir, tag + ".jsonl"), "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
        solved = sum(r["status"] == "solved" for r in recs)
        print(tag, len(recs), "solved", solved, "optimal", sum(bool(r.get("optimal")) for r in recs),
              "wall sum %.1f" % sum(r["wall"] for r in recs), "max rss MB %.0f" % (max(r["max_rss_kb"] for r in recs) / 1024))

main()
