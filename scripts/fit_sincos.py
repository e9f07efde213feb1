#!/usr/bin/python3
"""Fits the sin/cos polynomials used by c/sincos.h on [-pi/4, pi/4] (minimax in absolute error,
by Lawson's iteratively reweighted least squares) and prints them as C float literals.

sin(y) ~ y + y^3 (s0 + s1 y^2 + s2 y^4)
cos(y) ~ 1 + y^2 (c0 + c1 y^2 + c2 y^4 + c3 y^6)
"""
import numpy as np

y = np.cos(np.linspace(0, np.pi, 20001)) * (np.pi / 4)   # Chebyshev-like nodes
y = y[np.abs(y) > 1e-6]


def lawson(basis, target, iterations=400):
    w = np.full(len(target), 1.0 / len(target))
    for _ in range(iterations):
        sw = np.sqrt(w)
        coef, *_ = np.linalg.lstsq(basis * sw[:, None], target * sw, rcond=None)
        err = np.abs(basis @ coef - target)
        w = w * err
        w /= w.sum()
    return coef


y2 = y * y
sin_coef = lawson(np.stack([y**3, y**5, y**7], 1), np.sin(y) - y)
cos_coef = lawson(np.stack([y**2, y**4, y**6, y**8], 1), np.cos(y) - 1)


def sin_f32(c):
    c = c.astype(np.float32); t = y.astype(np.float32); t2 = t * t
    return t + t * t2 * (c[0] + t2 * (c[1] + t2 * c[2]))


def cos_f32(c):
    c = c.astype(np.float32); t = y.astype(np.float32); t2 = t * t
    return np.float32(1) + t2 * (c[0] + t2 * (c[1] + t2 * (c[2] + t2 * c[3])))


print("// approximation error (float64):  sin %.2e  cos %.2e" % (
    np.max(np.abs(np.stack([y**3, y**5, y**7], 1) @ sin_coef - (np.sin(y) - y))),
    np.max(np.abs(np.stack([y**2, y**4, y**6, y**8], 1) @ cos_coef - (np.cos(y) - 1)))))
print("// evaluated in float32:           sin %.2e  cos %.2e" % (
    np.max(np.abs(sin_f32(sin_coef) - np.sin(y))), np.max(np.abs(cos_f32(cos_coef) - np.cos(y)))))
for name, c in (("PE_SIN", sin_coef), ("PE_COS", cos_coef)):
    for k, v in enumerate(c):
        print("#define %s%d %.9ef" % (name, k, np.float32(v)))
