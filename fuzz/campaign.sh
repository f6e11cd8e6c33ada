#!/usr/bin/env bash
# The fuzz campaign of BENCHMARKS.md ("Fuzzing"): every target for SECS seconds (default 1800),
# two at a time, at the lowest CPU priority; logs in fuzz/logs/, corpora in fuzz/corpus/, crash
# inputs in fuzz/artifacts/TARGET/. Then a Markdown table of the results (also: `campaign.sh
# --summary` prints it for the logs already there).
#
#   cargo install cargo-fuzz
#   fuzz/campaign.sh [SECS]
#
# Built with `RUSTC_BOOTSTRAP=1 cargo fuzz build --sanitizer none -a` (stable toolchain; no
# sanitizer, as the library has no unsafe code; `-a` keeps debug assertions, so integer
# overflow panics too). Empty corpora are seeded from data/ and tests/data/repros/ first.
set -euo pipefail
cd "$(dirname "$0")"
TARGETS=(parse_xsb parse_formats verify solutions decode_lurd)

summary() {
    set +e
    echo "| target | seconds | executions | exec/s | corpus (inputs/size) | crashes | exit |"
    echo "|---|---|---|---|---|---|---|"
    for t in "${TARGETS[@]}"; do
        log=logs/$t.log
        [ -f "$log" ] || continue
        runs=$(grep -a '^stat::number_of_executed_units' "$log" | awk '{print $2}')
        rate=$(grep -a '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
        secs=$(grep -a '^Done ' "$log" | sed -E 's/.* in ([0-9]+) second.*/\1/')
        corp=$(grep -a -o 'corp: [0-9]*/[0-9A-Za-z]*' "$log" | tail -1 | sed 's/corp: //')
        crashes=$(find "artifacts/$t" -type f 2>/dev/null | wc -l)
        rc=$(grep -a '^rc=' "$log" | tail -1 | sed 's/rc=//')
        echo "| $t | ${secs:-?} | ${runs:-?} | ${rate:-?} | ${corp:-?} | $crashes | ${rc:-running} |"
    done
}

if [ "${1:-}" = "--summary" ]; then
    summary
    exit 0
fi
SECS=${1:-1800}
# Seeds for empty corpora: the first levels of every bundled file, the reproductions of issue
# 13, levels with the reference solutions of XSokoban (level, NUL, moves for `verify`).
python3 - <<'PY'
import glob, os
root = os.path.abspath('..')
def put(t, name, data):
    os.makedirs(f'corpus/{t}', exist_ok=True)
    with open(f'corpus/{t}/{name}', 'wb') as f:
        f.write((data.encode() if isinstance(data, str) else data)[:8000])
targets = ['parse_xsb', 'parse_formats', 'verify', 'solutions', 'decode_lurd']
if any(os.listdir(f'corpus/{t}') for t in targets if os.path.isdir(f'corpus/{t}')):
    raise SystemExit(0)
chunks = []
for f in sorted(glob.glob(f'{root}/data/*.xsb') + glob.glob(f'{root}/data/*.lisp')):
    parts = [p for p in open(f, errors='replace').read().split('\n\n') if '#' in p or '(' in p]
    chunks += [(f'{os.path.basename(f)}.{i}', p + '\n') for i, p in enumerate(parts[:6])]
for d in ['cab320-warehouses', 'snekoban-puzzles']:
    chunks += [(f'{d}.{os.path.basename(f)}', open(f, errors='replace').read())
               for f in sorted(glob.glob(f'{root}/data/{d}/*'))[:6]]
chunks += [(f'repro.{os.path.basename(f)}', open(f, 'rb').read().decode('utf-8', 'replace'))
           for f in glob.glob(f'{root}/tests/data/repros/*') if os.path.getsize(f) < 8000]
for name, text in chunks:
    put('parse_xsb', name, text)
    put('parse_formats', name, text)
    put('verify', name, text + '\0uRdLrDlU')
sols = open(f'{root}/data/xsokoban90-reference-solutions.tsv').read().splitlines()
boards = [p for p in open(f'{root}/data/xsokoban90.xsb').read().split('\n\n') if '#' in p]
put('solutions', 'tsv', '\n'.join(sols[:4]))
put('solutions', 'json', '{"level": 1, "lurd": "uRd"}\n{"level": 2, "lurd": null}\n')
for i in range(3):
    lurd = sols[i + 1].split('\t')[-1]
    put('solutions', f'sok{i}', f'{boards[i]}\n\nSolution (moves 1, pushes 1)\n{lurd[:300]}\n')
    put('verify', f'x{i}', f'{boards[i]}\n\0{lurd}')
    put('decode_lurd', f'x{i}', lurd)
for i, m in enumerate(['uRdL', '3l2U', '2(lU)r', 'Left, Up', '["up","down"]', 'lurd LURD\n', 'x', '']):
    put('decode_lurd', f'm{i}', m)
PY
RUSTC_BOOTSTRAP=1 cargo fuzz build --sanitizer none -a
BIN=target/x86_64-unknown-linux-gnu/release
mkdir -p logs
run() {
    local t=$1 rc=0
    mkdir -p "corpus/$t" "artifacts/$t"
    nice -n 19 "$BIN/$t" "corpus/$t" -max_total_time="$SECS" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"logs/$t.log" 2>&1 || rc=$?
    echo "rc=$rc" >>"logs/$t.log"
}
for ((i = 0; i < ${#TARGETS[@]}; i += 2)); do
    run "${TARGETS[i]}" &
    if ((i + 1 < ${#TARGETS[@]})); then run "${TARGETS[i + 1]}" & fi
    wait
done
summary
