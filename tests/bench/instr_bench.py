#!/usr/bin/env python3
"""Instruction counts per call under valgrind's callgrind (`--toggle-collect`
on the function measured), so the ratios of the targets can be checked
independently of the machine's load:

  parse              PythonParser::parse of the whole text
  analyze            analysis::analyze of the whole text (no project)
  reparse            the incremental reparse after a one-character edit
  reanalyze_project  analysis::analyze after that edit, as the server runs it
                     in a workspace folder (old tree, previous facts and
                     summary lent, the second core lent for the donor copy,
                     whose instructions on that core are not counted)

Each measure is run N1 and N2 times (parse_bench --only); the per-call count
is the difference divided by N2 - N1 (N1 >= 5: parse_bench runs at least 5
times plus a warm-up), which cancels one-time costs (static regex
compilation, first-touch page faults). N2 - N1 is even: as many typed digits
as deleted ones.

The edit in a project is also split by pass (EDIT_PARTS: the reparse, the
facts, the bindings, the module summary, the loop roles, the rules; what is
left is "other"), from callgrind_annotate's inclusive counts of those
functions, differenced the same way: where an edit's instructions go, for
each file, without a hand-run profile.

Usage: instr_bench.py --parse-bench BIN [--out results.jsonl] [--no-edits] FILE...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# measure (parse_bench --only) -> the function collected. The edits' timed
# parts are functions of parse_bench's own, so the full parses and analyses
# their chains start from are not collected with them.
FUNCS = {"parse": "msprobe::analysis::PythonParser::parse*", "analyze": "msprobe::analysis::analyze*",
         "reparse": "*timed_reparse*", "reanalyze_project": "*timed_reanalyze*"}


# The passes of an edit in a project, by the start of the function's
# demangled name (analyzer.cpp runs them in this order; none calls another).
EDIT_PARTS = [
    ("reparse", "msprobe::analysis::PythonParser::parse("),
    ("facts", "msprobe::analysis::build_facts("),
    ("bindings", "msprobe::analysis::Bindings::Bindings("),
    ("summary", "msprobe::analysis::summarize(msprobe::analysis::SourceText const&, "
                "msprobe::analysis::FileFacts const&, msprobe::analysis::Bindings const&"),
    ("loop roles", "msprobe::analysis::derive_loops_with("),
    ("rules", "msprobe::analysis::check_facts("),
]


def inclusive_parts(cg_file):
    """Inclusive instructions of each EDIT_PARTS function in a callgrind file.
    A function may be listed once per source file its inlined code came from;
    the largest entry is the function itself."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg_file],
                         capture_output=True, text=True, check=True).stdout
    parts = {name: 0 for name, _ in EDIT_PARTS}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(?:\*\s+)?[^:]*:(.*)$", line)
        if not m:
            continue
        count, fn = int(m.group(1).replace(",", "")), m.group(2)
        if "{lambda" in fn:
            continue
        for name, prefix in EDIT_PARTS:
            if fn.startswith(prefix):
                parts[name] = max(parts[name], count)
    return parts


def collected(binary, only, iterations, path, parts=None):
    """Instructions collected over `iterations` runs of `only`; with `parts`
    (a dict), also the EDIT_PARTS counts, filled in."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg", f"--toggle-collect={FUNCS[only]}",
             binary, "--only", only, "--iterations", str(iterations), "--min-ms", "1e12", path],
            capture_output=True, text=True)
        m = re.search(r"Collected\s*:\s*([\d,]+)", out.stderr)
        if not m:
            raise RuntimeError(out.stderr[-2000:])
        if parts is not None:
            parts.update(inclusive_parts(f"{tmp}/cg"))
    return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parse-bench", required=True)
    ap.add_argument("--out")
    ap.add_argument("--n1", type=int, default=5)
    ap.add_argument("--n2", type=int, default=9)
    ap.add_argument("--no-edits", action="store_true", help="parse and analyze only")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if (a.n2 - a.n1) % 2:
        ap.error("--n2 - --n1 must be even (typed and deleted digits alternate)")
    measures = ["parse", "analyze"] if a.no_edits else list(FUNCS)
    for path in a.files:
        per = {}
        p1, p2 = {}, {}
        for only in measures:
            edit = only == "reanalyze_project"
            c1 = collected(a.parse_bench, only, a.n1, path, p1 if edit else None)
            c2 = collected(a.parse_bench, only, a.n2, path, p2 if edit else None)
            per[only] = (c2 - c1) / (a.n2 - a.n1)
        rec = {"measure": "instructions", "file": os.path.basename(path), "bytes": os.path.getsize(path),
               "parse_ir": per["parse"], "analyze_ir": per["analyze"], "ratio": per["analyze"] / per["parse"],
               "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
        if "reparse" in per:
            rec.update({"reparse_ir": per["reparse"], "reanalyze_project_ir": per["reanalyze_project"],
                        "edit_ratio": per["reanalyze_project"] / per["reparse"]})
            parts = {name: (p2[name] - p1[name]) / (a.n2 - a.n1) for name, _ in EDIT_PARTS}
            parts["other"] = per["reanalyze_project"] - sum(parts.values())
            rec["reanalyze_project_parts_ir"] = parts
        line = json.dumps(rec)
        print(line, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
