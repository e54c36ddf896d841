#!/usr/bin/env python3
"""Check validation/claims.csv (the claim index) for format errors.

What it checks (exit status 1 on any error):
  - the exact 12-column header and 12 fields in every row;
  - ids unique and of the ledger form P<n>-Cnn or G-Cnn, paper in {I, II, III, IV, V, Gavrilov}
    and consistent with the id prefix;
  - kind in {value, ratio, trend, fit, qualitative, scaling};
  - reproducible is "yes", "no: <reason>" or "later: <what it needs>";
  - seed is one of the seed file names, lines is "N", "A-B" or a ';'-list of those, and
    (when --seeds DIR is given) every cited line exists in that seed file;
  - per-paper row counts equal the ledger counts (claims README: 60, 32, 79, 54, 57, 82).

With --numbers it also reports, for each row whose value is a plain number, whether that number
(as printed, or in an equivalent spelling) occurs on one of the cited seed lines. That is an aid for
spot checks, not an error: many values are recomputed or converted and legitimately do not occur.

Usage: tools/check_claims.py [validation/claims.csv] [--seeds ../shared/seeds] [--numbers]
Reads only; writes nothing.
"""
import argparse
import csv
import os
import re
import sys

HEADER = ['id', 'paper', 'experiment', 'quantity', 'value', 'uncertainty', 'unit', 'kind', 'seed', 'lines',
          'reproducible', 'notes']
PAPERS = {'P1': 'I', 'P2': 'II', 'P3': 'III', 'P4': 'IV', 'P5': 'V', 'G': 'Gavrilov'}
EXPECTED = {'I': 60, 'II': 32, 'III': 79, 'IV': 54, 'V': 57, 'Gavrilov': 82}
KINDS = {'value', 'ratio', 'trend', 'fit', 'qualitative', 'scaling'}
SEEDS = {'000_59fe3a1c3c2f43b6.txt', '001_7fddbc63f27cdf4b.txt', '002_a95ea65ffea855e5.txt',
         '003_b2da4c51eb41d410.txt', '004_90aaf38afdb25b7a.txt'}
LINES_RE = re.compile(r'^\d+(-\d+)?(;\d+(-\d+)?)*$')
NUMBER_RE = re.compile(r'^-?\d+(\.\d+)?(e-?\d+)?$')


def number_spellings(v):
    """Spellings of a number as the converted papers may print it."""
    out = {v}
    if 'e' in v:
        mant, ex = v.split('e')
        out |= {f'{mant}\\times 10^{{{ex}}}', f'{mant} \\times 10^{{{ex}}}', f'10^{{{ex}}}', f'10^{ex}',
                f'{mant}·10', f'{mant} \\cdot 10^{{{ex}}}', f'{mant}\\cdot 10^{{{ex}}}'}
        try:
            f = float(v)
            if f == int(f):
                out |= {str(int(f)), f'{int(f):,}'}
        except ValueError:
            pass
    if v.startswith('-'):
        out.add(v[1:])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('csv', nargs='?', default=os.path.join(here, '..', 'validation', 'claims.csv'))
    ap.add_argument('--seeds', help='folder with the seed text files (checks that cited lines exist)')
    ap.add_argument('--numbers', action='store_true', help='report numbers not found on their cited lines')
    a = ap.parse_args()

    errors = []
    seed_text = {}
    if a.seeds:
        for s in SEEDS:
            p = os.path.join(a.seeds, s)
            if os.path.exists(p):
                with open(p, encoding='utf-8') as f:
                    seed_text[s] = f.read().splitlines()
            else:
                errors.append(f'seed file missing: {p}')

    with open(a.csv, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != HEADER:
        errors.append(f'{a.csv}:1: header must be {",".join(HEADER)}')
    seen = set()
    counts = {p: 0 for p in EXPECTED}
    found = missing = 0
    for n, r in enumerate(rows[1:], start=2):
        where = f'{a.csv}:{n}'
        if len(r) != 12:
            errors.append(f'{where}: {len(r)} fields, expected 12')
            continue
        d = dict(zip(HEADER, r))
        m = re.match(r'^(P[1-5]|G)-C\d{2}$', d['id'])
        if not m:
            errors.append(f'{where}: bad id {d["id"]!r}')
        elif PAPERS[m.group(1)] != d['paper']:
            errors.append(f'{where}: id {d["id"]} does not belong to paper {d["paper"]!r}')
        if d['id'] in seen:
            errors.append(f'{where}: duplicate id {d["id"]}')
        seen.add(d['id'])
        if d['paper'] in counts:
            counts[d['paper']] += 1
        else:
            errors.append(f'{where}: unknown paper {d["paper"]!r}')
        if d['kind'] not in KINDS:
            errors.append(f'{where}: kind {d["kind"]!r} not in {sorted(KINDS)}')
        rep = d['reproducible']
        if not (rep == 'yes' or re.match(r'^(no|later): \S', rep)):
            errors.append(f'{where}: reproducible {rep!r} must be yes, "no: reason" or "later: need"')
        if d['seed'] not in SEEDS:
            errors.append(f'{where}: unknown seed {d["seed"]!r}')
        if not LINES_RE.match(d['lines']):
            errors.append(f'{where}: lines {d["lines"]!r} must be N, A-B or a ;-list')
            continue
        if not d['value']:
            errors.append(f'{where}: empty value')
        text = seed_text.get(d['seed'])
        if text is None:
            continue
        cited = []
        for part in d['lines'].split(';'):
            lo, _, hi = part.partition('-')
            lo, hi = int(lo), int(hi or lo)
            if not (1 <= lo <= hi <= len(text)):
                errors.append(f'{where}: lines {part} outside {d["seed"]} (1-{len(text)})')
                continue
            cited.extend(text[lo - 1:hi])
        if a.numbers and NUMBER_RE.match(d['value']):
            blob = '\n'.join(cited)
            if any(s in blob for s in number_spellings(d['value'])):
                found += 1
            else:
                missing += 1
                print(f'note: {d["id"]} value {d["value"]} not found verbatim on {d["seed"][:3]} l.{d["lines"]}')

    for p, c in EXPECTED.items():
        if counts[p] != c:
            errors.append(f'paper {p}: {counts[p]} rows, the ledger has {c}')
    print('rows per paper: ' + ', '.join(f'{p} {counts[p]}/{EXPECTED[p]}' for p in EXPECTED))
    if a.numbers:
        print(f'numeric values found verbatim on their cited lines: {found}, not found: {missing}')
    for e in errors:
        print('error: ' + e, file=sys.stderr)
    print('OK' if not errors else f'{len(errors)} error(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
