#!/usr/bin/env python3
"""Corpus test: `msprobe-lsp explain --format json` on every script of
tests/corpus/scripts/ against the hand-written <name>.expect.json.

Two checks per script:

1. Truth: the engine's scenarios, loops (role, function, model, forward /
   backward / step lines, body bounds, epoch loop), Dynamo sites, msProbe
   calls, insertion plan and vLLM runner anchors equal the expectation.
   Expectations are written by hand and never generated from the output.
2. Snapshot: the whole JSON output equals tests/corpus/explain/<name>.json
   byte for byte, so a review shows exactly what the engine says. Run with
   MSPROBE_UPDATE_EXPECT=1 to rewrite the snapshots that differ (never the expectations);
   the run then fails so that the diff gets reviewed (tests/golden.py).

    run_explain.py BIN [NAME...]
"""
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import golden  # noqa: E402

SCRIPTS = HERE / "scripts"
SNAPSHOTS = HERE / "explain"
LOOP_KEYS = ("role", "function", "model", "forward_lines", "backward_lines", "step_lines",
             "body_first_line", "body_last_line", "epoch_loop_line")
PLAN_KEYS = ("loop_line", "import_after_line", "start_before_line", "stop_step_after_line",
             "construct_after_line")


def compare(exp, got):
    """Differences between the expectation and the engine's JSON, as readable lines."""
    diffs = []
    if sorted(exp["scenarios"]) != sorted(got.get("scenarios", [])):
        diffs.append(f"scenarios: expected {exp['scenarios']}, got {got.get('scenarios')}")

    got_loops = {l["line"]: l for l in got.get("loops", [])}
    exp_loops = {l["line"]: l for l in exp["loops"]}
    for line, el in exp_loops.items():
        gl = got_loops.get(line)
        if gl is None:
            diffs.append(f"loop {line}: missing (expected role {el['role']})")
            continue
        for k in LOOP_KEYS:
            if el[k] != gl.get(k):
                diffs.append(f"loop {line}: {k} expected {el[k]!r}, got {gl.get(k)!r}")
    for line, gl in got_loops.items():
        if line not in exp_loops:
            diffs.append(f"loop {line}: not expected (got role {gl['role']})")

    def pairs(items, a, b):
        return sorted((x[a], x[b]) for x in items)

    if pairs(exp["dynamo"], "line", "form") != pairs(got.get("dynamo", []), "line", "form"):
        diffs.append(f"dynamo: expected {pairs(exp['dynamo'], 'line', 'form')}, "
                     f"got {pairs(got.get('dynamo', []), 'line', 'form')}")
    if pairs(exp["msprobe"], "line", "kind") != pairs(got.get("msprobe", []), "line", "kind"):
        diffs.append(f"msprobe: expected {pairs(exp['msprobe'], 'line', 'kind')}, "
                     f"got {pairs(got.get('msprobe', []), 'line', 'kind')}")

    ep, gp = exp.get("plan"), got.get("plan")
    if ep is None and gp is not None:
        diffs.append(f"plan: expected none, got loop {gp.get('loop_line')}")
    elif ep is not None and gp is None:
        diffs.append(f"plan: expected loop {ep['loop_line']}, got none")
    elif ep is not None:
        for k in PLAN_KEYS:
            if ep.get(k) != gp.get(k):
                diffs.append(f"plan: {k} expected {ep.get(k)!r}, got {gp.get(k)!r}")
        # Left out: start() gets the loop's model alone.
        if ep.get("start_models", []) != gp.get("start_models", []):
            diffs.append(f"plan: start_models expected {ep.get('start_models', [])!r}, "
                         f"got {gp.get('start_models', [])!r}")

    er, gr = exp.get("runner"), got.get("runner")
    if er is not None:
        if gr is None:
            diffs.append("runner: missing")
        else:
            for k, v in er.items():
                if gr.get(k) != v:
                    diffs.append(f"runner: {k} expected {v!r}, got {gr.get(k)!r}")
    return diffs


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    binary = os.path.abspath(argv[0])
    names = argv[1:] or sorted(p.name[:-3] for p in SCRIPTS.glob("*.py"))
    update = golden.update_mode()
    SNAPSHOTS.mkdir(exist_ok=True)
    truth_ok, snapshot_failures, failed, rewritten = 0, [], [], 0
    for name in names:
        proc = subprocess.run([binary, "explain", "--format", "json", f"{name}.py"], cwd=SCRIPTS,
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            failed.append(name)
            print(f"FAIL {name}: explain exited {proc.returncode}: {proc.stderr.strip()}")
            continue
        got = json.loads(proc.stdout)
        exp = json.loads((SCRIPTS / f"{name}.expect.json").read_text(encoding="utf-8"))
        diffs = compare(exp, got)
        if diffs:
            failed.append(name)
            print(f"FAIL {name}")
            for d in diffs:
                print(f"     {d}")
        else:
            truth_ok += 1
        snap = SNAPSHOTS / f"{name}.json"
        if update:
            rewritten += golden.write_if_changed(snap, proc.stdout)
        elif not snap.exists() or snap.read_text(encoding="utf-8") != proc.stdout:
            snapshot_failures.append(name)
    print(f"{truth_ok}/{len(names)} scripts match their hand-written expectations")
    if snapshot_failures:
        print(f"explain output differs from tests/corpus/explain/ for: {', '.join(snapshot_failures)}")
        print("review the difference; if it is right, rerun with MSPROBE_UPDATE_EXPECT=1")
    return 1 if failed or snapshot_failures or golden.report(rewritten) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
