#!/usr/bin/env python3
"""CLI throughput: `msprobe-lsp check --jobs N TREE` (output discarded) over a
tree of generated scripts, for N = 1 and 2. Reports wall time, files/s, MB/s
of Python source, CPU use (user+sys over wall: 2.0 means both cores busy) and
the peak RSS of each run, median and spread over --runs runs after one
discarded warm-up run.

Usage: check_bench.py --lsp BIN --tree DIR [--runs 5] [--jobs 1,2] [--out results.jsonl]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def tree_size(root):
    files = size = 0
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".py"):
                files += 1
                size += os.path.getsize(os.path.join(d, n))
    return files, size


def run_once(lsp, tree, jobs):
    """Wall seconds, CPU seconds (user + sys) and peak RSS (KB) of one run.
    wait4 gives this child's own usage: RUSAGE_CHILDREN's maxrss is the
    largest of every child so far, the warm-up run's included."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([lsp, "check", "--jobs", str(jobs), tree], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    rc = proc.returncode
    if rc not in (0, 1):
        raise RuntimeError(f"check exited with {rc}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lsp", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--out")
    a = ap.parse_args()
    # The tree is a project of its own, as a user's checkout is: without a
    # marker, `check` would take the enclosing repository (this one, with the
    # benchmark's other generated folders) as the project to index.
    marker = os.path.join(a.tree, "pyproject.toml")
    if not os.path.exists(marker):
        with open(marker, "w") as f:
            f.write('[project]\nname = "bench-tree"\n')
    files, size = tree_size(a.tree)
    run_once(a.lsp, a.tree, 2)  # warm the page cache
    for jobs in (int(j) for j in a.jobs.split(",")):
        la0 = loadavg()
        walls, cpus, rss = [], [], []
        for _ in range(a.runs):
            w, c, r = run_once(a.lsp, a.tree, jobs)
            walls.append(w)
            cpus.append(c)
            rss.append(r)
        med = statistics.median(walls)
        rec = {"measure": "check", "jobs": jobs, "files": files, "bytes": size, "runs": a.runs,
               "wall_s": {"median": med, "min": min(walls), "max": max(walls)},
               "files_per_s": files / med, "mb_per_s": size / 1e6 / med,
               "mb_per_s_best": size / 1e6 / min(walls),
               "cpu_per_wall": statistics.median(c / w for c, w in zip(cpus, walls)),
               "peak_rss_kb": {"median": statistics.median(rss), "min": min(rss), "max": max(rss)},
               "loadavg_start": la0, "loadavg": loadavg(), "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
        line = json.dumps(rec)
        print(line, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
