#!/usr/bin/env python3
"""Writes table1.csv: Paper I Table I (seed 000 lines 687-721) in long form, one printed cell per line.

The transcription is /work/shared/claims/paper1.md section 3.1 (OCR damage repaired there: w "9" -> 6,
"б" -> 3, "S" -> 5, "le+" -> 1e+, "2+9" -> 2e+9, blank w -> 1, row 1 N_p "203" -> 280). `tolerance` is half a
unit of the last printed significant digit (trailing zeros of integers are not significant), i.e. a value
"matches" when it rounds to the printed one. `recomputed` is the ledger's independent python recomputation
(section 3.2) for the cells whose printed value contradicts its own row (errata); the check compares
our value with it instead of the printed one and lists the cell under errata. Status "differs" marks a
printed cell that is consistent with its own row but that our reconstruction does not reproduce (row 9's
tau_N/tau_real, see DIFFERS): compared with the printed value, a miss makes the check "not reproduced".
Row r of the table is line 688 + r of the seed.
"""
import csv, math, sys

COLS = ["d_mm", "E_GPa", "v_n_mm_s", "I", "N_p", "l", "w", "eps", "N_it", "h_S_ms", "h_N_ms",
        "tauS_over_treal", "tauN_over_treal", "tauN_over_tauS"]
ROWS = """
1|1|0.01|0|0|280|10|6|0.05|19|0.003|3|100|5|0.02
2|1|0.01|0|0|1.8K|10|15|0.05|23|0.003|3|625|10|0.02
3|1|0.01|6.1|0.1|18K|100|15|0.01|511|0.003|1|6e+3|6e+3|1.0
4|1|0.01|0.34|0.01|2M|10|500|0.05|27|0.003|3|7e+5|2e+4|0.02
5|1|10|0|0|10|10|1|0.01|132|9e-5|1|112|1|0.01
6|1|10|0.29|0.01|280|10|6|0.05|19|9e-5|1|3e+3|5|0.002
7|1|10|0.32|0.01|1.8K|10|15|0.01|117|9e-5|1|2e+4|200|0.01
8|1|10|0.32|0.01|1.8K|10|15|0.05|23|9e-5|1|2e+4|40|0.002
9|1|10|6.3|0.1|180K|1000|15|0.01|540|9e-5|1|2e+6|9e+4|0.05
10|1|10|0|0|2M|10|500|0.01|131|9e-5|1|2e+7|3e+5|0.01
11|1|10|28|0.1|200M|1000|500|0.01|10534|9e-5|0.4|2e+9|6e+9|2.6
12|1|10|28|0.1|200M|1000|500|0.05|2107|9e-5|1|2e+9|4e+8|0.2
13|10|0.01|0|0|1K|1000|1|0.01|13200|0.05|5|20|3e+3|150
14|10|0.01|0|0|280|10|6|0.05|19|0.05|10|9|0.5|0.09
15|10|0.01|19|0.1|18K|100|15|0.01|511|0.05|5|400|2e+3|5.7
16|10|0.01|0|0|2M|10|500|0.05|26|0.05|10|4e+4|5e+3|0.13
17|10|0.01|11|0.1|2M|10|500|0.05|32|0.05|10|4e+4|6e+3|0.16
18|10|0.01|88|0.1|200M|1000|500|0.01|10534|0.05|1|4e+6|2e+9|460
19|10|10|0|0|100|100|1|0.01|1320|0.002|4|60|30|0.52
20|10|10|0|0|280|10|6|0.05|19|0.002|4|200|1|0.007
21|10|10|0|0|2.8K|100|6|0.01|180|0.002|4|2e+3|100|0.07
22|10|10|19|0.1|18K|100|15|0.05|102|0.002|4|1e+4|500|0.04
23|10|10|1.1|0.01|2M|10|500|0.05|27|0.002|4|1e+6|1e+4|0.01
24|10|10|11|0.1|2M|10|500|0.05|32|0.002|4|1e+6|2e+4|0.01
25|10|10|88|0.1|200M|1000|500|0.01|10534|0.002|1|1e+8|2e+9|15
26|100|0.01|29|0.1|280|10|6|0.05|22|0.9|30|0.3|0.2|0.63
27|100|0.01|63|0.1|180K|1000|15|0.01|540|0.9|10|200|7e+3|34
28|100|0.01|63|0.1|180K|1000|15|0.05|108|0.9|30|200|600|3.0
29|100|0.01|280|0.1|200M|1000|500|0.01|10534|0.9|4|2e+5|6e+8|2600
30|100|0.01|280|0.1|200M|1000|500|0.05|2107|0.9|20|2e+5|2e+7|100
31|100|0.5|0|0|10|10|1|0.05|26|0.1|30|0.08|0.008|0.1
32|100|0.5|29|0.1|280|10|6|0.05|22|0.1|30|2|0.2|0.09
33|100|0.5|32|0.1|1.8K|10|15|0.05|27|0.1|30|10|7|0.1
"""
# Cells reconstructed from OCR damage (printed text as it appears in the seed).
OCR = {(1, "d_mm"): '"-"', (10, "d_mm"): '"-"', (1, "N_p"): '"203"', (5, "w"): "blank",
       (4, "h_N_ms"): '"б"', (13, "h_N_ms"): '"S"', (15, "h_N_ms"): '"S"', (18, "tauN_over_treal"): '"2+9"',
       (22, "tauS_over_treal"): '"le+4"', (23, "tauS_over_treal"): '"le+6"', (24, "tauS_over_treal"): '"le+6"',
       (25, "tauS_over_treal"): '"le+8"', (13, "N_p"): '"$1 \\mathrm{K}$"'}
