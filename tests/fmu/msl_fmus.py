#!/usr/bin/env python3
"""Exports MSL examples as FMUs and checks them with FMPy (not part of the test suite: it needs
an MSL checkout). For each class named in CLASSES.txt (one per line; e.g. the examples
`msl_survey` reports as "checks and runs"):

    rtc fmu CLASS --lib MSL/Modelica --lib MSL/ModelicaServices --fmi V -o NAME.fmu
    fmpy.validation.validate_fmu(NAME.fmu) == []
    fmpy.simulate_fmu(NAME.fmu)                  # to the experiment's stop time

Usage: msl_fmus.py RTC MSL_DIR CLASSES.txt [3|2]   (run in a scratch directory)
"""
import subprocess
import sys

import fmpy
from fmpy.validation import validate_fmu

rtc, msl, classes = sys.argv[1], sys.argv[2], sys.argv[3]
version = sys.argv[4] if len(sys.argv) > 4 else "3"
libs = ["--lib", f"{msl}/Modelica", "--lib", f"{msl}/ModelicaServices"]
ok = bad = 0
for name in open(classes).read().split():
    fmu = name.split(".")[-1] + f"-fmi{version}.fmu"
    p = subprocess.run([rtc, "fmu", name, *libs, "--fmi", version, "-o", fmu],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        print(name, "rtc fmu failed:", (p.stderr.strip().splitlines() or ["?"])[-1][:200])
        bad += 1
        continue
    problems = validate_fmu(fmu)
    if problems:
        print(name, "invalid:", problems[:2])
        bad += 1
        continue
    try:
        fmpy.simulate_fmu(fmu)
        ok += 1
    except Exception as e:  # noqa: BLE001 - report and go on
        print(name, "simulation failed:", str(e)[:200])
        bad += 1
print(f"{ok} exported, valid and simulated by FMPy {fmpy.__version__}; {bad} not")
