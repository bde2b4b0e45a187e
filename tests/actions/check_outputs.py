#!/usr/bin/env python3
"""Every output of the dump actions must compile with a real Python.

    check_outputs.py MSPROBE_LSP_BINARY [--python /usr/bin/python3]

1. `python -m py_compile` on every tests/actions/fixtures/**/*.expected.py.
2. The CLI's `enable`, then `disable` and `remove` on that result, over all
   scripts of tests/corpus/scripts (at least 47): each output must compile; a script the
   corpus gives an insertion plan (`"plan"` in its expect.json) must change.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE.parent / "corpus" / "scripts"


def py_compile(python, paths):
    """Compiles all `paths` in one interpreter run; returns the failures."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": tempfile.gettempdir()}
    p = subprocess.run([python, "-m", "py_compile", *map(str, paths)], capture_output=True, text=True, env=env)
    if p.returncode == 0:
        return []
    bad = []
    for path in paths:  # find the culprits one by one
        q = subprocess.run([python, "-m", "py_compile", str(path)], capture_output=True, text=True, env=env)
        if q.returncode != 0:
            bad.append(f"{path}: {q.stderr.strip()}")
    return bad or [p.stderr.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--python", default="/usr/bin/python3")
    args = ap.parse_args()
    failures, outputs = [], sorted((HERE / "fixtures").rglob("*.expected.py"))

    with tempfile.TemporaryDirectory(prefix="msprobe-actions-") as tmp:
        scripts = sorted(CORPUS.glob("*.py"))
        if len(scripts) < 47:
            failures.append(f"expected at least 47 corpus scripts, found {len(scripts)}")
        for script in scripts:
            expect = json.loads(script.with_suffix(".expect.json").read_text(encoding="utf-8"))
            p = subprocess.run([args.binary, "enable", str(script)], capture_output=True)
            if p.returncode != 0:
                if "plan" in expect:
                    failures.append(f"enable {script.name}: refused: {p.stderr.decode(errors='replace').strip()}")
                continue
            if "plan" in expect and p.stdout == script.read_bytes():
                failures.append(f"enable {script.name}: nothing inserted although the corpus plans an insertion")
            enabled = pathlib.Path(tmp) / script.name
            enabled.write_bytes(p.stdout)
            outputs.append(enabled)
            for op in ("disable", "remove"):
                q = subprocess.run([args.binary, op, str(enabled)], capture_output=True)
                if q.returncode != 0:
                    failures.append(f"{op} after enable {script.name}: exit {q.returncode}")
                out = pathlib.Path(tmp) / f"{script.stem}.{op}.py"
                out.write_bytes(q.stdout)
                outputs.append(out)
        failures += py_compile(args.python, outputs)
        checked = len(outputs)

    for f in failures:
        print("FAILED " + f)
    print(f"{checked - len(failures)} of {checked} outputs compile" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
