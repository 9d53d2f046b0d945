#!/usr/bin/env python3
"""Reference trajectory: the pendulum of tests/models/index/CartesianPendulum.mo.

In Cartesian coordinates the model is an index-3 DAE (x^2 + y^2 = L^2); its solution is the
ordinary pendulum in the angle theta from the downward vertical:
    theta'' = -(g/L) sin(theta),  theta(0) = asin(x0/L) = pi/6,  theta'(0) = 0,
    x = L sin(theta), y = -L cos(theta), vx = L cos(theta) theta', vy = L sin(theta) theta'.
L = 1, g = 9.81; output every 0.01 s on [0, 2].

Primary solution: the closed form with Jacobi elliptic functions (the release from rest at the
largest angle): k = sin(theta0/2), m = k^2, w0 = sqrt(g/L),
    theta(t) = 2 asin(k sn(K(m) - w0 t, m)),  theta'(t) = -2 k w0 cn(K(m) - w0 t, m),
checked against DOP853 at rtol = 1e-13 (the largest difference is printed).
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipj, ellipk

L, G = 1.0, 9.81
THETA0 = np.arcsin(0.5 / L)
STOP, DT = 2.0, 0.01

t = np.round(np.arange(0.0, STOP + DT / 2, DT), 10)
k = np.sin(THETA0 / 2)
m = k * k
w0 = np.sqrt(G / L)
sn, cn, dn, _ = ellipj(ellipk(m) - w0 * t, m)
theta = 2 * np.arcsin(k * sn)
dtheta = -2 * k * w0 * cn

sol = solve_ivp(lambda _t, s: [s[1], -(G / L) * np.sin(s[0])], (0.0, STOP), [THETA0, 0.0],
                method="DOP853", rtol=1e-13, atol=1e-14, t_eval=t)
diff = max(np.max(np.abs(sol.y[0] - theta)), np.max(np.abs(sol.y[1] - dtheta)))
print(f"closed form vs DOP853: largest difference {diff:.2e}")
assert diff < 1e-10

x, y = L * np.sin(theta), -L * np.cos(theta)
vx, vy = L * np.cos(theta) * dtheta, L * np.sin(theta) * dtheta
with open("cartesian_pendulum.csv", "w") as f:
    f.write("time,x,y,vx,vy\n")
    for row in zip(t, x, y, vx, vy):
        f.write(",".join(repr(float(v)) for v in row) + "\n")
