#!/bin/sh
# Regenerates the reference data the tests read, from the generators kept beside it.
# Needs python3 with numpy, scipy and matplotlib (the plots are drawn and thrown away):
#   python3 -m venv /tmp/refdata-venv && /tmp/refdata-venv/bin/pip install numpy scipy matplotlib
#   PY=/tmp/refdata-venv/bin/python tests/refdata/regenerate.sh
# About 5 minutes on 2 cores. The generators write next to themselves, so they run in a
# scratch copy and only the files the tests read are copied back.
set -e
here=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MPLBACKEND=Agg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.py "$work"/
mkdir "$work/discrete" && cp "$here"/discrete/*.py "$work/discrete/"
cd "$work"
$PY second_order.py
$PY helicopter.py
$PY pendulum.py
$PY hydraulic.py
$PY vdpline.py 5 load
$PY cruise.py
$PY cartesian_pendulum.py
$PY akima.py
$PY monotone.py
$PY clamped_core.py
(cd discrete && $PY vdpline_discrete.py)
for f in second_order.csv second_order.json second_order_discrete_h0.01.csv \
         helicopter.csv helicopter.json pendulum_b0.02.csv pendulum_b0.02.json \
         hydraulic.csv hydraulic.json vdpline_n5_load.csv vdpline_n5_load.json cruise.csv \
         cartesian_pendulum.csv akima.csv monotone.csv clamped_core.csv \
         discrete/vdpline_n5_load_be_h0.001.csv discrete/vdpline_n5_load_fe_h0.001.csv \
         discrete/vdpline_n5_load_mixed_h0.0001.csv discrete/vdpline_n5_load_trapezoid_h0.0001.csv; do
  cp "$work/$f" "$here/$f"
done
echo "regenerated into $here; compare with: git diff --stat tests/refdata"
