#!/usr/bin/env python3
"""`rtc check` time of two rtc binaries on MSL examples, measured side by side.

Usage: check_time.py OLD_RTC NEW_RTC SURVEY_OUTPUT MSL_DIR

SURVEY_OUTPUT is the output of `msl_survey --check-only` (lines `Name: checks`); every
len/40-th example that checks is taken, 40 in all. Each is checked alternately with both
binaries, five rounds; the best time of each is kept and the sums are compared.
"""
import subprocess
import sys
import time

old, new, survey, msl = sys.argv[1:5]
names = [l.split(': ')[0] for l in open(survey) if l.rstrip().endswith(': checks')]
names = names[::max(1, len(names) // 40)][:40]
libs = []
for lib in ('Modelica', 'ModelicaServices', 'ModelicaTest'):
    libs += ['--lib', f'{msl}/{lib}']
best = {old: {}, new: {}}
for r in range(5):
    for n in names:
        for b in ([old, new] if r % 2 == 0 else [new, old]):
            t = time.perf_counter()
            subprocess.run([b, 'check', n] + libs, capture_output=True)
            dt = time.perf_counter() - t
            best[b][n] = min(best[b].get(n, 1e9), dt)
so, sn = sum(best[old].values()), sum(best[new].values())
print(f'{len(names)} examples: old {so:.2f} s, new {sn:.2f} s, ratio {sn / so:.3f}')
