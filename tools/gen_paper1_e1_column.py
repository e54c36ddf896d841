#!/usr/bin/env python3
"""Writes studies/paper1_e1_column.toml (Paper I E1, ledger ../shared/claims/paper1.md section 1/E1).

One required-N_it scalar per (variant, N_p, epsilon) and the checks built from them; edit this script and
rerun it:
    python3 tools/gen_paper1_e1_column.py > studies/paper1_e1_column.toml
The study header (HEADER below) holds the settings, the choices and the measured results.
"""
import math
import re

# Adjacent points at most 1.25x apart up to 500 (the paper's largest N_it, 000 l.596), so that a band of
# +-25 % or "one grid step" can fail. 5-8 below the paper's 10: N_it^0.1 of a 5-column is ~7 (Eq. 41).
ITERS = [5, 6, 7, 8, 10, 12, 15, 18, 22, 27, 33, 40, 50, 60, 75, 90, 110, 135, 165, 200, 250, 300, 375, 450, 500]
COARSE_ITERS = ITERS[::2]  # perturbation: every other point (steps up to 1.56x)
EPS = [(0.1, "e10"), (0.05, "e5"), (0.02, "e2"), (0.01, "e1")]
BASE_NP_QUICK = [5, 10, 20, 40, 100]
BASE_NP_FULL = [5, 10, 20, 40, 60, 80, 100]
VARIANT_NP = [10, 40]  # the other variants: two column lengths (cost)
# code: (contact_law, warm_start, warm_start_beta, contact_order, label)
VARIANTS = {
    "cold": ("hertz", "cold", 1.0, "sequential", "Hertz, cold, sequential (base)"),
    "lin": ("linear", "cold", 1.0, "sequential", "linear law e_H = 1 (SPOOK NDEM)"),
    "wh05": ("hertz", "history", 0.5, "sequential", "warm start beta = 0.5 (velocity consistent with lambda_0)"),
    "wnov05": ("hertz", "history_no_velocity_update", 0.5, "sequential", "warm start beta = 0.5, no velocity update"),
    "wnov1": ("hertz", "history_no_velocity_update", 1.0, "sequential", "warm start beta = 1, no velocity update"),
    "wh1": ("hertz", "history", 1.0, "sequential", "warm start beta = 1 (velocity consistent with lambda_0)"),
    "rand": ("hertz", "cold", 1.0, "random", "random contact order per sweep"),
}
# Eq. 41 for the 1D column (ledger E1: narrow branch, l = N_p, I = 0): N_it^eps = 0.132 N_p / eps.
EQ41 = 0.132
# Largest N_p per epsilon judged by the slope and the prefactor: the largest quick N_p whose Eq. 41
# prediction stays below 400 (inside the grid, which ends at the paper's 500).
def judged_nps(eps, nps):
    return [n for n in nps if EQ41 * n / eps <= 400]


def q(s):
    return '"' + s + '"'


def where(v, n=None, it=None):
    law, ws, beta, order, _ = VARIANTS[v]
    parts = [f"contact_law = {q(law)}", f"warm_start = {q(ws)}", f"warm_start_beta = {beta}", f"contact_order = {q(order)}"]
    if n is not None:
        parts.insert(0, f"count = {n}")
    if it is not None:
        parts.insert(1, f"iterations = {it}")
    return "{ " + ", ".join(parts) + " }"


def zip_block(base_np):
    rows = [("cold", n) for n in base_np] + [(v, n) for v in VARIANTS if v != "cold" for n in VARIANT_NP]
    cols = {
        "count": [n for _, n in rows],
        "contact_law": [q(VARIANTS[v][0]) for v, _ in rows],
        "warm_start": [q(VARIANTS[v][1]) for v, _ in rows],
        "warm_start_beta": [VARIANTS[v][2] for v, _ in rows],
        "contact_order": [q(VARIANTS[v][3]) for v, _ in rows],
    }
    return "\n".join(f"{k} = [{', '.join(str(x) for x in xs)}]" for k, xs in cols.items())


def req(v, y, n, tag):
    return f"n_{v}_{y}_np{n}_{tag}"


