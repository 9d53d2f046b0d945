"""Switching times of examples/Rectifier.mo, computed independently with scipy.

Run: python3 tests/references/rectifier.py  (writes rectifier_switches.csv beside it).
The diode is an ideal switch: on (vd/Ron) while vd = vs - vC > 0, off (vd*Goff) otherwise.
Each conduction state is integrated with Radau (rtol 1e-11, atol 1e-13) until vd crosses
zero, located by solve_ivp's event search; at t = 0 vd = 0 and rising, so the diode turns on.
"""
import csv
import math
import pathlib

from scipy.integrate import solve_ivp

V, f, Ron, Goff, C, R = 10.0, 50.0, 0.1, 1e-6, 1e-4, 100.0
w = 2 * math.pi * f
stop = 0.1


def vs(t):
    return V * math.sin(w * t)


def rhs(on):
    def f_(t, y):
        vd = vs(t) - y[0]
        i = vd / Ron if on else vd * Goff
        return [(i - y[0] / R) / C]
    return f_


def main():
    t, vC, on = 0.0, 0.0, True
    rows = [(0.0, 1)]
    while t < stop:
        ev = lambda tt, y: vs(tt) - y[0]
        ev.terminal = True
        ev.direction = -1 if on else 1
        # Start the event search just after a switch (vd = 0 there).
        sol = solve_ivp(rhs(on), (t, stop), [vC], method="Radau", rtol=1e-11, atol=1e-13,
                        events=ev, max_step=1e-4, first_step=1e-9)
        if not sol.t_events[0].size:
            break
        te = float(sol.t_events[0][0])
        vC = float(sol.y_events[0][0][0])
        on = not on
        rows.append((te, 1 if on else 0))
        t = te
    out = pathlib.Path(__file__).with_name("rectifier_switches.csv")
    with open(out, "w", newline="") as fh:
        wr = csv.writer(fh)
        wr.writerow(["time", "diode_on_after"])
        for te, state in rows:
            wr.writerow([f"{te:.12f}", state])
    print(f"{len(rows)} switchings written to {out}")


if __name__ == "__main__":
    main()
