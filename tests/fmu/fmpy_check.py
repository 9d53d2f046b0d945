#!/usr/bin/env python3
"""FMPy's view of an FMU that `rtc fmu` wrote (run by tests/it/fmu.rs):

    fmpy_check.py MODEL.fmu RUN.csv [NAME=VALUE,...] [INPUT.csv]

validates the FMU (fmpy.validation.validate_fmu: the model description against the FMI 3.0
schema and its rules), simulates it with fmpy.simulate_fmu at the FMU's fixed step with the
given start values (and the input signal of INPUT.csv: a time column, then one column per
input, given to FMPy, which sets each input before every step), and compares every column of RUN.csv (what `rtc run` wrote for the same
method, step and values) with FMPy's result: equal within 1e-12 relative (they are the same
compiled step, so in practice to the bit). Exit 0 when all agree.
"""
import csv
import sys

import fmpy
import numpy as np
from fmpy.validation import validate_fmu

fmu, run_csv = sys.argv[1], sys.argv[2]
starts = {}
if len(sys.argv) > 3 and sys.argv[3]:
    for kv in sys.argv[3].split(","):
        k, v = kv.split("=")
        starts[k] = float(v)

problems = validate_fmu(fmu)
if problems:
    print("validation:", *problems, sep="\n  ")
    sys.exit(1)

rows = list(csv.reader(open(run_csv)))
names = rows[0][1:]
data = np.array([[float(x) for x in r] for r in rows[1:]])
signal = None
if len(sys.argv) > 4:
    cols = list(csv.reader(open(sys.argv[4])))
    dtype = [(c, np.float64) for c in cols[0]]
    signal = np.array([tuple(float(x) for x in r) for r in cols[1:]], dtype=dtype)
md = fmpy.read_model_description(fmu)
# FMI 3 declares the step (fixedInternalStepSize); FMI 2 has only the default experiment's.
h = float(md.coSimulation.fixedInternalStepSize or md.defaultExperiment.stepSize)
result = fmpy.simulate_fmu(fmu, start_values=starts, output=names, stop_time=data[-1, 0],
                           output_interval=h, input=signal)
if len(result) != len(data):
    print(f"{fmu}: {len(result)} rows from FMPy, {len(data)} from rtc run")
    sys.exit(1)
worst = 0.0
for k, name in enumerate(names):
    d = np.abs(result[name] - data[:, k + 1]) / (1.0 + np.abs(data[:, k + 1]))
    worst = max(worst, float(np.max(d)))
print(f"{fmu}: FMPy validation clean; {len(data)} rows, largest relative difference "
      f"from rtc run {worst:.3g} (FMPy {fmpy.__version__})")
sys.exit(0 if worst <= 1e-12 else 1)
