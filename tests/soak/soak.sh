#!/usr/bin/env bash
# Soak run: `rtc run` in real time for a long time, with the process's resident memory read
# every minute, and the overrun counters at the end (the runtime's summary).
#
#   tests/soak/soak.sh [SECONDS] [FRAME] [OUT_DIR]     (defaults: 3600 s, 1e-3 s, ./soak)
#
# The model is the Van-der-Pol line (n = 5, forward Euler, 2000 steps of 5e-7 s per 1 ms frame).
# Writes OUT_DIR/rss.csv (elapsed s, VmRSS kB, VmHWM kB), OUT_DIR/summary.txt and the results
# (one row per simulated second). Not part of the test suite: it takes the time it is given.
set -euo pipefail
secs=${1:-3600}
frame=${2:-1e-3}
out=${3:-soak}
here=$(cd "$(dirname "$0")/../.." && pwd)
rtc=${RTC:-$here/target/release/rtc}
mkdir -p "$out"
"$rtc" run "$here/examples/VdPLine.mo" --param n=5 --method fe --step 5e-7 --frame "$frame" \
    --duration "$secs" --interval 1 --realtime --out "$out/results.csv" 2>"$out/summary.txt" &
pid=$!
echo "elapsed_s,rss_kb,hwm_kb" >"$out/rss.csv"
start=$(date +%s)
sleep 10
while kill -0 "$pid" 2>/dev/null; do
    if [[ -r /proc/$pid/status ]]; then
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        [[ -n "$rss" ]] && echo "$(( $(date +%s) - start )),$rss,$hwm" >>"$out/rss.csv"
    fi
    sleep 60 & wait $! || true
    kill -0 "$pid" 2>/dev/null || break
done
wait "$pid"
cat "$out/summary.txt"
echo "resident memory (first and last sample):"
sed -n '2p;$p' "$out/rss.csv"
