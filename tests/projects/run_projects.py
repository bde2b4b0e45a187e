#!/usr/bin/env python3
"""Multi-file fixture projects, end to end through the CLI.

Each folder here is a small training project written for these tests (an entry
script, a trainer module, a model module, ...) with a `project.json` beside it:

    {
      "explain": ["entry.py", "pkg/trainer.py"],  # files whose explain gives the plan below
      "enable": "entry.py",                        # the FILE given to enable/disable/remove
      "enable_args": ["--entry", "train.py"],      # optional extra arguments
      "plan": {"entry_file": ..., "loop_file": ..., "loop_line": ..., ...},
      "run": {"argv": ["entry.py"], "pythonpath": ["."], "processes": 1, "iterations": 3}
    }

and `enable.diff`, the reviewed output of `enable --diff` (MSPROBE_UPDATE_EXPECT=1
rewrites it, and the run then fails so the rewrite gets read).

For every project, on a fresh copy: explain's plan; the diff; the diff applies
with `git apply` and gives what --write writes; every changed file compiles; the
instrumented project runs for real under Debian's torch with the recording
msProbe stand-in, and each process records seed_all, one construction, then
start(nn.Module)/stop/step once per iteration; enabling again changes nothing;
disable leaves a project that runs without any msProbe call; enable brings the
same dump back; remove gives every file back byte for byte.

    run_projects.py MSPROBE_LSP_BINARY [--python /usr/bin/python3] [--only NAME]
"""
import argparse
import difflib
import json
import os
import pathlib
import py_compile
import shutil
import socket
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
STUB = HERE.parent / "behaviour" / "stub"
UPDATE = os.environ.get("MSPROBE_UPDATE_EXPECT") == "1"
CONFIG = {"task": "statistics", "dump_path": "./dump", "rank": [], "step": [], "level": "L1", "async_dump": False}


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failures.append(f"{name}: {str(detail)[:1500]}")
        return cond