# Reasons of the claims not reproduced (measured, quick tier; the full tier gives the same counts). Not tuned: every band, N_p pair and threshold above was fixed before the runs.
C04_REASON = ("NOT REPRODUCED at eps <= 0.02: N_it^eps (<eps_c> - elastic <= eps) = 5/12/27/60/135 (eps = 0.1), "
              "10/22/50/110/250 (0.05), 15/40/110/200/500 (0.02), 22/60/165/375/>500 (0.01) for N_p = 5/10/20/40/100. "
              "Log-log slope 5 -> 100: 1.10 (0.1) and 1.07 (0.05), in [0.8, 1.2] (checks slope_e10, slope_e5); 5 -> 40 at "
              "0.02: 1.25 and 5 -> 20 at 0.01: 1.45, outside. The short columns make it superlinear: a 5-column converges "
              "geometrically (<eps_c> - elastic = 0.0365, 0.0176, 0.0073, 0.0020 at N_it = 10, 15, 22, 33), so its N_it^eps "
              "grows like log(1/eps), not 1/eps; between N_p = 10 and 40 the slope at 0.02 is 1.16. With the literal "
              "<eps_c> (elasticity included) the slope at 0.01 is steeper still (22 -> 200 for N_p = 5 -> 20: 1.59)")
C05_REASON = ("NOT REPRODUCED for 0.05/0.01: at N_p = 20, N_it^0.05/N_it^0.1 = 50/27 = 1.85 (band [1.5, 2.5], check "
              "eps_ratio_e10_e5) and N_it^0.02/N_it^0.05 = 110/50 = 2.2 ([1.875, 3.125], eps_ratio_e5_e2) agree, but "
              "N_it^0.01/N_it^0.05 = 165/50 = 3.3 is outside [3.75, 6.25]: below eps ~ 0.02 the error falls faster than "
              "1/N_it. With the literal <eps_c> (elastic mean overlap 0.0033 d at N_p = 20 included) it is 200/50 = 4.0, "
              "inside: the elastic offset mimics the 1/eps law at the smallest threshold (ledger P8); we judge the error "
              "without elasticity, as Paper I calls overlaps beyond 0.01 d errors (000 l.596)")
C37_REASON = ("NOT REPRODUCED: a random order per sweep needs 15/27/50 sweeps against 12/22/40 sequential (N_p = 10) and "
              "75/135/300 against 60/110/200 (N_p = 40) at eps = 0.1/0.05/0.02: geometric mean 1.28, outside one grid step "
              "[0.8, 1.25] (one step worse at 5 of 6 points, two at N_p = 40, eps = 0.02). The ledger's toy found ~30 % "
              "too. Paper I calls the order 'of no significance'; on the column the sequential sweep (pairs bottom to top, "
              "then the floor) is consistently faster. At h = 5 ms (tier dt5ms) the ratio is 1.20, inside")
C46_REASON = ("FAILS AS STATED: the estimate N_it ~ (l/d)^2 is a log-log slope 2 of N_it^eps vs N_p in the 1D column "
              "(l/d = N_p); measured 1.10 (eps = 0.1) and 1.07 (0.05) over N_p = 5-100: N_it^0.05(100)/N_it^0.05(5) = "
              "250/10 = 25 against 20^2 = 400 (slope band [1.8, 2.2]: ratio [220, 729]). The paper's own Fig. 5 ('roughly "
              "linearly', l.614) contradicts the estimate for the error measure <eps_c>, as the ledger notes")
C56_REASON = ("NOT REPRODUCED at eps <= 0.02: prefactor a = eps x geometric mean of N_it^eps/N_p = 0.127 (eps = 0.1, "
              "N_p = 5-100) and 0.119 (0.05, N_p = 5-100), in [0.1, 0.15] (checks prefactor_e10, prefactor_e5; Eq. 41: "
              "0.132, slides: 0.1); 0.085 (0.02, N_p = 5-40) and 0.060 (0.01, N_p = 5-20), below. Per point a = 0.10-0.15 "
              "for N_p >= 20 at every eps (0.11, 0.10, 0.10 at eps = 0.02 for N_p = 20, 40, 100; 0.083, 0.094 at 0.01 for "
              "N_p = 20, 40) and falls to 0.044-0.06 for N_p = 5 at eps <= 0.02 (short columns converge geometrically, "
              "see c04_linear_in_np)")

HEADER = open(__file__.replace("gen_paper1_e1_column.py", "paper1_e1_column_header.txt")).read()  # noqa

