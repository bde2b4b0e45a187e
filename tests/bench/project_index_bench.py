#!/usr/bin/env python3
"""The project index benchmark (issue 13): a generated 2,000-file project indexed
on 2 threads (time, peak RSS of the process), the index update of a one-file
edit against that file's analysis, and `explain --project` on a 1,000-file
project (a fresh process each run: scan, index, plan). Appends JSON lines.

    project_index_bench.py --bench PROJECT_BENCH --lsp BIN --big DIR --mid DIR --runs N --out RESULTS
"""
import argparse
import json
import statistics
import subprocess
import time


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--lsp", required=True)
    ap.add_argument("--big", required=True)
    ap.add_argument("--mid", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rows = []
    for _ in range(a.runs):
        start_load = load()
        p = subprocess.run([a.bench, a.big, "--threads", "2", "--edit", "pkg000/trainer_0.py"], capture_output=True,
                           text=True, check=True)
        r = json.loads(p.stdout)
        r["loadavg_start"] = start_load
        rows.append(r)
    med = lambda key: statistics.median(r[key] for r in rows)
    summary = {"measure": "project_index", "files": rows[0]["files"], "source_bytes": rows[0]["source_bytes"],
               "summary_bytes": rows[0]["summary_bytes"], "runs": len(rows),
               "total_ms": {"median": med("total_ms"), "min": min(r["total_ms"] for r in rows),
                            "max": max(r["total_ms"] for r in rows)},
               "peak_rss_kb": {"median": med("peak_rss_kb"), "max": max(r["peak_rss_kb"] for r in rows)},
               "edit": {"file": rows[0]["edit"]["file"],
                        "analysis_ms": statistics.median(r["edit"]["analysis_ms"] for r in rows),
                        "index_update_ms": statistics.median(r["edit"]["index_update_ms"] for r in rows),
                        "affected_ms": statistics.median(r["edit"]["affected_ms"] for r in rows),
                        "affected_files": rows[0]["edit"]["affected_files"]},
               "loadavg_start": min(r["loadavg_start"] for r in rows), "loadavg": load(),
               "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    summary["edit"]["ratio"] = summary["edit"]["index_update_ms"] / summary["edit"]["analysis_ms"]
    target = f"{a.mid}/pkg000/trainer_0.py"
    walls, start_load = [], load()
    for _ in range(a.runs):
        t = time.perf_counter()
        subprocess.run([a.lsp, "explain", "--format", "json", "--project", a.mid, target], capture_output=True,
                       check=True)
        walls.append((time.perf_counter() - t) * 1000)
    n_mid = sum(1 for _ in __import__("pathlib").Path(a.mid).rglob("*.py"))
    explain = {"measure": "project_explain", "files": n_mid, "runs": a.runs,
               "wall_ms": {"median": statistics.median(walls), "min": min(walls), "max": max(walls)},
               "loadavg_start": start_load, "loadavg": load(), "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    with open(a.out, "a") as f:
        f.write(json.dumps(summary) + "\n")
        f.write(json.dumps(explain) + "\n")
    print(json.dumps(summary))
    print(json.dumps(explain))


if __name__ == "__main__":
    main()
