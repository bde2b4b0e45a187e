#!/usr/bin/env python3
"""Instruction counts of PythonParser::parse and analysis::analyze per call,
under valgrind's callgrind (`--toggle-collect` on each function), so the
analysis-vs-parse ratio can be checked independently of the machine's load.
Each function is run N1 and N2 times (parse_bench --only); the per-call count
is the difference divided by N2 - N1 (N1 >= 5: parse_bench runs at least 5
times plus a warm-up), which cancels one-time costs (static
regex compilation, first-touch page faults).

Usage: instr_bench.py --parse-bench BIN [--out results.jsonl] FILE...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

FUNCS = {"parse": "msprobe::analysis::PythonParser::parse*", "analyze": "msprobe::analysis::analyze*"}


def collected(binary, only, iterations, path):
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg", f"--toggle-collect={FUNCS[only]}",
             binary, "--only", only, "--iterations", str(iterations), "--min-ms", "1e12", path],
            capture_output=True, text=True)
    m = re.search(r"Collected\s*:\s*([\d,]+)", out.stderr)
    if not m:
        raise RuntimeError(out.stderr[-2000:])
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parse-bench", required=True)
    ap.add_argument("--out")
    ap.add_argument("--n1", type=int, default=5)
    ap.add_argument("--n2", type=int, default=9)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    for path in a.files:
        per = {}
        for only in FUNCS:
            c1 = collected(a.parse_bench, only, a.n1, path)
            c2 = collected(a.parse_bench, only, a.n2, path)
            per[only] = (c2 - c1) / (a.n2 - a.n1)
        rec = {"measure": "instructions", "file": os.path.basename(path), "bytes": os.path.getsize(path),
               "parse_ir": per["parse"], "analyze_ir": per["analyze"], "ratio": per["analyze"] / per["parse"],
               "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
        line = json.dumps(rec)
        print(line, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
