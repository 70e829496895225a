"""Benchmark (issue 22): kforge merge's throughput on stores the size a cluster shard writes.

Makes one real store (a CPU evaluation of a test problem through the kforge binary), then SHARDS
stores from it, each with EVALS evaluations of one named run (40 timed samples each, as a short
evaluation keeps) and as many model calls, written straight into SQLite with the real schema. Then
times `kforge merge` of all of them into a new store, and the same merge again (which must add
nothing), and prints a table.

Usage: python3 bench/merge_throughput.py [--shards 4] [--evals 10000] [--out DIR]
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KFORGE = os.path.join(ROOT, "build", "release", "kforge")


def seed_store(path, work):
    problem = os.path.join(ROOT, "tests", "problems", "level1", "1_Tiny_Add_ReLU.py")
    candidate = os.path.join(work, "identity.py")
    with open(problem) as f, open(candidate, "w") as out:
        out.write(f.read() + "\n\nModelNew = Model\n")
    subprocess.run([KFORGE, "--db", path, "eval", "--device", "cpu", "--max-time", "0.2", "--min-time", "0",
                    "--min-samples", "5", "--name", "study", "--problem", problem, candidate],
                   check=True, capture_output=True)


def grow(path, shard, evals):
    """`evals` evaluations (with samples, run rows and model calls) copied from the seed's one."""
    db = sqlite3.connect(path)
    cols = [r[1] for r in db.execute("PRAGMA table_info(evaluations)") if r[1] != "id"]
    (seed_id,) = db.execute("SELECT id FROM evaluations LIMIT 1").fetchone()
    (run_id,) = db.execute("SELECT id FROM runs WHERE name = 'study'").fetchone()
    db.execute("DELETE FROM run_evaluations")
    select = ", ".join("eval_key || ? " if c == "eval_key" else c for c in cols)
    for i in range(evals):
        tag = f"-{shard}-{i}"
        cur = db.execute(f"INSERT INTO evaluations({', '.join(cols)}) SELECT {select} FROM evaluations WHERE id = ?",
                         (tag, seed_id))
        new = cur.lastrowid
        db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                       [(new, side, k, 0.1 + k * 1e-3, 0.11 + k * 1e-3) for side in ("ref", "cand") for k in range(20)])
        db.execute("INSERT INTO run_evaluations VALUES (?, ?, ?, ?, ?, 1, ?, 0)",
                   (run_id, i, new, f"level1/{i}_P", f"c{shard}_{i}.py", i))
        db.execute("INSERT INTO model_calls(model, provider_model, problem_hash, format, sample, prompt_hash, prompt, "
                   "answer, outcome, message, input_tokens, output_tokens, cost_usd, latency_s, attempts, http_status, "
                   "created_at) SELECT 'm', 'm', problem_hash, 'cuda', ?, 'h', '{}', ?, 'ok', '', 1000, 500, 0.01, 1.0, "
                   "1, 200, created_at FROM evaluations WHERE id = ?", (i, f"answer {shard} {i}", seed_id))
    db.execute("DELETE FROM evaluations WHERE id = ?", (seed_id,))
    db.execute("DELETE FROM samples WHERE evaluation_id = ?", (seed_id,))
    # Each shard's run was started on its own node: another start, the same name.
    db.execute("UPDATE runs SET started_at = ? WHERE id = ?", (f"2026-12-02T00:00:{shard:02d}", run_id))
    db.commit()
    db.close()


def count(path, table):
    db = sqlite3.connect(path)
    (n,) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
    db.close()
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--evals", type=int, default=10000)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="kforge-merge-bench-")
    try:
        seed = os.path.join(work, "seed.db")
        seed_store(seed, work)
        shards = []
        for s in range(a.shards):
            path = os.path.join(work, f"shard-{s}.db")
            shutil.copy(seed, path)
            grow(path, s, a.evals)
            shards.append(path)
        size_mb = sum(os.path.getsize(p) for p in shards) / 2**20
        into = os.path.join(work, "all.db")
        rows = []
        for label in ("first merge", "merge again"):
            t0 = time.monotonic()
            subprocess.run([KFORGE, "merge", *shards, "--into", into], check=True, capture_output=True)
            rows.append((label, time.monotonic() - t0, count(into, "evaluations"), count(into, "samples"),
                         count(into, "run_evaluations")))
        lines = [f"kforge merge: {a.shards} stores of {a.evals} evaluations (40 samples and a model call each), "
                 f"{size_mb:.0f} MiB in all",
                 f"{'':<12} {'seconds':>8} {'evals/s':>9} {'evaluations':>12} {'samples':>9} {'run rows':>9}"]
        for label, secs, ev, sa, re in rows:
            lines.append(f"{label:<12} {secs:>8.2f} {a.shards * a.evals / secs:>9.0f} {ev:>12} {sa:>9} {re:>9}")
        text = "\n".join(lines)
        print(text)
        if a.out:
            with open(os.path.join(a.out, "merge-throughput.txt"), "w") as f:
                f.write(text + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