out = []
w = out.append
w(HEADER.rstrip("\n"))
w(f"""[study]
name = "paper1_e1_column"
title = "Paper I E1: 1D column, required PGS iterations N_it^eps for <eps_c> <= eps vs N_p (Fig. 5)"
paper = "I"
experiment = "ndem_column"
description = "Perfect 1D columns (lateral fixed, 000 l.598) of N_p = 5-100 spheres, d = 0.01 m, m = 1e-3 kg, k_n = 0.5e6 N/m^1.5 (E/(1 - nu^2) = 1.5e7 Pa), mu = 0.7, e = 0, h = 0.01 s, tau_n = 2h, cold-started PGS with exactly N_it sweeps, gravity ramped 0.01 -> 9.82 m/s^2 (quick 5 s, full 60 s) then measured (quick 1 s, full 5 s). <eps_c> = mean overlap/d over all contacts (floor included) and all measured steps (Eq. 40); the error judged is <eps_c> minus the elastic Hertz part (ledger P8). N_it^eps = smallest grid N_it from which every larger one has <eps_c> - elastic <= eps."
metrics = ["eps_c", "eps_c_max", "eps_c_elastic", "eps_c_excess", "coordination_number", "max_lateral_offset_d", "buckled", "min_centre_step_d", "passed_through", "diverged"]
tiers = ["quick", "full", "coarse", "dt5ms", "zero_overlap", "soft_linear", "early_stop"]

[parameters]
diameter = 0.01
density = 1909.8593171027442   # m = 1e-3 kg (000 l.596): 1e-3 / (pi/6 * 0.01^3)
poisson_ratio = 0.3
youngs_modulus = 1.365e7       # E/(1 - nu^2) = 1.5e7 Pa -> engine k_n = E sqrt(d)/(3(1 - nu^2)) = 0.5e6 between spheres
restitution = 0.0
friction = 0.7
rolling_friction = 0.0
gravity = 9.82                 # the ramp's end value (000 l.598)
gravity_ramp_from = 0.01
gravity_ramp_time = 5.0
duration = 6.0
dt = 0.01
impact_velocity = -1.0         # unspecified in Paper I: the engine's rule v_imp = 0.02 d / h = 0.02 m/s
residual_tolerance = 0.0       # always exactly N_it sweeps
lateral = "fixed"
initial_overlap = 1e-5         # every contact active from the first step (the engine has no contact margin)
on_pass_through = "stop"       # spheres tunnelling through each other: recorded as diverged (NaN errors)
linear_stiffness = 2954.0      # linear law only: k_n^(2/3) (10.5 m g)^(1/3), the Hertz secant at the mean load of a 20-column
on_instability = "record"

[sweep.grid]
iterations = [{', '.join(map(str, ITERS))}]

[sweep.zip]
{zip_block(BASE_NP_QUICK)}

[tiers.full.parameters]
gravity_ramp_time = 60.0
duration = 65.0

[tiers.full.sweep.zip]
{zip_block(BASE_NP_FULL)}

# Perturbations (quick scale; each turns named checks red, measured values in the header).
[tiers.coarse.sweep.grid]
iterations = [{', '.join(map(str, COARSE_ITERS))}]

[tiers.dt5ms.parameters]
dt = 0.005

[tiers.zero_overlap.parameters]
initial_overlap = 0.0          # stacked at exactly zero overlap: the contacts wake up one step at a time

[tiers.soft_linear.parameters]
linear_stiffness = 295.4       # the linear law 10x softer than the equivalent stiffness

[tiers.early_stop.parameters]
residual_tolerance = 0.005     # PGS stops at a mean residual of 5 mm/s instead of sweeping N_it times
""")

# Required N_it per (variant, N_p, eps): base on the excess and on the literal <eps_c>, others on the excess.
for v in VARIANTS:
    nps = BASE_NP_QUICK if v == "cold" else VARIANT_NP
    for y, col, what in [("x", "eps_c_excess", "<eps_c> - elastic"), ("c", "eps_c", "<eps_c> as printed (elasticity included)")]:
        if y == "c" and v != "cold":
            continue
        for n in nps:
            for eps, tag in EPS:
                w(f"""[[derived]]
name = "{req(v, y, n, tag)}"
kind = "min_reaching"
x = "iterations"
y = "{col}"
threshold = {eps}
stays = true
where = {where(v, n)}
description = "{VARIANTS[v][4]}, N_p = {n}: N_it for {what} <= {eps} (every larger grid N_it too)"
""")
# N_p as scalars (for the prefactor N_it^eps / N_p).
for n in BASE_NP_QUICK:
    w(f"""[[derived]]
name = "np{n}"
kind = "value_at"
y = "count"
where = {where("cold", n, ITERS[-1])}
""")


