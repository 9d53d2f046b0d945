#!/usr/bin/env python3
"""Reference for examples/CruiseControl.mo: a car's speed under a saturated PI controller.

An independent Python implementation of the model (numpy's interp for the traction table,
min/max for the clamp, the polynomial written out), integrated by scipy's Radau at
rtol = atol = 1e-10 on [0, 10] and [10, 40] separately (the set point steps at t = 10):

  m v' = throttle * traction(v) - (0.02 v^2 + 0.5 v + 150) - 0.5 rho cdA v^2
  xi'  = ki (vref - v) - kaw (uraw - throttle)
  uraw = kp (vref - v) + xi,  throttle = clamp(uraw, 0, 1),  vref = 20 (t < 10), 28
  v(0) = 15, xi(0) = 0.3; output every 0.1 s to t = 40.

The table is extrapolated from its end rows as the model's function does (numpy's interp
holds the end values, so the end segments are extended by hand).
"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np
from scipy.integrate import solve_ivp

import common

M, CDA, RHO, KP, KI, KAW = 1200.0, 0.7, 1.2, 0.5, 0.1, 2.0
TAB = np.array([[0, 4000], [5, 4200], [10, 4300], [15, 4200], [20, 3800], [25, 3200],
                [30, 2500], [40, 1500]], dtype=float)
STOP, DT = 40.0, 0.1


def traction(v):
    x, y = TAB[:, 0], TAB[:, 1]
    if v < x[1]:
        return y[0] + (y[1] - y[0]) * (v - x[0]) / (x[1] - x[0])
    if v > x[-2]:
        return y[-2] + (y[-1] - y[-2]) * (v - x[-2]) / (x[-1] - x[-2])
    return float(np.interp(v, x, y))


def rhs(t, s, vref):
    v, xi = s
    uraw = KP * (vref - v) + xi
    thr = min(max(uraw, 0.0), 1.0)
    f = thr * traction(v)
    res = 0.02 * v * v + 0.5 * v + 150.0 + 0.5 * RHO * CDA * v * v
    return [(f - res) / M, KI * (vref - v) - KAW * (uraw - thr)]


def main():
    t = common.sample_times(STOP, DT)
    out = []
    s0 = [15.0, 0.3]
    for (a, b, vref) in [(0.0, 10.0, 20.0), (10.0, STOP, 28.0)]:
        ts = t[(t >= a - 1e-12) & (t <= b + 1e-12)]
        sol = solve_ivp(rhs, (a, b), s0, method="Radau", t_eval=ts, rtol=1e-10, atol=1e-10,
                        args=(vref,), max_step=0.05)
        assert sol.success, sol.message
        rows = sol.y.T
        if out:
            rows = rows[1:]  # t = 10 is the end of the first piece
        out.extend(rows.tolist())
        s0 = sol.y[:, -1].tolist()
    common.write_csv("cruise.csv", t, np.array(out), ["v", "xi"])


if __name__ == "__main__":
    main()
