#!/usr/bin/env python3
"""Behavioural test of the dump actions: the CLI instruments copies of
scripts/*.py, which then run for real under Debian's torch with the recording
msprobe stand-in (run_instrumented.py checks seed_all, one construction, then
per iteration start(nn.Module) -> stop -> step). Then `disable` must leave a
script that runs and calls msProbe not at all, and `remove` must give the
original bytes back.

    run_enabled.py MSPROBE_LSP_BINARY [--python /usr/bin/python3]
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_instrumented  # noqa: E402  (the kit's runner, reused)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--python", default="/usr/bin/python3")
    args = ap.parse_args()
    probe = subprocess.run([args.python, "-c", "import torch"], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"FAIL: {args.python} cannot import torch (scripts/setup.sh test installs python3-torch)")
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="msprobe-enabled-") as tmp:
        for original in sorted((HERE / "scripts").glob("*.py")):
            script = pathlib.Path(tmp) / original.name
            shutil.copy(original, script)
            p = subprocess.run([args.binary, "enable", str(script), "--write"], capture_output=True, text=True)
            print(f"enable --write {original.name}: {p.stderr.strip()}")
            if p.returncode != 0:
                failures.append(f"{original.name}: enable failed: {p.stderr.strip()}")
                continue
            if run_instrumented.main([str(script), "--python", args.python]) != 0:
                failures.append(f"{original.name}: the instrumented script's calls are wrong (see above)")

            p = subprocess.run([args.binary, "disable", str(script), "--write"], capture_output=True, text=True)
            rc, _, stderr, entries = run_instrumented.run(script, args.python, None, False)
            if p.returncode != 0 or rc != 0 or entries:
                failures.append(f"{original.name}: disabled script: exit {rc}, {len(entries)} msProbe call(s)\n{stderr[-800:]}")
            else:
                print(f"PASS {original.name} disabled: runs, no msProbe call")

            p = subprocess.run([args.binary, "remove", str(script), "--write"], capture_output=True, text=True)
            if p.returncode != 0 or script.read_bytes() != original.read_bytes():
                failures.append(f"{original.name}: enable -> disable -> remove is not the original file")
            else:
                print(f"PASS {original.name} removed: byte-identical to the original")
    for f in failures:
        print("FAILED " + f)
    print("behaviour: " + ("all passed" if not failures else f"{len(failures)} failure(s)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
