#!/usr/bin/env python3
"""Compare the verdicts of two grainlab results stores, check by check, over every study they share.

    compare_verdicts.py EXPECTED_DIR ACTUAL_DIR [TIER]

TIER defaults to quick. For each study folder present in both stores with a TIER/verdicts.csv, the checks
are matched by id and their verdicts (pass, fail, not reproduced, ...) compared; the detail column is
shown for every check whose verdict changed. Unlike compare_results.py, which asks for the same bits,
this asks whether two builds (another -march, a reordered kernel) reach the same conclusions.
Exit 0 when every shared check has the same verdict, 1 when any differs, 2 on bad usage.
"""
import csv
import pathlib
import sys


def verdicts(path: pathlib.Path) -> dict:
    with path.open(newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def main(argv: list) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    expected, actual = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    tier = argv[3] if len(argv) == 4 else "quick"
    studies = sorted(p.parent.parent.name for p in expected.glob(f"*/{tier}/verdicts.csv")
                     if (actual / p.parent.parent.name / tier / "verdicts.csv").is_file())
    changed, checks = 0, 0
    for study in studies:
        e = verdicts(expected / study / tier / "verdicts.csv")
        a = verdicts(actual / study / tier / "verdicts.csv")
        for key in sorted(e.keys() | a.keys()):
            checks += 1
            ev = e[key]["verdict"] if key in e else "(absent)"
            av = a[key]["verdict"] if key in a else "(absent)"
            if ev == av:
                continue
            changed += 1
            claim = (e.get(key) or a.get(key))["claim"]
            print(f"{study}: {key}{' (' + claim + ')' if claim else ''}: {ev} -> {av}")
            for label, rows in (("  expected", e), ("  actual  ", a)):
                if key in rows:
                    print(f"{label}: {rows[key]['detail'][:300]}")
    print(f"{changed} of {checks} checks in {len(studies)} studies changed verdict")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
