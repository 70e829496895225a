#!/usr/bin/env python3
"""Carries a store's measurements of a problem's benchmark over to a new text of the problem file,
where the new text only adds kforge's declarations that leave the benchmark untouched.

    python3 tools/rekey_store_problems.py STORE.db [REPO]

A kforge store keys a problem by the sha256 of its text, so adding `extra_sizes` and
`cpu_extra_sizes` to a problem file (other sizes for one more correctness trial each) would orphan
its baselines and metadata, measured on the H200 at device time that is scarce. The benchmark
(constants, model, inputs at the benchmark size) is the same text, so those measurements still
hold. For each problem row whose file (its stored path, relative to REPO, default the current
folder) differs from the stored text, this checks that the only difference is inserted lines, each
an assignment of `extra_sizes` or `cpu_extra_sizes`, a comment, or blank; then it adds the new text
as a problem of its own and copies the old text's baselines and problem metadata to it. Nothing is
moved or deleted: evaluations, model calls and agent nodes stay with the text they were made
for (an evaluation of the old text ran no extra-size trial). Any other difference leaves the row
alone and is listed. Prints what it did.
"""
import difflib
import hashlib
import os
import re
import sqlite3
import sys

ADDED_LINE = re.compile(r"^\s*$|^\s*#|^(cpu_)?extra_sizes\s*=\s*\[.*\]\s*$")


def only_declarations_added(old, new):
    """Whether `new` is `old` with only extra-size declaration lines (or comments, blanks) inserted."""
    a, b = old.splitlines(), new.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag != "insert" or not all(ADDED_LINE.match(line) for line in b[j1:j2]):
            return False
    return any("extra_sizes" in line for line in b) and old.endswith("\n") == new.endswith("\n")


# The measurements of the benchmark itself, which the added declarations do not touch.
COPIED_TABLES = ("baselines", "problem_metadata")


def copy_rows(db, table, old_hash, new_hash):
    columns = [row[1] for row in db.execute(f"pragma table_info({table})")]
    picked = ", ".join("?" if c == "problem_hash" else c for c in columns)
    db.execute(f"insert or ignore into {table} ({', '.join(columns)}) select {picked} from {table} where problem_hash = ?",
               (new_hash, old_hash))


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: python3 tools/rekey_store_problems.py STORE.db [REPO]", file=sys.stderr)
        return 2
    repo = sys.argv[2] if len(sys.argv) == 3 else "."
    db = sqlite3.connect(sys.argv[1])
    moved, already, same, refused, missing = 0, 0, 0, [], 0
    with db:
        for old_hash, path, old_text in db.execute("select hash, path, source from problems").fetchall():
            file = os.path.join(repo, path)
            if os.path.isabs(path) or not os.path.isfile(file):
                missing += 1
                continue
            new_text = open(file, encoding="utf-8").read()
            if new_text == old_text:
                same += 1
                continue
            if not only_declarations_added(old_text, new_text):
                refused.append(path)
                continue
            new_hash = hashlib.sha256(new_text.encode("utf-8")).hexdigest()
            if db.execute("select 1 from problems where hash = ?", (new_hash,)).fetchone():
                already += 1
            else:
                moved += 1
                db.execute("insert into problems (hash, level, problem_id, name, path, source, first_seen) "
                           "select ?, level, problem_id, name, path, ?, first_seen from problems where hash = ?",
                           (new_hash, new_text, old_hash))
            for table in COPIED_TABLES:  # also where the new text was there already: nothing is copied twice
                copy_rows(db, table, old_hash, new_hash)
    print(f"rekey_store_problems: {moved} carried to their new text ({already} already were), {same} unchanged, "
          f"{missing} without a file here, {len(refused)} left alone (other changes than added declarations)")
    for path in refused:
        print(f"  left alone: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
