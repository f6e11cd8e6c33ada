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
# overflow panics too). Seeds: put level, move and solution files in fuzz/corpus/TARGET/ first
# (the campaign of BENCHMARKS.md seeded them from data/ and the repros).
set -euo pipefail
cd "$(dirname "$0")"
TARGETS=(parse_xsb parse_formats verify solutions decode_lurd)

summary() {
    set +e
    echo "| target | seconds | executions | exec/s | corpus (inputs) | crashes | exit |"
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
