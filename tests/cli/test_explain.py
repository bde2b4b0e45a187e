#!/usr/bin/env python3
"""`msprobe-lsp explain` against the real binary: text lines, --loop, JSON for
several files, exit codes. The corpus test covers the JSON facts in depth."""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
failures = []
passed = 0

SCRIPT = """import torch
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x in data:
    loss = model(x).sum()
    loss.backward()
    if bad(loss):
        continue
    opt.step()
with torch.no_grad():
    for x in val:
        model(x)
"""


def run(*args, cwd=None):
    p = subprocess.run([BIN, "explain", *args], capture_output=True, text=True, cwd=cwd, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(f"{name}: {detail}")


with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "train.py"), "w") as f:
        f.write(SCRIPT)
    with open(os.path.join(d, "empty.py"), "w") as f:
        f.write("")

    rc, out, err = run("train.py", cwd=d)
    lines = out.splitlines()
    check("exit 0", rc == 0, err)
    check("file line", lines[:2] == ["file: train.py", "scenario: pytorch-eager"], out)
    check("train loop line", any(l.startswith("loop 4: train at module level, model model, forward 5, backward 6, step 9")
                                 for l in lines), out)
    check("eval loop line", any(l.startswith("loop 11: eval at module level") for l in lines), out)
    check("plan lines", "plan: import after line 1" in lines and "plan: start before line 5" in lines
          and "plan: stop/step after line 9" in lines, out)
    check("early exit", "plan: stop/step also before the continue at line 8" in lines, out)

    rc, out, err = run("--loop", "11", "train.py", cwd=d)
    check("--loop picks the eval loop", "plan: loop 11 (eval), start(model=model)" in out, out)
    rc, out, err = run("--loop", "2", "train.py", cwd=d)
    check("--loop on a line without a loop", "plan: none (no loop with a role starts on that line)" in out, out)

    rc, out, err = run("--format", "json", "train.py", "empty.py", cwd=d)
    data = json.loads(out)
    check("json array for two files", isinstance(data, list) and [x["file"] for x in data] == ["train.py", "empty.py"],
          out)
    if isinstance(data, list) and len(data) == 2:
        t, e = data
        check("json plan", t["plan"]["loop_line"] == 4 and t["plan"]["early_exits"] == [{"line": 8, "kind": "continue"}],
              json.dumps(t["plan"]))
        check("json loops", [(l["line"], l["role"]) for l in t["loops"]] == [(4, "train"), (11, "eval")],
              json.dumps(t["loops"]))
        check("empty file", e["loops"] == [] and "plan" not in e and e["scenarios"] == [], json.dumps(e))

    rc, out, err = run("missing.py", cwd=d)
    check("missing file -> 2", rc == 2 and "cannot open" in err, f"rc={rc} {err}")
    rc, out, err = run("--format", "xml", "train.py", cwd=d)
    check("bad format -> 2", rc == 2 and "usage" in err, f"rc={rc} {err}")
    rc, out, err = run(cwd=d)
    check("no file -> 2", rc == 2 and "usage" in err, f"rc={rc} {err}")

for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
