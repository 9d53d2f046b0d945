"""Reference values of the monotone cubic Hermite splines of the MSL's tables through the
points of tests/models/tables/MonotoneTables.mo: Fritsch and Butland (1984) and Steffen
(1990), written here from the papers' slope formulas and evaluated by scipy's
CubicHermiteSpline. The end slopes are the end secants (the tables' convention); an inner
point where the secants change sign or one is zero gets slope 0. Writes monotone.csv: u,
fritsch_butland, steffen, then rows "slope_left" and "slope_right" in place of u."""
import numpy as np
from scipy.interpolate import CubicHermiteSpline

x = np.array([0.0, 1.0, 2.0, 3.0, 4.5, 6.0])
y = np.array([0.0, 1.0, 1.0, 1.5, 3.0, 2.0])
h = np.diff(x)
d = np.diff(y) / h


def slopes(inner):
    s = np.empty_like(x)
    s[0], s[-1] = d[0], d[-1]
    for i in range(1, len(x) - 1):
        s[i] = inner(d[i - 1], d[i], h[i - 1], h[i]) if d[i - 1] * d[i] > 0 else 0.0
    return s


def fritsch_butland(dl, dr, hl, hr):
    # The weighted harmonic mean of the neighbouring secants.
    return 3 * (hl + hr) / ((hl + 2 * hr) / dl + (hr + 2 * hl) / dr)


def steffen(dl, dr, hl, hr):
    # The slope of the parabola through the three points, limited to twice the smaller secant.
    p = (dl * hr + dr * hl) / (hl + hr)
    return np.sign(dl) * min(abs(p), 2 * min(abs(dl), abs(dr)))


fb = CubicHermiteSpline(x, y, slopes(fritsch_butland))
st = CubicHermiteSpline(x, y, slopes(steffen))
u = np.arange(0.0, 6.0 + 1e-9, 0.25)
with open("monotone.csv", "w") as f:
    f.write("u,fritsch_butland,steffen\n")
    for ui in u:
        f.write(f"{float(ui)!r},{float(fb(ui))!r},{float(st(ui))!r}\n")
    f.write(f"slope_left,{float(d[0])!r},{float(d[0])!r}\n")
    f.write(f"slope_right,{float(d[-1])!r},{float(d[-1])!r}\n")
