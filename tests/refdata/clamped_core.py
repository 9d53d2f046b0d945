"""Reference for tests/models/index/ClampedCore.mo: the model reduced by hand to an ODE in the flux
density B and the field H (der(B) = mu*der(H) + der(P), P = M*tanh(clamp(H) - Hc)), solved by
classical RK4 at h = 1e-6 with the step split at each crossing of |H| = Hsat (bisection to
1e-15 s), sampled every 0.01 s, into clamped_core.csv (pure Python, no packages; written by
this project)."""
import math
V, R, N, l, A, mu, M, Hsat, Hc = 300.0, 1.0, 10.0, 1.0, 1.0, 0.1, 1.0, 1.0, 0.2

def f(t, y, inside):
    """The right-hand side on one side of the saturation: `inside` (|H| < Hsat) or not, fixed
    for a whole step so that no stage sees the other side's slope."""
    B, H = y
    dB = (V * math.sin(2 * math.pi * t) - R * l * H / N) / (N * A)
    if inside:
        g = mu + M * (1 - math.tanh(H - Hc) ** 2)
    else:
        g = mu
    return [dB, dB / g]

def rk4(t, y, h, inside):
    k1 = f(t, y, inside)
    k2 = f(t + h / 2, [y[i] + h / 2 * k1[i] for i in range(2)], inside)
    k3 = f(t + h / 2, [y[i] + h / 2 * k2[i] for i in range(2)], inside)
    k4 = f(t + h, [y[i] + h * k3[i] for i in range(2)], inside)
    return [y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(2)]

def side(y):
    return abs(y[1]) < Hsat

t, y, h = 0.0, [0.0, 0.0], 1e-6
out = open("clamped_core.csv", "w")
print("time,B,H", file=out)
print(f"{t:.2f},{y[0]:.12e},{y[1]:.12e}", file=out)
n = 0
while n < 100:
    target = (n + 1) * 0.01
    while t < target - 1e-15:
        step = min(h, target - t)
        inside = side(y)
        z = rk4(t, y, step, inside)
        if side(z) != inside:
            lo, hi = 0.0, step
            while hi - lo > 1e-15:
                mid = (lo + hi) / 2
                if side(rk4(t, y, mid, inside)) == inside:
                    lo = mid
                else:
                    hi = mid
            y = rk4(t, y, hi, inside)
            t += hi
            continue
        y, t = z, t + step
    n += 1
    print(f"{target:.2f},{y[0]:.12e},{y[1]:.12e}", file=out)
out.close()
