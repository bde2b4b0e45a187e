#!/usr/bin/env python3
"""Run an msProbe-instrumented script against the recording stub and check the
order of the dump calls it made.

    python3 tests/behaviour/run_instrumented.py SCRIPT [--python /usr/bin/python3]
                                               [--iterations N] [--config FILE] [--keep]

The script runs with the interpreter given by --python (default /usr/bin/python3,
which has Debian's python3-torch), with PYTHONPATH set to the stub directory only,
MSPROBE_STUB_LOG pointing at a temporary file, and its working directory set to a
temporary directory that holds a minimal ./config.json (or --config).

Expected sequence, N = the ``# behaviour: iterations=N`` comment in the script:

    seed_all
    construct                       (exactly one; a repeated construction is an error)
    N x (start(model) -> stop -> step)

A script that trains several modules says so with ``# behaviour: models=M``: each
start() must then get a list of M modules (``start([M modules])``).

Exit code 0 when the sequence matches and the script exited 0, else 1 (with a diff).
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUB_DIR = HERE / "stub"
ITER_RE = re.compile(r"#\s*behaviour:\s*iterations\s*=\s*(\d+)")
MODELS_RE = re.compile(r"#\s*behaviour:\s*models\s*=\s*(\d+)")
DEFAULT_CONFIG = {
    "task": "statistics",
    "dump_path": "./dump_path",
    "rank": [],
    "step": [],
    "level": "L1",
    "async_dump": False,
    "statistics": {"scope": [], "list": [], "data_mode": ["all"], "summary_mode": "statistics"},
}
TIMEOUT_S = 120


def read_iterations(script):
    match = ITER_RE.search(script.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else None


def read_models(script):
    match = MODELS_RE.search(script.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else 1


def start_line(models):
    return "start(model)" if models == 1 else f"start([{models} modules])"


def describe(entry):
    """One readable line per recorded call, the unit the diff compares."""
    call = entry.get("call", "?")
    if call == "start":
        if not entry.get("model_is_module"):
            return "start(<no nn.Module>)"
        return start_line(entry.get("model_count", 1))
    if call == "construct":
        return "construct(no-op: already constructed)" if entry.get("noop") else "construct"
    return call


def expected_sequence(iterations, models=1):
    return ["seed_all", "construct"] + [start_line(models), "stop", "step"] * iterations


def run(script, python, config, keep):
    workdir = Path(tempfile.mkdtemp(prefix="msprobe-behaviour-"))
    log_path = workdir / "msprobe_stub_log.jsonl"
    if config:
        shutil.copy(config, workdir / "config.json")
    else:
        (workdir / "config.json").write_text(json.dumps(DEFAULT_CONFIG, indent=2) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MSPROBE_STUB"))}
    env.update({
        "PYTHONPATH": str(STUB_DIR),
        "PYTHONDONTWRITEBYTECODE": "1",
        "MSPROBE_STUB_LOG": str(log_path),
    })
    try:
        proc = subprocess.run([python, str(script)], cwd=workdir, env=env, capture_output=True,
                              text=True, timeout=TIMEOUT_S)
        returncode, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        returncode, stdout, stderr = None, exc.stdout or "", f"timed out after {TIMEOUT_S}s"
    entries = []
    if log_path.exists():
        for line in log_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entries.append(json.loads(line))
    if keep:
        print(f"kept work directory {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return returncode, stdout, stderr, entries


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("script", type=Path)
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="interpreter with torch installed (default: %(default)s)")
    parser.add_argument("--iterations", type=int, help="override the '# behaviour: iterations=N' comment")
    parser.add_argument("--config", type=Path, help="config.json to place in the working directory")
    parser.add_argument("--keep", action="store_true", help="keep the temporary working directory")
    args = parser.parse_args(argv)

    script = args.script.resolve()
    if not script.is_file():
        print(f"FAIL {args.script}: no such file")
        return 1
    iterations = args.iterations if args.iterations is not None else read_iterations(script)
    if iterations is None:
        print(f"FAIL {args.script}: no '# behaviour: iterations=N' comment and no --iterations")
        return 1

    returncode, stdout, stderr, entries = run(script, args.python, args.config, args.keep)
    actual = [describe(e) for e in entries]
    models = read_models(script)
    expected = expected_sequence(iterations, models)
    problems = []
    if returncode != 0:
        problems.append(f"script exited with {returncode}")
    if actual != expected:
        problems.append(f"recorded call sequence differs from the expected one ({len(actual)} vs "
                        f"{len(expected)} calls: seed_all, one construct, {iterations} x start/stop/step)")

    if not problems:
        print(f"PASS {args.script}: seed_all, construct, {iterations} x {start_line(models)}/stop/step")
        return 0

    print(f"FAIL {args.script}")
    for p in problems:
        print(f"  - {p}")
    if actual != expected:
        print("  diff (expected -> recorded):")
        for line in difflib.unified_diff(expected, actual, "expected", "recorded", lineterm="", n=2):
            print(f"    {line}")
    if returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-15:])
        print("  stderr (last lines):")
        print("    " + tail.replace("\n", "\n    "))
    return 1


if __name__ == "__main__":
    sys.exit(main())