def snapshot(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
            and "__pycache__" not in p.parts and p.name != "config.json"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cli(binary, *args, cwd=None):
    p = subprocess.run([binary, *args], capture_output=True, cwd=cwd, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_project(root, spec, python):
    """Runs the project; returns (exit code, stderr, recorded calls)."""
    log = root.parent / "msprobe_stub_log.jsonl"
    if log.exists():
        log.unlink()
    # The stand-in writes a dump like msProbe's: outside the project, which is compared byte for byte.
    config = dict(CONFIG, dump_path=str(root.parent / "dump"))
    (root / "config.json").write_text(json.dumps(config) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MSPROBE_STUB", "MASTER_"))}
    paths = [str(STUB)] + [str((root / p).resolve()) for p in spec.get("pythonpath", [])]
    env.update({"PYTHONPATH": os.pathsep.join(paths), "PYTHONDONTWRITEBYTECODE": "1", "MSPROBE_STUB_LOG": str(log),
                "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port())})
    try:
        p = subprocess.run([python, *spec["argv"]], cwd=root, env=env, capture_output=True, text=True, timeout=300)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        rc, err = None, "timed out after 300 s"
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    return rc, err, calls


def describe(call):
    if call["call"] == "start":
        return "start(model)" if call.get("model_is_module") else "start(<no nn.Module>)"
    if call["call"] == "construct" and call.get("noop"):
        return "construct(no-op)"
    return call["call"]


def check_processes(c, name, calls, spec):
    by_pid = {}
    for call in calls:
        by_pid.setdefault(call.get("pid"), []).append(describe(call))
    expected = ["seed_all", "construct"] + ["start(model)", "stop", "step"] * spec["iterations"]
    c.check(f"{name}: {spec['processes']} process(es) record msProbe calls", len(by_pid) == spec["processes"],
            {pid: len(v) for pid, v in by_pid.items()})
    for pid, seq in sorted(by_pid.items(), key=lambda kv: str(kv[0])):
        c.check(f"{name}: process {pid}: seed_all, one construction, then start/stop/step per iteration",
                seq == expected, "\n".join(difflib.unified_diff(expected, seq, "expected", "recorded", lineterm="")))


def project(binary, python, folder, c):
    name = folder.name
    spec = json.loads((folder / "project.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix=f"msprobe-project-{name}-") as tmp:
        root = pathlib.Path(tmp) / name
        shutil.copytree(folder, root, ignore=shutil.ignore_patterns("project.json", "enable.diff", "__pycache__"))
        original = snapshot(root)

        # explain: the same plan from the entry and from the loop file.
        for f in spec["explain"]:
            rc, out, err = run_cli(binary, "explain", "--format", "json", "--project", str(root), str(root / f))
            if not c.check(f"{name}: explain {f} exit 0", rc == 0, err):
                continue
            plan = json.loads(out).get("plan") or {}
            got = {k: plan.get(k) for k in spec["plan"]}
            c.check(f"{name}: explain {f} plan", got == spec["plan"], f"got {got}\nwant {spec['plan']}")

        # enable --diff against the reviewed diff.
        target = str(root / spec["enable"])
        extra = spec.get("enable_args", [])
        rc, diff, err = run_cli(binary, "enable", target, "--project", str(root), *extra, "--diff")
        c.check(f"{name}: enable --diff exit 0", rc == 0, err)
        golden = folder / "enable.diff"
        if UPDATE:
            golden.write_text(diff, encoding="utf-8")
            c.check(f"{name}: rewrote enable.diff (MSPROBE_UPDATE_EXPECT=1): review the diff", False)
        else:
            want = golden.read_text(encoding="utf-8") if golden.exists() else ""
            c.check(f"{name}: enable --diff is the reviewed enable.diff", diff == want,
                    "\n".join(difflib.unified_diff(want.splitlines(), diff.splitlines(), "enable.diff", "got",
                                                   lineterm="")))
        changed = sorted({line[6:] for line in diff.splitlines() if line.startswith("+++ b/")})
        c.check(f"{name}: the diff spans the planned files",
                set(changed) <= {spec["plan"]["entry_file"], spec["plan"]["loop_file"]} and changed, changed)

        # The diff applies and gives what --write writes.
        applied = pathlib.Path(tmp) / "applied"
        shutil.copytree(root, applied)
        patch = pathlib.Path(tmp) / "enable.patch"
        patch.write_text(diff, encoding="utf-8")
        g = subprocess.run(["git", "apply", "--unidiff-zero", "--whitespace=nowarn", str(patch)], cwd=applied,
                           capture_output=True, text=True)
        c.check(f"{name}: the diff applies with git apply", g.returncode == 0, g.stderr)

        rc, out, err = run_cli(binary, "enable", target, "--project", str(root), *extra, "--write")
        c.check(f"{name}: enable --write exit 0", rc == 0, err)
        enabled = snapshot(root)
        c.check(f"{name}: --write gives what the diff gives", enabled == snapshot(applied),
                [k for k in enabled if enabled[k] != snapshot(applied).get(k)])
        for f in changed:
            try:
                py_compile.compile(str(root / f), doraise=True, cfile=str(pathlib.Path(tmp) / "compiled.pyc"))
                c.check(f"{name}: {f} compiles", True)
            except py_compile.PyCompileError as e:
                c.check(f"{name}: {f} compiles", False, e)

        rc, err, calls = run_project(root, spec["run"], python)
        c.check(f"{name}: the instrumented project runs", rc == 0, err[-1500:])
        check_processes(c, name, calls, spec["run"])

        rc, out, err = run_cli(binary, "enable", target, "--project", str(root), *extra, "--write")
        c.check(f"{name}: enabling twice changes nothing", rc == 0 and snapshot(root) == enabled and "unchanged" in err,
                err)

        rc, out, err = run_cli(binary, "disable", target, "--project", str(root), *extra, "--write")
        c.check(f"{name}: disable --write exit 0", rc == 0, err)
        rc, err, calls = run_project(root, spec["run"], python)
        c.check(f"{name}: the disabled project runs without msProbe", rc == 0 and not calls, f"exit {rc}, {len(calls)} "
                f"calls\n{err[-800:]}")
        rc, out, err = run_cli(binary, "enable", target, "--project", str(root), *extra, "--write")
        c.check(f"{name}: enable after disable restores the dump", rc == 0 and snapshot(root) == enabled, err)

        rc, out, err = run_cli(binary, "remove", target, "--project", str(root), *extra, "--write")
        after = snapshot(root)
        c.check(f"{name}: remove gives every file back byte for byte", rc == 0 and after == original,
                [k for k in original if after.get(k) != original[k]] or err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--only")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    c = Checker()
    folders = sorted(p.parent for p in HERE.glob("*/project.json"))
    for folder in folders:
        if args.only and folder.name != args.only:
            continue
        project(binary, args.python, folder, c)
        print(f"{folder.name}: done ({c.passed} checks passed so far, {len(c.failures)} failed)", flush=True)
    for f in c.failures:
        print("FAIL " + f)
    print(f"projects: {len(folders)} projects, {c.passed} checks passed, {len(c.failures)} failed")
    return 1 if c.failures or not folders else 0


if __name__ == "__main__":
    sys.exit(main())