def gmean(name, of, per, desc):
    w(f"""[[derived]]
name = "{name}"
kind = "scalar_mean"
of = [{', '.join(q(x) for x in of)}]
per = [{', '.join(q(x) for x in per)}]
description = "{desc}"
""")


# Prefactor a = N_it^eps eps / N_p: geometric mean of N_it^eps / N_p over the judged N_p, per eps.
for eps, tag in EPS:
    nps = judged_nps(eps, BASE_NP_QUICK)
    gmean(f"nit_per_np_{tag}", [req("cold", "x", n, tag) for n in nps], [f"np{n}" for n in nps],
          f"geometric mean over N_p = {', '.join(map(str, nps))} of N_it^eps / N_p at eps = {eps} (prefactor a = eps x this)")
pairs = [(n, tag) for n in VARIANT_NP for eps, tag in EPS if eps >= 0.02]
for v in ["lin", "wh05", "wh1", "wnov05", "wnov1", "rand"]:
    sel = pairs if v != "lin" else [(n, "e5") for n in VARIANT_NP]
    gmean(f"ratio_{v}", [req(v, "x", n, t) for n, t in sel], [req("cold", "x", n, t) for n, t in sel],
          f"geometric mean of N_it^eps({v}) / N_it^eps(cold) over (N_p, eps) = {', '.join(f'({n}, {t})' for n, t in sel)}")

CITE = 'paper = "I"\nseed = "000"'


def check(cid, kind, claim, source, lines, desc, body, seed="000"):
    cl = f'claim = "{claim}"\n' if claim else ""
    w(f"""[[check]]
id = "{cid}"
kind = "{kind}"
{cl}paper = "I"
seed = "{seed}"
source = "{source}"
lines = "{lines}"
description = "{desc}"
{body}
""")


def slope_check(tag, eps, hi, claim):
    r = hi / 5
    check(f"slope_{tag}", "ratio_bounds", claim, "Sec. 5.1, Fig. 5", "614",
          f"log-log slope of N_it^{eps} between N_p = 5 and {hi} in [0.8, 1.2], i.e. N_it({hi})/N_it(5) in [{r:g}^0.8, {r:g}^1.2]"
          + ("" if claim else " (cites no claim: P1-C04 as a whole is judged by c04_linear_in_np)"),
          f'numerator = "{req("cold", "x", hi, tag)}"\ndenominator = "{req("cold", "x", 5, tag)}"\nmin = {r ** 0.8:.4g}\nmax = {r ** 1.2:.4g}')


def eps_pair_check(e1, t1, e2, t2, claim):
    r = e1 / e2
    check(f"eps_ratio_{t1}_{t2}", "ratio_bounds", claim, "Sec. 5.1, Fig. 5", "614;664",
          f"N_p = 20: N_it^{e2} / N_it^{e1} within +-25 % of {e1}/{e2} = {r:g}"
          + ("" if claim else " (cites no claim: P1-C05 as a whole is judged by c05_inverse_in_eps)"),
          f'numerator = "{req("cold", "x", 20, t2)}"\ndenominator = "{req("cold", "x", 20, t1)}"\nmin = {0.75 * r:.4g}\nmax = {1.25 * r:.4g}')


def prefactor_check(tag, eps, claim):
    nps = judged_nps(eps, BASE_NP_QUICK)
    check(f"prefactor_{tag}", "within", claim, "slides: N_it ~ 0.1 N_p^z / eps; Eq. 41 gives 0.132", "129;143",
          f"prefactor a of N_it^eps = a N_p / eps at eps = {eps}: a = eps x geometric mean of N_it^eps / N_p over N_p = "
          f"{', '.join(map(str, nps))} in [0.1, 0.15], i.e. that mean in [0.1, 0.15] / eps"
          + ("" if claim else " (cites no claim: P1-C56 as a whole is judged by c56_prefactor)"),
          f'quantity = "nit_per_np_{tag}"\nvalue = {0.125 / eps:.6g}\ntolerance = {0.025 / eps:.6g}', seed="004")


def not_reproduced(cid, claim, source, lines, desc, reason, seed="000"):
    check(cid, "not_reproduced", claim, source, lines, desc, f'reason = "{reason}"', seed=seed)


# Live checks where the paper's statement holds at the quick tier (they cite no claim when the claim as a
# whole is judged "not reproduced" below: a claim passed by one check and failed by another is a
# contradiction for the claims audit). Measured numbers: the study header.
for eps, tag in EPS[:2]:
    slope_check(tag, eps, judged_nps(eps, BASE_NP_QUICK)[-1], "")
