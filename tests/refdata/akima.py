"""Reference values of Akima's spline and the modified Akima spline (scipy's
Akima1DInterpolator, method "akima" and "makima") through the points of
tests/models/tables/SplineTables.mo, and the slopes at the two end points (which the
LastTwoPoints extrapolation continues with). Writes akima.csv: u, akima, makima, then
two rows "slope_left" and "slope_right" in place of u (their values in the same columns)."""
import numpy as np
from scipy.interpolate import Akima1DInterpolator

x = np.array([0.0, 1.0, 2.0, 3.0, 4.5, 6.0])
y = np.array([0.0, 1.0, 1.0, 1.0, 3.0, 2.0])
a = Akima1DInterpolator(x, y, method="akima")
m = Akima1DInterpolator(x, y, method="makima")
u = np.arange(0.0, 6.0 + 1e-9, 0.25)
with open("akima.csv", "w") as f:
    f.write("u,akima,makima\n")
    for ui in u:
        f.write(f"{float(ui)!r},{float(a(ui))!r},{float(m(ui))!r}\n")
    da, dm = a.derivative(), m.derivative()
    f.write(f"slope_left,{float(da(x[0]))!r},{float(dm(x[0]))!r}\n")
    f.write(f"slope_right,{float(da(x[-1]))!r},{float(dm(x[-1]))!r}\n")
