#!/usr/bin/env python3
"""Issue 19's throughput benchmark (docs/benchmarks.md): tests/realworld/ as a user's run folder,
evaluated by one `kforge eval` on the GPU in a fresh cache (every build cold, inside the run).

Prints the first result's time, the whole run's wall time, the sum of the evaluations' own wall
times, the share of nvidia-smi samples (every 200 ms) with the GPU busy after the first result,
the verdicts, where the build time went, and a timeline in 10 s bins (builds running and
finished, results, GPU busy); each build's span goes to OUT_DIR/realworld-builds.txt. Targets: first result within 15 s, GPU busy at least 70% after it, the whole
folder at most 1.5x the sum of its evaluation times plus one build. The store is named run
`realworld-h200`, kept with its HTML report for docs/reports.md.

Usage: bench/realworld_throughput.py OUT_DIR    (on a machine with a CUDA device, from a built tree;
BENCH_DEVICE=cpu tries the script itself on a machine without one)
"""
import collections
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KFORGE = ROOT / "build/release/kforge"


def lay_out(folder: pathlib.Path) -> int:
    """level<L>/<problem>/<case file>, as kforge eval finds a candidate's problem."""
    cases = json.loads((ROOT / "tests/realworld/expected.json").read_text())
    for file, case in cases.items():
        problem = pathlib.Path(case["problem"])
        into = folder / problem.parent.name / problem.stem
        into.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "tests/realworld" / file, into / file)
    return len(cases)


def verdicts_against_expected(results: list) -> list:
    """Each result whose verdict is not expected.json's (verdict_on_gpu where the GPU's differs),
    and the count that agree: the throughput run is also the corpus's verdict check."""
    cases = json.loads((ROOT / "tests/realworld/expected.json").read_text())
    agree, lines = 0, []
    for r in results:
        name = pathlib.Path(r["candidate"]).name
        case = cases.get(name)
        if case is None:
            continue
        want = case.get("verdict_on_gpu", case["verdict"])
        if r["verdict"] == want or (isinstance(want, list) and r["verdict"] in want):
            agree += 1
        else:
            lines.append(f"{'  unexpected':<14} {name:<52} {r['verdict']} (expected {want}): {(r.get('message') or '')[:160]}")
    return [f"{'verdicts as expected.json says':<38} {agree} of {len(results)}"] + lines


