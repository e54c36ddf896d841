#!/usr/bin/env python3
"""Hertz reference for Paper I E1b (studies/paper1_hertz_column.toml), written from the paper, not from the engine.

Paper I Eq. (11) (seed 000 line 377, the same formula as the thesis intro, line 68):
    f_n = k_n g^{3/2},  k_n = E sqrt(2 d) / (3 (1 - nu^2)),  d = (1/d_a + 1/d_b)^{-1} the effective diameter.
Equal spheres of diameter D: d = D/2, so k_n/(E sqrt(D)) = 1/(3 (1 - nu^2)).
Sphere on the floor (a plane: infinite diameter): d = D, so k_n/(E sqrt(D)) = sqrt(2)/(3 (1 - nu^2)).
(The floor is read as a half-space of the same material, as Eq. 11 has one E and one nu; the engine's wall
contact uses the column's material.) The study passes these two numbers as reference_kn_pair and
reference_kn_floor; experiment ndem_column compares the simulated overlaps with ((N_p - j) m g / k_n)^{2/3},
m = rho pi D^3/6, without calling the engine's hertz_stiffness.

Usage: hertz_column_reference.py [--perturb radius|modulus] [--nu 0.3]
  prints the two parameters (TOML) and writes nothing; with --csv FILE also the expected overlaps per E.
  --perturb radius : between spheres the particle diameter D in place of the effective diameter D/2, i.e.
                     R* = r instead of r/2 (k_pair x sqrt 2; the floor contact is unchanged)
  --perturb modulus: E in place of E/(1 - nu^2) (k x (1 - nu^2))
Both perturbations must turn the study's check red (README of validation/paper1 and the study's header).
"""
import argparse, csv, math, sys

ap = argparse.ArgumentParser()
ap.add_argument("--nu", type=float, default=0.3)
ap.add_argument("--perturb", choices=["none", "radius", "modulus"], default="none")
ap.add_argument("--csv")
a = ap.parse_args()

D, rho, g, n = 0.01, 2500.0, 9.82, 20  # the study's diameter, density, gravity, count
def kn_over_E_sqrtD(d_eff):
    nu_term = 1.0 if a.perturb == "modulus" else (1 - a.nu ** 2)
    return math.sqrt(2 * d_eff) / (3 * nu_term) / math.sqrt(D)

pair, floor = kn_over_E_sqrtD(D if a.perturb == "radius" else D / 2), kn_over_E_sqrtD(D)
print(f"reference_kn_pair = {pair:.8g}    # Eq. 11, d_eff = D/2, nu = {a.nu} ({a.perturb})")
print(f"reference_kn_floor = {floor:.8g}   # Eq. 11, d_eff = D")
if a.csv:
    m = rho * math.pi * D ** 3 / 6
    with open(a.csv, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["youngs_modulus", "kn_pair", "kn_floor", "bottom_overlap_over_d", "mean_overlap_over_d"])
        for E in [10.0 ** e for e in range(5, 14)]:
            kp, kf = pair * E * math.sqrt(D), floor * E * math.sqrt(D)
            ov = [((n - j) * m * g / (kf if j == 0 else kp)) ** (2 / 3) / D for j in range(n)]
            w.writerow([f"{E:g}", f"{kp:.6g}", f"{kf:.6g}", f"{ov[0]:.6g}", f"{sum(ov) / n:.6g}"])
