#!/usr/bin/env python3
"""Coefficients of 2 cos(pi f) = 2 + z h(z), z = f^2 in [0, 1/4], h of the given degree.

Chebyshev economisation of h's Taylor series: start from the series to k = 20 and remove its
highest term with the shifted Chebyshev polynomial T_n(8z - 1) until the degree is reached.
Prints the bound of what was removed, the error of the double-precision Horner evaluation
(checked against mpmath at 4000 points) and the coefficients, highest first, as
shaders/lattice.glsl's cosPiOfSquare writes them. Needs mpmath (Debian python3-mpmath).

    python3 docs/numerics/cos-pi-coefficients.py 7
"""
import sys

import mpmath as mp

mp.mp.dps = 60
UPPER = mp.mpf(1) / 4  # z = f^2, |f| <= 1/2


def taylor_h(terms):
    """h(z) = sum_{k>=1} 2 (-1)^k pi^(2k) / (2k)! z^(k-1), ascending powers."""
    return [2 * (-1) ** k * mp.pi ** (2 * k) / mp.factorial(2 * k) for k in range(1, terms + 1)]


def shifted_chebyshev(n):
    """Ascending coefficients of T_n(2z/UPPER - 1)."""
    x = [mp.mpf(-1), 2 / UPPER]
    previous, current = [mp.mpf(1)], x[:]
    if n == 0:
        return previous
    for _ in range(n - 1):
        following = [mp.mpf(0)] * (len(current) + 1)
        for i, c in enumerate(current):
            following[i] += 2 * c * x[0]
            following[i + 1] += 2 * c * x[1]
        for i, c in enumerate(previous):
            following[i] -= c
        previous, current = current, following
    return current


def economise(coefficients, degree):
    c = list(coefficients)
    removed = mp.mpf(0)  # |T_n| <= 1 on the range: the error is at most the sum of the factors
    while len(c) - 1 > degree:
        n = len(c) - 1
        t = shifted_chebyshev(n)
        factor = c[n] / t[n]
        for i in range(n + 1):
            c[i] -= factor * t[i]
        removed += abs(factor)
        c.pop()
    return c, removed


def horner_in_double(h, z):
    """The shader's evaluation, each multiply-add rounded once to double."""
    acc = mp.mpf(h[-1])
    for c in reversed(h[:-1]):
        acc = mp.mpf(float(acc * z + c))
    return mp.mpf(float(2 + z * acc))


def main():
    degree = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    exact_h, removed = economise(taylor_h(20), degree)
    h = [float(c) for c in exact_h]
    worst = worst_over_z = mp.mpf(0)
    for i in range(1, 4001):
        z = UPPER * i / 4000
        error = abs(horner_in_double(h, z) - 2 * mp.cos(mp.pi * mp.sqrt(z)))
        worst = max(worst, error)
        worst_over_z = max(worst_over_z, error / z)
    print(f"degree {degree}: removed <= {mp.nstr(removed, 3)}, "
          f"|error| <= {mp.nstr(worst, 3)}, |error|/z <= {mp.nstr(worst_over_z, 3)}")
    for c in reversed(h):
        print(repr(c))


if __name__ == "__main__":
    main()
