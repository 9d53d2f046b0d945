#!/usr/bin/env bash
# rtc run as a user runs it against the hand-written step as a program of its own (the book's
# performance chapter, "As a user runs it"): the VdPLine line at n = 5, 50, 500 by forward
# Euler and mixed mode at h = 5e-7, five alternating rounds, the best of each side.
# Usage: bench/standalone/run_vs_hand.sh [path/to/rtc]   (default: a release build in target/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
rtc="${1:-${CARGO_TARGET_DIR:-$root/target}/release/rtc}"
cargo build --release -q --manifest-path "$here/Cargo.toml" --target-dir "$here/target"
hand="$here/target/release/vdpline-hand"
for n in 5 50 500; do
  for m in fe mixed; do
    stop=1; steps=2000000
    if [ "$n" = 500 ]; then stop=0.1; steps=200000; fi
    best_rtc=""; best_hand=""
    for _ in 1 2 3 4 5; do
      a=$("$rtc" run "$root/examples/VdPLine.mo" --param "n=$n" --method "$m" --step 5e-7 \
            --stop "$stop" --interval "$stop" --no-check 2>&1 >/dev/null \
          | sed -n 's/.*(\([0-9.]*\) ns per step).*/\1/p')
      b=$("$hand" "$n" "$m" "$steps" | awk '{print $3}')
      best_rtc=$(awk -v x="$a" -v y="${best_rtc:-$a}" 'BEGIN { print (x < y ? x : y) }')
      best_hand=$(awk -v x="$b" -v y="${best_hand:-$b}" 'BEGIN { print (x < y ? x : y) }')
    done
    awk -v n="$n" -v m="$m" -v r="$best_rtc" -v h="$best_hand" \
      'BEGIN { printf "n = %-4s %-6s rtc run %8.1f ns/step  hand-written %8.1f ns/step  ratio %.2f\n", n, m, r, h, r / h }'
  done
done
