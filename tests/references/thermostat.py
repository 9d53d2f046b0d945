"""Switching times of examples/Thermostat.mo, computed independently with scipy.

Run: python3 tests/references/thermostat.py  (writes thermostat_switches.csv beside it).
Method: solve_ivp (DOP853, rtol = atol = 1e-12) from switch to switch with event location
(brentq at xtol 1e-12 inside solve_ivp); each segment is checked against the closed form
T(t) = Tinf + (T0 - Tinf) exp(-t/tau), tau = C/G, Tinf = Ta + P/G (on) or Ta (off).
"""
import csv
import math
import pathlib

from scipy.integrate import solve_ivp

C, G, P, Ta, Tmin, Tmax = 1e5, 50.0, 3000.0, 5.0, 19.0, 21.0
T0, stop = 15.0, 20000.0


def rhs(on):
    return lambda t, y: [((P if on else 0.0) - G * (y[0] - Ta)) / C]


def main():
    t, T, on = 0.0, T0, True
    rows = []
    while True:
        target = Tmax if on else Tmin
        ev = lambda tt, y, target=target: y[0] - target
        ev.terminal = True
        ev.direction = 1 if on else -1
        sol = solve_ivp(rhs(on), (t, stop), [T], method="DOP853", rtol=1e-12, atol=1e-12,
                        events=ev)
        if not sol.t_events[0].size:
            break
        te = float(sol.t_events[0][0])
        tau = C / G
        tinf = Ta + (P / G if on else 0.0)
        exact = t + tau * math.log((T - tinf) / (target - tinf))
        assert abs(te - exact) < 1e-6, (te, exact)
        rows.append((te, 0 if on else 1))
        t, T, on = te, target, not on
    out = pathlib.Path(__file__).with_name("thermostat_switches.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time", "heater_on_after"])
        for te, what in rows:
            w.writerow([f"{te:.12f}", what])
    print(f"{len(rows)} switches written to {out}")


if __name__ == "__main__":
    main()