for r in (1, 6, 14, 20, 21, 26, 32):
    OCR[(r, "w")] = '"9" (6/9 flip; only w = 6 reproduces N_it and N_p)'
# Printed cells that contradict their own row (ledger 3.2): recomputed value, explanation.
ERRATA = {(1, "tauN_over_treal"): (1.66, "printed ratio 0.02 x tau_S 100 = 2 agrees with 1.66, not 5"),
          (14, "tauS_over_treal"): (5.62, "printed ratio 0.09 needs tau_S = 0.5/0.09 = 5.6; probably a flipped 6"),
          (33, "tauN_over_treal"): (1.52, "printed ratio 0.1 x tau_S 10 = 1 agrees with 1.5, not 7"),
}
# Printed cells that agree with their own row but that our reconstruction (experiments/paper1_table1.cpp) does
# not reproduce: status "differs", compared with the printed value; `recomputed` is our value. Row 9: the
# printed 9e+4 is consistent with the row (tau_N/tau_S = 0.05 and tau_S = 1.98e6 admit 8.9e4 ... 1.09e5;
# 9e4/1.98e6 = 0.046), so it is not a provable misprint. Ours is K N_it N_c/h_N = 1e-6 x 540 x 176715/1e-3 =
# 9.54e4, 0.45 % above the 9.5e4 boundary between "9e+4" and "1e+5". Neither N_it (540.0) nor h_N (the 1 ms
# clamp, 000 l.681) is in doubt, so the miss is in an unstated convention: N_c = N_p, or the clamp exactly 1 ms.
# No uniform change fits: scaling every tau_N by f needs f <= 0.9955 for row 9 but f >= 0.9962 for row 22
# (451.7 printed as 500). A row-specific one would (N_c = 0.990-0.995 N_p for the l = 1000, w = 15 system,
# bounded by row 27's ratio; or the d = 1 mm clamp 0.5-3 % above 1 ms), but the paper states neither, so we
# do not adopt one (never tuned toward a printed number).
DIFFERS = {(9, "tauN_over_treal"): (9.54e4, "printed 9e+4 is consistent with its row (ratio 0.05 x tau_S 1.98e6); "
                                            "ours 9.54e4 is 0.45 % past the 9.5e4 rounding boundary: an unstated "
                                            "convention (N_c = N_p or the exact 1 ms clamp) differs in this row; "
                                            "no uniform change fits row 22 too")}
MULT = {"K": 1e3, "M": 1e6}

def value(text):
    return float(text[:-1]) * MULT[text[-1]] if text[-1] in MULT else float(text)

def half_unit(text):
    """Half a unit of the last significant printed digit."""
    mult = MULT.get(text[-1], 1.0)
    t = text[:-1] if text[-1] in MULT else text
    mant, _, exp = t.partition("e")
    scale = 10.0 ** int(exp) if exp else 1.0
    if "." in mant:
        decimals = len(mant.split(".")[1])
        return 0.5 * 10.0 ** -decimals * scale * mult
    stripped = mant.rstrip("0")
    zeros = len(mant) - len(stripped) if stripped else 0
    return 0.5 * 10.0 ** zeros * scale * mult

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["row", "column", "printed", "value", "tolerance", "status", "recomputed", "seed", "lines", "note"])
for line in ROWS.strip().splitlines():
    cells = line.split("|")
    row = int(cells[0])
    for col, text in zip(COLS, cells[1:]):
        status, recomputed, note = "ok", "", ""
        if (row, col) in OCR:
            status, note = "ocr", "printed " + OCR[(row, col)] + "; reconstructed (claims/paper1.md 3.1)"
        if (row, col) in DIFFERS:
            status = "differs"
            recomputed = "%.3g" % DIFFERS[(row, col)][0]
            note = DIFFERS[(row, col)][1]
        if (row, col) in ERRATA:
            status = "erratum"
            recomputed = "%.3g" % ERRATA[(row, col)][0]
            note = ERRATA[(row, col)][1]
        w.writerow([row, col, text, "%.6g" % value(text), "%.3g" % half_unit(text), status, recomputed,
                    "000_59fe3a1c3c2f43b6.txt", 688 + row, note])
