#!/usr/bin/env python3
"""CLI tests against the real binary: `check` output, exit codes, JSON, directory walk."""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
ROOT = sys.argv[2]
failures = []
passed = 0


def run(*args, cwd=None):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(f"{name}: {detail}")


with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "pkg", "__pycache__"))
    os.makedirs(os.path.join(d, ".venv"))
    with open(os.path.join(d, "pkg", "train.py"), "w") as f:
        f.write("import torch\nmodel = torch.compile(model)\n")
    with open(os.path.join(d, "pkg", "clean.py"), "w") as f:
        f.write("import torch\nprint(torch.__version__)\n")
    with open(os.path.join(d, ".venv", "hidden.py"), "w") as f:
        f.write("import torch\nmodel = torch.compile(model)\n")

    rc, out, err = run("check", d)
    check("text output line", "train.py:2:9: MSP101 warning:" in out, out + err)
    check("hidden dirs skipped", "hidden.py" not in out, out)
    check("warning only -> exit 0", rc == 0, f"rc={rc}")

    rc, out, err = run("check", "--torch-version", "2.7.0", os.path.join(d, "pkg"))
    check("error severity -> exit 1", rc == 1, f"rc={rc} {out}")
    check("error text", "MSP101 error:" in out, out)

    rc, out, err = run("check", "--format", "json", "--jobs", "2", os.path.join(d, "pkg"))
    data = json.loads(out)
    check("json is a list with one finding", isinstance(data, list) and len(data) == 1, out)
    if data:
        f = data[0]
        check("json fields", f["code"] == "MSP101" and f["line"] == 2 and f["column"] == 9 and f["end_column"] == 29,
              json.dumps(f))
        check("json fixes", any("Unwrap" in x["title"] for x in f["fixes"]), json.dumps(f))

    rc, out, err = run("check", os.path.join(d, "missing.py"))
    check("missing file -> exit 2 with a message", rc == 2 and "no such file" in err, f"rc={rc} {err}")

    rc, out, err = run("check", "--disable", "MSP101", os.path.join(d, "pkg"))
    check("--disable", out.strip() == "" and rc == 0, out)

    rc, out, err = run("check")
    check("usage on no path", rc == 2 and "usage" in err, err)

rc, out, err = run("check", os.path.join(ROOT, "examples"))
check("examples are checked", "MSP101" in out, out + err)

rc, out, err = run("--version")
check("--version", rc == 0 and out.startswith("msprobe-lsp "), out)
rc, out, err = run("--help")
check("--help", rc == 0 and "check" in out, out)
for command in ("check", "enable", "config", "check-dump", "explain"):
    rc, out, err = run(command, "--help")
    check(f"{command} --help prints the usage", rc == 0 and "msprobe-lsp " + command in out, out + err)
rc, out, err = run("--bogus")
check("unknown flag", rc == 2 and "unknown argument" in err, err)

for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
