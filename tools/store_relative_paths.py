#!/usr/bin/env python3
"""Rewrites the problem paths a kforge store holds as absolute ones (`/any/where/problems/level1/
1_X.py`) to paths relative to the repository (`problems/level1/1_X.py`).

    python3 tools/store_relative_paths.py STORE.db

kforge stores the path it loaded a problem from, which on the device machine is absolute there;
the committed baseline store (baselines/H200/baselines.db) must not carry a machine's paths. The
store keys problems by the hash of their text, so the path is only a label and nothing else
changes. Prints how many paths it rewrote.
"""
import sqlite3
import sys


def relative(path):
    """The path from the last `/problems/` on (a problem id, `levelN/NAME.py`, holds none), so a
    checkout that itself sits under a folder named problems is cut in the right place."""
    head, sep, tail = path.rpartition("/problems/")
    return "problems/" + tail if sep else path


def main():
    if len(sys.argv) != 2:
        print("usage: python3 tools/store_relative_paths.py STORE.db", file=sys.stderr)
        return 2
    db = sqlite3.connect(sys.argv[1])
    rewritten = 0
    with db:
        for digest, path in db.execute("select hash, path from problems where path like '/%'").fetchall():
            if relative(path) != path:
                db.execute("update problems set path = ? where hash = ?", (relative(path), digest))
                rewritten += 1
    left = db.execute("select count(*) from problems where path like '/%'").fetchone()[0]
    print(f"store_relative_paths: {rewritten} rewritten, {left} absolute paths left (outside a problems/ folder)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
