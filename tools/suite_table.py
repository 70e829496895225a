#!/usr/bin/env python3
"""The sizing table of docs/suite.md, from what the H200 measured and the repository keeps.

    python3 tools/suite_table.py [--dir baselines/H200] > table.md

Reads, from --dir: `baselines.db` (the kforge store `kforge baseline` wrote: medians per problem
and mode, matched to the problem files by the sha256 of their text, so a problem changed since
has no figure), `lint.txt` (`kforge problems lint --device cuda`: eager median and peak memory)
and `sol.txt` (`kforge problems info --sol`: precision and speed-of-light time). A figure that is
missing prints as `-`, a baseline that failed as `failed`, and the SOL of an fp32 problem with
convolutions as `(fp32 rate)` when sol.txt's rates have no TF32 rate.
"""
import argparse
import glob
import hashlib
import os
import re
import sqlite3

MODES = ("eager", "compile", "max-autotune")


def problem_files(root):
    def key(path):
        level = int(re.search(r"level(\d+)", path).group(1))
        number = int(os.path.basename(path).split("_", 1)[0])
        return level, number
    return sorted(glob.glob(os.path.join(root, "problems", "level*", "*.py")), key=key)


def parse_rows(path, pattern):
    """problem id -> the match's groups, for every line of a kforge table that fits `pattern`."""
    rows = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"(level\d+/\S+)\s+" + pattern, line)
            if m:
                rows[m.group(1)] = m.groups()[1:]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="baselines/H200")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lint_path = os.path.join(args.dir, "lint.txt")
    # The host's share (", host 0.42") is printed since session 26; earlier rows lack it.
    lint = parse_rows(lint_path, r"(\S+) \(([\d.]+) ms, peak ([\d.]+) GiB(?:, host [\d.]+)?\)")
    # A flagged row: its figures, then the first rule that fired ("4.56 ms, peak 7.0 GiB; host-bound: ...").
    flagged = parse_rows(lint_path, r"([\d.]+) ms, peak ([\d.]+) GiB(?:, host [\d.]+)?; ([\w-]+):")
    lint.update({pid: (rule, ms, peak) for pid, (ms, peak, rule) in flagged.items()})
    sol = parse_rows(os.path.join(args.dir, "sol.txt"), r"(\w+)\s+.*?\s([\d.]+[cm])\s+\S")
    db = sqlite3.connect(os.path.join(args.dir, "baselines.db"))
    # Without a TF32 rate in the rates the SOL run used, an fp32 problem's convolutions were
    # bounded at the fp32 rate, which cuDNN's TF32 default beats: such cells say so.
    sol_path = os.path.join(args.dir, "sol.txt")
    sol_has_tf32 = os.path.exists(sol_path) and "tf32" in open(sol_path).readline()
    print("| problem | precision | lint | lint eager ms | peak GiB | baseline eager ms | compiled ms "
          "| max-autotune ms | SOL ms |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in problem_files(root):
        pid = os.path.relpath(path, os.path.join(root, "problems"))[:-3]
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        cells = []
        for mode in MODES:
            row = db.execute("SELECT median_ms, error FROM baselines WHERE problem_hash = ? AND mode = ? "
                             "ORDER BY measured_at DESC LIMIT 1", (digest, mode)).fetchone()
            cells.append("-" if row is None else "failed" if row[1] else f"{row[0]:.3f}")
        verdict, lint_ms, peak = lint.get(pid, ("-", "-", "-"))
        precision, sol_ms = sol.get(pid, ("-", "-"))
        sol_cell = f"{sol_ms[:-1]} {sol_ms[-1]}" if sol_ms != "-" else "-"
        if sol_cell != "-" and precision == "fp32" and not sol_has_tf32:
            conv = db.execute("SELECT tf32_flops FROM problem_metadata WHERE problem_hash = ? "
                              "AND tf32_flops > 0 LIMIT 1", (digest,)).fetchone()
            if conv:
                sol_cell += " (fp32 rate)"
        print(f"| {pid} | {precision} | {verdict} | {lint_ms} | {peak} | " + " | ".join(cells) + f" | {sol_cell} |")


if __name__ == "__main__":
    main()
