#!/usr/bin/env python3
"""Compare two grainlab results stores of the same study and tier, bit for bit except provenance.

    compare_results.py EXPECTED_DIR ACTUAL_DIR STUDY TIER [--ignore-metric GLOB]...

EXPECTED_DIR and ACTUAL_DIR are --results directories (e.g. a local run and a Slurm run). Under
DIR/STUDY/TIER/ they must hold the same run folders (one per run key, each with result.toml), and:
- result.toml: identical bytes once its [provenance] table (and any [provenance.*] subtable) is removed,
  since provenance records host, start time and wall time, which differ between any two runs; the
  [parameters] and [metrics] tables must be present;
- every other file of a run folder (series_*.csv) identical bytes, except `complete` (the store's
  checksum covers the provenance too);
- verdicts.csv and the other CSVs beside the run folders (tables, errata) identical bytes, except
  provenance.csv (hosts and times).
--ignore-metric GLOB (repeatable) leaves out the [metrics] entries whose name matches GLOB (fnmatch), and
the columns of that name in the tables beside the runs, for metrics that measure the host rather than the
physics (e.g. paper5_method_checks: `--ignore-metric '*_seconds*' --ignore-metric step_speedup`);
verdicts.csv is still compared whole.
No leftover temporary folder (.tmp-*: a writer that died mid-run) may be in ACTUAL_DIR.
Exit 0 when all agree, 1 with every difference listed otherwise, 2 on bad usage.
"""
import csv
import difflib
import io
import fnmatch
import pathlib
import re
import sys
import tomllib

HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")


def without_provenance(text: str) -> str:
    """The TOML text minus the [provenance] table and its subtables, every other byte kept."""
    kept, skipping = [], False
    for line in text.splitlines(keepends=True):
        m = HEADER.match(line)
        if m:
            name = m.group(1).strip().strip("\"'")
            skipping = name == "provenance" or name.startswith("provenance.")
        if not skipping:
            kept.append(line)
    return "".join(kept)


def without_metrics(text: str, patterns: list) -> str:
    """The TOML text minus the [metrics] entries whose key matches one of `patterns`."""
    if not patterns:
        return text
    kept, table = [], ""
    for line in text.splitlines(keepends=True):
        m = HEADER.match(line)
        if m:
            table = m.group(1).strip().strip("\"'")
        elif table == "metrics" and "=" in line:
            key = line.split("=", 1)[0].strip().strip("\"'")
            if any(fnmatch.fnmatchcase(key, p) for p in patterns):
                continue
        kept.append(line)
    return "".join(kept)


def without_columns(text: str, patterns: list) -> str:
    """The CSV text minus the columns whose header matches one of `patterns`."""
    if not patterns:
        return text
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    keep = [i for i, name in enumerate(rows[0]) if not any(fnmatch.fnmatchcase(name, p) for p in patterns)]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([[r[i] for i in keep if i < len(r)] for r in rows])
    return out.getvalue()


def runs(tier_dir: pathlib.Path) -> dict:
    return {p.parent.name: p.parent for p in tier_dir.glob("*/result.toml")}


def diff(a: str, b: str, name_a: str, name_b: str, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), name_a, name_b, lineterm=""))
    more = f"\n    ... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join("    " + line for line in lines[:limit]) + more


def main(argv: list) -> int:
    args, ignored = [], []
    rest = iter(argv[1:])
    for a in rest:
        if a == "--ignore-metric":
            pattern = next(rest, None)
            if pattern is None:
                print(__doc__, file=sys.stderr)
                return 2
            ignored.append(pattern)
        else:
            args.append(a)
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    expected_root, actual_root, study, tier = args
    exp_dir = pathlib.Path(expected_root) / study / tier
    act_dir = pathlib.Path(actual_root) / study / tier
    problems = []

    for d in (exp_dir, act_dir):
        if not d.is_dir():
            problems.append(f"missing results folder {d}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1

    for tmp in sorted(act_dir.glob(".tmp-*")):
        problems.append(f"leftover temporary folder {tmp} (a run was interrupted while writing)")

    exp_runs, act_runs = runs(exp_dir), runs(act_dir)
    if not exp_runs:
        problems.append(f"no runs in {exp_dir}")
    for key in sorted(exp_runs.keys() - act_runs.keys()):
        problems.append(f"run {key} is in {exp_dir} but not in {act_dir}")
    for key in sorted(act_runs.keys() - exp_runs.keys()):
        problems.append(f"run {key} is in {act_dir} but not in {exp_dir}")

    for key in sorted(exp_runs.keys() & act_runs.keys()):
        e, a = exp_runs[key], act_runs[key]
        e_files = sorted(p.name for p in e.iterdir() if p.is_file() and p.name != "complete")
        a_files = sorted(p.name for p in a.iterdir() if p.is_file() and p.name != "complete")
        if e_files != a_files:
            problems.append(f"run {key}: files differ: {e_files} vs {a_files}")
        for name in sorted(set(e_files) & set(a_files)):
            eb, ab = (e / name).read_bytes(), (a / name).read_bytes()
            if name == "result.toml":
                et = without_metrics(without_provenance(eb.decode()), ignored)
                at = without_metrics(without_provenance(ab.decode()), ignored)
                for label, text in (("expected", et), ("actual", at)):
                    parsed = tomllib.loads(text)
                    for table in ("parameters", "metrics"):
                        if not isinstance(parsed.get(table), dict) or not parsed[table]:
                            problems.append(f"run {key}: {label} result.toml has no [{table}] table")
                if et != at:
                    problems.append(f"run {key}: result.toml differs outside [provenance]:\n"
                                    + diff(et, at, str(e / name), str(a / name)))
            elif eb != ab:
                problems.append(f"run {key}: {name} differs"
                                + (":\n" + diff(eb.decode(errors="replace"), ab.decode(errors="replace"),
                                                str(e / name), str(a / name)) if len(eb) + len(ab) < 1 << 20 else ""))

    if not (exp_dir / "verdicts.csv").is_file():
        problems.append(f"no verdicts.csv in {exp_dir}")
    exp_csv = sorted(p.name for p in exp_dir.glob("*.csv") if p.name != "provenance.csv")
    act_csv = sorted(p.name for p in act_dir.glob("*.csv") if p.name != "provenance.csv")
    if exp_csv != act_csv:
        problems.append(f"CSV files beside the runs differ: {exp_csv} vs {act_csv}")
    for name in sorted(set(exp_csv) & set(act_csv)):
        eb, ab = (exp_dir / name).read_bytes(), (act_dir / name).read_bytes()
        if eb == ab:
            continue
        et, at = eb.decode(errors="replace"), ab.decode(errors="replace")
        if name != "verdicts.csv":
            et, at = without_columns(et, ignored), without_columns(at, ignored)
        if et != at:
            problems.append(f"{name} differs:\n" + diff(et, at, str(exp_dir / name), str(act_dir / name)))

    if problems:
        print(f"MISMATCH between {exp_dir} and {act_dir}:", file=sys.stderr)
        for p in problems:
            print("  - " + p, file=sys.stderr)
        return 1
    print(f"identical: {len(exp_runs)} runs (result.toml without provenance, "
          f"{sum(len(list(r.glob('series_*.csv'))) for r in exp_runs.values())} series files), "
          f"{', '.join(exp_csv)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