not_reproduced("c04_linear_in_np", "P1-C04", "Sec. 5.1, Fig. 5", "614",
               "N_it^eps grows roughly linearly with N_p: log-log slope in [0.8, 1.2] (ledger) for every eps",
               C04_REASON)
eps_pair_check(0.1, "e10", 0.05, "e5", "")
eps_pair_check(0.05, "e5", 0.02, "e2", "")
not_reproduced("c05_inverse_in_eps", "P1-C05", "Sec. 5.1, Fig. 5", "614;664",
               "N_it^eps1 / N_it^eps2 = eps2 / eps1 within +-25 % for 0.1/0.05, 0.05/0.02 and 0.05/0.01", C05_REASON)
check("c35_linear_vs_hertz", "within", "P1-C35", "Sec. 5.4", "723",
      "SPOOK NDEM with the linear law (e_H = 1, k = 2954 N/m) vs semi-smooth Hertz: N_it^0.05 within one grid step "
      "(geometric mean ratio over N_p = 10, 40 in [0.8, 1.25])",
      'quantity = "ratio_lin"\nvalue = 1.025\ntolerance = 0.225')
for v, beta in [("wh05", 0.5), ("wh1", 1)]:
    check(f"c36_warm_beta{str(beta).replace('.', 'p')}_vs_cold", "within", "P1-C36", "Sec. 5.4; App. B Eq. B.6", "725;791-794",
          f"1D column: warm start lambda_0 = {beta} lambda_prev (with the velocity consistent with lambda_0, as App. B "
          "defines v' = M^-1 p + M^-1 G^T lambda_k) needs < 0.8 x the cold N_it^eps (geometric mean over N_p = 10, 40 and "
          "eps = 0.1, 0.05, 0.02). The other half of C36 (no significant effect in containers and drums) is judged by the "
          "E2/E3 study",
          f'quantity = "ratio_{v}"\nvalue = 0.4\ntolerance = 0.4')
not_reproduced("c37_random_vs_sequential", "P1-C37", "Sec. 5.4", "725",
               "random contact order per sweep vs sequential (bottom to top): N_it^eps within one grid step (geometric "
               "mean ratio over N_p = 10, 40 and eps = 0.1, 0.05, 0.02 in [0.8, 1.25])", C37_REASON)
not_reproduced("c46_quadratic_theory", "P1-C46", "Sec. 3.2.1", "548-552",
               "theory: N_it ~ (l/d)^2, i.e. log-log slope 2 of N_it^eps vs N_p in the 1D column", C46_REASON)
check("c50_contacts_per_particle", "bounds", "P1-C50", "Sec. 3.2", "544",
      "E1 half: contacts per particle n_c = 2 N_c / N_p (floor included), averaged over the measured steps, is exactly 2 "
      "in every base column at N_it = 500 (the paper's largest; under-iterated columns collapse, see the header)",
      f'quantity = "coordination_number"\nwhere = {where("cold", it=ITERS[-1])}\nmin = 2.0\nmax = 2.0')
for eps, tag in EPS[:2]:
    prefactor_check(tag, eps, "")
not_reproduced("c56_prefactor", "P1-C56", "slides: N_it ~ 0.1 N_p^z / eps; Eq. 41 gives 0.132", "129;143",
               "prefactor a of N_it^eps = a N_p / eps in [0.1, 0.15] for the E1 points (z = 1)", C56_REASON, seed="004")