def sample_gpu(samples: list, stop: threading.Event) -> None:
    """(time, utilization %) every 200 ms from nvidia-smi's own loop."""
    if not shutil.which("nvidia-smi"):
        return
    proc = subprocess.Popen(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits", "-lms", "200"],
                            stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if stop.is_set():
            break
        try:
            samples.append((time.monotonic(), int(line.strip())))
        except ValueError:
            pass
    proc.terminate()


def load_inline_entries(cache: pathlib.Path):
    """(entry folder, meta.json) of each load_inline build in the run's cache."""
    for entry in sorted((cache / "kforge" / "build" / "objects").glob("*/meta.json")):
        meta = json.loads(entry.read_text())
        if meta.get("format") == "load_inline":
            yield entry.parent, meta


def build_summary(cache: pathlib.Path) -> list:
    """Where the run's build time went, from the cache's load_inline entries (meta.json and the
    build log each keeps): builds by strategy, the precompiled torch headers made, and each step's
    median time, so the GPU's waits on the builds can be told apart."""
    strategies = collections.Counter()
    seconds = []
    steps = collections.defaultdict(list)
    headers = {}
    without_header = 0  # host units that compiled without one: another build was making it
    for folder, meta in load_inline_entries(cache):
        strategies[(meta.get("extra") or {}).get("strategy", "failed" if not meta.get("ok") else "?")] += 1
        seconds.append(meta.get("seconds") or 0.0)
        log = folder / "build.log"
        for line in (log.read_text(errors="replace").splitlines() if log.exists() else []):
            header = re.match(r"== precompiled torch header ([0-9a-f]+), built in (\d+) s", line)
            if header:
                headers[header.group(1)] = int(header.group(2))
            if re.match(r"== precompiled torch header [0-9a-f]+ being built by another build", line):
                without_header += 1
            step = re.match(r"== (.+) \(([0-9.]+) s, exit", line)
            if step:
                steps[step.group(1)].append(float(step.group(2)))
    if not seconds:
        return [f"{'builds':<38} none found in the cache"]
    lines = [f"{'load_inline builds':<38} {len(seconds)} ("
             + ", ".join(f"{k} {n}" for k, n in sorted(strategies.items())) + f"), median {statistics.median(seconds):.1f} s, "
             f"sum {sum(seconds):.0f} s",
             f"{'precompiled torch headers built':<38} {len(headers)}"
             + (f", {min(headers.values())}-{max(headers.values())} s each" if headers else "")
             + f"; {without_header} builds compiled without theirs while it was made"]
    for name, times in sorted(steps.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"  {name:<36} {len(times):3d} x, median {statistics.median(times):6.1f} s, sum {sum(times):6.0f} s")
    return lines


def build_spans(cache: pathlib.Path, epoch_start: float) -> list:
    """(start, end, name) of each load_inline build, seconds from the run's start: meta.json's
    finished_at less the build's own seconds (an entry without it, from an older kforge, is left out)."""
    spans = []
    for folder, meta in load_inline_entries(cache):
        if "finished_at" in meta:
            end = meta["finished_at"] - epoch_start
            spans.append((end - (meta.get("seconds") or 0.0), end, meta.get("name", folder.name)))
    return spans


def timeline(spans: list, arrivals: list, samples: list, start: float, wall: float, step: float = 10.0) -> list:
    """Per `step` seconds of the run: builds running (the mean over the bin) and finished, results
    printed, and the GPU's busy share. Where the GPU waits while builds run, and where builds have
    all finished while results still come at the GPU's pace, is what a scheduling change moves."""
    lines = [f"{'timeline (s)':<14} {'builds running':>15} {'built':>6} {'results':>8} {'GPU busy':>9}"]
    t = 0.0
    while t < wall:
        hi = min(t + step, wall)
        running = sum(max(0.0, min(e, hi) - max(b, t)) for b, e, _ in spans) / (hi - t)
        built = sum(1 for _, e, _ in spans if t <= e < hi)
        results = sum(1 for a in arrivals if t <= a < hi)
        bin_samples = [u for ts, u in samples if t <= ts - start < hi]
        busy = f"{100 * sum(1 for u in bin_samples if u > 0) / len(bin_samples):.0f}%" if bin_samples else "-"
        lines.append(f"{t:5.0f}-{hi:<7.0f} {running:15.1f} {built:6d} {results:8d} {busy:>9}")
        t = hi
    return lines


def main() -> int:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/bench").resolve()
    out.mkdir(parents=True, exist_ok=True)
    db = out / "realworld-h200.db"
    db.unlink(missing_ok=True)
    work = pathlib.Path(tempfile.mkdtemp())
    try:
        folder = work / "run"
        count = lay_out(folder)
        env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"))  # a fresh cache: every build cold
        samples: list = []
        stop = threading.Event()
        sampler = threading.Thread(target=sample_gpu, args=(samples, stop), daemon=True)
        sampler.start()
        start = time.monotonic()
        epoch_start = time.time()
        arrivals = []  # seconds from the start to each progress line "kforge: [k/N] ..." (one per finished candidate)
        results = []
        proc = subprocess.Popen([str(KFORGE), "--db", str(db), "eval", str(folder), "--device", os.environ.get("BENCH_DEVICE", "cuda"), "--json",
                                 "--name", "realworld-h200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

        def read_progress() -> None:
            with open(out / "realworld-eval.err", "w") as err:
                for line in proc.stderr:
                    err.write(line)
                    if re.match(r"kforge: \[\d+/\d+\]", line):
                        arrivals.append(time.monotonic() - start)

        reader = threading.Thread(target=read_progress)
        reader.start()
        for line in proc.stdout:
            if line.startswith("{"):
                results.append(json.loads(line))
        rc = proc.wait()
        reader.join()
        wall = time.monotonic() - start
        stop.set()
        with open(out / "realworld-eval.jsonl", "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
        subprocess.run([str(KFORGE), "--db", str(db), "report", "realworld-h200", "--html", str(out / "realworld-h200.html")],
                       stdout=subprocess.DEVNULL, check=False)

        first = arrivals[0] if arrivals else float("nan")
        after = [u for t, u in samples if t - start >= first]
        busy = sum(1 for u in after if u > 0) / len(after) if after else float("nan")
        mean_util = statistics.mean(after) if after else float("nan")
        eval_sum = sum(r.get("wall_s") or 0 for r in results)
        verdicts = collections.Counter(r["verdict"] for r in results)
        print(f"tests/realworld as one kforge eval folder, fresh cache (exit {rc})")
        print(f"{'candidates':<38} {count} in the folder, {len(results)} results")
        print(f"{'first result':<38} {first:.1f} s   (target <= 15 s)")
        print(f"{'whole run':<38} {wall:.1f} s")
        print(f"{'sum of the evaluations':<38} {eval_sum:.1f} s")
        print(f"{'run / (sum + first result)':<38} {wall / (eval_sum + first):.2f}   (target <= 1.5; the first "
              "result's time stands for one build)")
        print(f"{'GPU busy after the first result':<38} {100 * busy:.0f}% of {len(after)} samples, mean utilization "
              f"{mean_util:.0f}%   (target >= 70%)")
        print(f"{'verdicts':<38} " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
        for line in verdicts_against_expected(results):
            print(line)
        for line in build_summary(work / "cache"):
            print(line)
        spans = build_spans(work / "cache", epoch_start)
        with open(out / "realworld-builds.txt", "w") as f:  # each build's span, for a closer look
            for b, e, name in sorted(spans):
                f.write(f"{b:7.1f} {e:7.1f}  {name}\n")
        for line in timeline(spans, arrivals, samples, start, wall):
            print(line)
        # The builds that ended last: what the run's last results waited for.
        for b, e, name in sorted(spans, key=lambda span: -span[1])[:5]:
            print(f"{'  late build':<14} {b:6.1f}-{e:<6.1f} s  {name}")
        return 0 if rc == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
