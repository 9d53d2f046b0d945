#!/bin/bash
# Pairs: the machine's own frame limit (frame-jitter, same priority, pinning and spin), then rtc.
cd "$(dirname "$0")/../.."
for pair in "1000 1e-3 1e-4" "500 5e-4 1e-4" "200 2e-4 1e-4" "100 1e-4 1e-4" "50 5e-5 5e-5" "20 2e-5 2e-5" "10 1e-5 1e-5"; do
  set -- $pair
  us=$1; f=$2; h=$3
  spin=$(( us < 200 ? us : 200 ))
  echo "== frame $us us (step $h, spin $spin us)"
  chrt -f 80 taskset -c 1 ${FRAME_JITTER:-../shared/tools/frame-jitter/target/release/frame-jitter} $us 10 $spin
  ./target/release/rtc run examples/VdPLine.mo --method mixed --implicit u_l --step $h --frame $f --duration 10 --realtime --out /dev/null --interval 1e-3 --grace 0.1 --fifo 80 --pin 1 --mlock 2>&1 | tail -4 | head -3
done