# Plots: the data collapse <eps_c> - elastic vs N_it / N_p (Eq. 41: 0.132 N_p / N_it), <eps_c> vs N_it.
series = ", ".join(f'{{ y = "eps_c_excess", where = {{ count = {n} }}, label = "N_p = {n}", style = "linespoints" }}' for n in BASE_NP_QUICK)
w(f"""[[derived]]
name = "nit_over_np"
kind = "ratio"
numerator = "iterations"
denominator = "count"

[[plot]]
name = "eps_c_vs_nit_over_np"
x = "nit_over_np"
where = {where("cold")}
title = "Paper I E1 (Fig. 5 analogue as a collapse): <eps_c> - elastic vs N_it/N_p; Eq. 41: 0.132 N_p/N_it"
xlabel = "N_it / N_p"
ylabel = "<eps_c> - elastic overlap / d"
logx = true
logy = true
series = [{series}]
reference = {{ file = "validation/paper1/e1_eq41_line.csv", x = "nit_over_np", y = "eps_c", label = "Eq. 41: N_it^eps = 0.132 N_p / eps" }}

[[plot]]
name = "eps_c_vs_nit"
x = "iterations"
where = {where("cold")}
title = "Paper I E1: <eps_c> (elasticity included, Eq. 40) vs N_it"
xlabel = "PGS iterations N_it"
ylabel = "<eps_c>"
logx = true
logy = true
series = [{series.replace('"eps_c_excess"', '"eps_c"')}]
""")
# Fig. 5 analogue: N_it^eps per column length as a per-run column (min_reaching group_by), one point per
# column from its N_it = 500 run; Eq. 41's line for eps = 0.05 as the reference.
for eps, tag in EPS:
    w(f"""[[derived]]
name = "nit_{tag}_per_column"
kind = "min_reaching"
x = "iterations"
y = "eps_c_excess"
threshold = {eps}
stays = true
group_by = ["count", "contact_law", "warm_start", "warm_start_beta", "contact_order"]
description = "N_it^eps, eps = {eps}, of each column (every larger grid N_it also reaches), on every run of it"
""")
fig5 = ", ".join(f'{{ y = "nit_{tag}_per_column", label = "eps = {eps}", style = "linespoints" }}' for eps, tag in EPS)
w(f"""[[plot]]
name = "nit_vs_np"
x = "count"
where = {where("cold", it=ITERS[-1])}
title = "Paper I E1 (Fig. 5 analogue): N_it^eps for <eps_c> - elastic <= eps vs N_p (missing: not within 500)"
xlabel = "N_p"
ylabel = "N_it^eps"
logx = true
logy = true
series = [{fig5}]
reference = {{ file = "validation/paper1/e1_eq41_nit.csv", x = "count", y = "nit", label = "Eq. 41, eps = 0.05: 0.132 N_p / 0.05" }}

""")
cols = lambda v, y, nps: ", ".join(q(req(v, y, n, t)) for n in nps for _, t in EPS)
w(f"""[[table]]
name = "required_nit_excess"
title = "N_it^eps for <eps_c> - elastic <= eps (eps = 0.1, 0.05, 0.02, 0.01 per N_p; NaN: not within N_it <= 500)"
where = {where("cold", 5, ITERS[-1])}
columns = [{cols("cold", "x", BASE_NP_QUICK)}]

[[table]]
name = "required_nit_literal"
title = "N_it^eps for <eps_c> <= eps as printed (elasticity included)"
where = {where("cold", 5, ITERS[-1])}
columns = [{cols("cold", "c", BASE_NP_QUICK)}]

[[table]]
name = "required_nit_variants"
title = "N_it^eps (excess) of the variants at N_p = 10, 40"
where = {where("cold", 5, ITERS[-1])}
columns = [{", ".join(cols(v, "x", VARIANT_NP) for v in VARIANTS if v != "cold")}]

[[table]]
name = "judged"
title = "the scalars the checks judge"
where = {where("cold", 5, ITERS[-1])}
columns = [{", ".join(q(x) for x in [f"nit_per_np_{t}" for _, t in EPS] + [f"ratio_{v}" for v in ["lin", "wh05", "wh1", "wnov05", "wnov1", "rand"]])}]

[[table]]
name = "column_runs"
columns = ["count", "contact_law", "warm_start", "warm_start_beta", "contact_order", "iterations", "eps_c", "eps_c_elastic", "eps_c_excess", "eps_c_max", "coordination_number", "max_lateral_offset_d", "min_centre_step_d", "passed_through", "diverged"]""")


def within_blocks(text):
    # "within one grid step" = [0.8, 1.25] = 1.025 +- 0.225; "< 0.8" = [0, 0.8] = 0.4 +- 0.4 (ratios are > 0).
    blocks = text.split("[[check]]")
    for i, b in enumerate(blocks):
        for key, value, tol in [("kind_within_max", 0.4, 0.4), ("kind_within", 1.025, 0.225)]:
            m = re.search(key + r' = "([^"]+)"', b)
            if m:
                b = b.replace('kind = "ratio_bounds"', 'kind = "within"')
                b = b.replace(m.group(0), f'quantity = "{m.group(1)}"\nvalue = {value}\ntolerance = {tol}')
                break
        blocks[i] = b
    return "[[check]]".join(blocks)


print(within_blocks("\n".join(out)))
