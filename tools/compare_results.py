#!/usr/bin/env python3
"""Compare two result stores of the same study and tier, bit for bit except provenance.

Usage: tools/compare_results.py DIR_A DIR_B   (each results/<study>/<tier>)

Equal means: the same run folders; in each, result.toml identical once its [provenance] tables are
removed (host, times and wall clock differ between machines), every series_*.csv identical; and
verdicts.csv identical when both have one. Exit 0 when equal, 1 with the differences listed.
"""
import os
import re
import sys

RUN = re.compile(r'^[0-9a-f]{16}$')


def without_provenance(text):
    out, skip = [], False
    for line in text.splitlines():
        header = re.match(r'^\s*\[([^\]]+)\]\s*$', line)
        if header:
            skip = header.group(1).strip().startswith('provenance')
        if not skip:
            out.append(line)
    return '\n'.join(out)


def runs(d):
    return sorted(n for n in os.listdir(d) if RUN.match(n) and os.path.isdir(os.path.join(d, n)))


def read(p):
    with open(p, 'rb') as f:
        return f.read()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = sys.argv[1:]
    problems = []
    ra, rb = runs(a), runs(b)
    if ra != rb:
        problems.append(f'run folders differ: only in A {sorted(set(ra) - set(rb))}, only in B {sorted(set(rb) - set(ra))}')
    if not ra:
        problems.append(f'no runs in {a}')
    for k in sorted(set(ra) & set(rb)):
        pa, pb = os.path.join(a, k), os.path.join(b, k)
        ta = without_provenance(read(os.path.join(pa, 'result.toml')).decode())
        tb = without_provenance(read(os.path.join(pb, 'result.toml')).decode())
        if ta != tb:
            problems.append(f'{k}/result.toml differs outside [provenance]')
        sa = sorted(n for n in os.listdir(pa) if n.startswith('series_'))
        sb = sorted(n for n in os.listdir(pb) if n.startswith('series_'))
        if sa != sb:
            problems.append(f'{k}: series files differ: {sa} vs {sb}')
        for n in set(sa) & set(sb):
            if read(os.path.join(pa, n)) != read(os.path.join(pb, n)):
                problems.append(f'{k}/{n} differs')
    va, vb = os.path.join(a, 'verdicts.csv'), os.path.join(b, 'verdicts.csv')
    if os.path.exists(va) and os.path.exists(vb) and read(va) != read(vb):
        problems.append('verdicts.csv differs')
    for p in problems:
        print('DIFFERENT:', p)
    if not problems:
        print(f'equal: {len(ra)} runs' + (', verdicts.csv' if os.path.exists(va) and os.path.exists(vb) else ''))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
