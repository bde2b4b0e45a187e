#!/usr/bin/env python3
"""`msprobe-lsp verify` against the real binary, the shipped runner, Debian's
torch (/usr/bin/python3) and the recording msProbe stand-in
(tests/behaviour/stub): the process ends right after the N-th step(), the
copy of the config is what the debugger read, the user's files (script,
config, earlier dump) are unchanged, `-m module` and script arguments reach
the script as under `python`, launchers get a command line, failures and
[ERROR] lines are reported, and usage errors exit 2.

    test_verify_cli.py MSPROBE_LSP [--python /usr/bin/python3]
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUB = HERE.parent / "behaviour" / "stub"
TIMEOUT_S = 300

# A training script with five iterations that records what it saw, so the
# test can tell how far it got and how it was started.
TRAIN = '''import json
import sys

import torch
import torch.nn as nn
from msprobe.pytorch import PrecisionDebugger, seed_all

seed_all()
debugger = PrecisionDebugger(config_path="./config.json"{extra})
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with open("seen.json", "w") as f:
    json.dump({{"name": __name__, "argv": sys.argv}}, f)
for i in range(5):
    debugger.start(model)
    loss = model(torch.randn(8, 4)).sum()
    loss.backward()
    optimizer.step()
    {inside}
    debugger.stop()
    debugger.step()
    print(f"iteration {{i}} done", flush=True)
print("after the loop", flush=True)
'''
CONFIG = {"task": "statistics", "dump_path": "./dump", "rank": [], "step": [], "level": "L1"}


def digest(folder):
    """Hash of every file under `folder` (path and content), to prove nothing changed."""
    h = hashlib.sha256()
    for p in sorted(Path(folder).rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


class Tester:
    def __init__(self, binary, python):
        self.binary = binary
        self.python = python
        self.failures = []
        self.passed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok     {name}")
        else:
            self.failures.append(name)
            print(f"FAILED {name}\n       {str(detail)[:3000]}")

    def project(self, root, name, extra="", inside="pass", config=None):
        work = Path(root) / name
        work.mkdir()
        (work / "train.py").write_text(TRAIN.format(extra=extra, inside=inside), encoding="utf-8")
        (work / "config.json").write_text(json.dumps(config or CONFIG, indent=4) + "\n", encoding="utf-8")
        return work

    def verify(self, work, *args, log=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MSPROBE_STUB"))}
        env.update({"PYTHONPATH": str(STUB), "PYTHONDONTWRITEBYTECODE": "1"})
        if log:
            env["MSPROBE_STUB_LOG"] = str(log)
        return subprocess.run([self.binary, "verify", *args], cwd=work, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)


def stub_calls(log):
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--python", default="/usr/bin/python3")
    a = parser.parse_args()
    t = Tester(os.path.abspath(a.binary), a.python)
    root = tempfile.mkdtemp(prefix="msprobe-verify-test-")
    try:
        # The short run: 2 of 5 iterations, the copy read, the user's files untouched.
        work = t.project(root, "basic")
        earlier = work / "dump" / "step0" / "proc1"
        earlier.mkdir(parents=True)
        (earlier / "dump.json").write_text('{"data": {"earlier": {}}}', encoding="utf-8")
        before = digest(work)
        log = work.parent / "basic.log"
        report_file = work.parent / "basic-report.json"
        p = t.verify(work, "train.py", "--steps", "2", "--python", t.python, "--format", "json",
                     "--report", str(report_file), log=log)
        result = json.loads(p.stdout) if p.stdout.strip() else {}
        t.check("verify exits 0 when the short run's dump is complete", p.returncode == 0 and result.get("ok") is True,
                p.stdout[-2000:] + p.stderr[-2000:])
        # The line after step() in the 2nd iteration never runs: the process ends as step() returns.
        t.check("the run ended right after the 2nd step()", "iteration 0 done" in p.stderr
                and "iteration 1 done" not in p.stderr and "after the loop" not in p.stderr, p.stderr[-2000:])
        calls = stub_calls(log)
        t.check("msProbe saw exactly 2 step() calls", [c["call"] for c in calls].count("step") == 2, calls)
        construct = [c for c in calls if c["call"] == "construct"]
        t.check("the debugger read the copy of the config", len(construct) == 1
                and construct[0]["config_path"] == result.get("config_copy") != str(work / "config.json"), construct)
        t.check("the run reported what it did", result.get("run", {}).get("stopped_by_runner") is True
                and result["run"].get("step_calls") == 2 and result["run"].get("config_paths") == ["./config.json"],
                result.get("run"))
        t.check("the script saw __main__ and its own argv", json.loads((work / "seen.json").read_text())
                == {"name": "__main__", "argv": ["train.py"]}, (work / "seen.json").read_text())
        (work / "seen.json").unlink()
        shutil.rmtree(work / "dump_verify")
        t.check("the user's script, config and earlier dump are unchanged", digest(work) == before)
        rep = result.get("report", {})
        t.check("the report is check-dump's, with the estimate for the user's steps",
                rep.get("dumpPath") == str(work / "dump_verify") and sorted(rep.get("tensor_bytes_per_step", {})) == ["0", "1"]
                and rep["tensor_estimate"][-1].startswith("the config dumps every step: about"), rep)
        t.check("--report wrote the same JSON", report_file.exists()
                and json.loads(report_file.read_text())["config_copy"] == result.get("config_copy"))
        t.check("the temporary copy is removed afterwards", not Path(result.get("config_copy", "/")).exists())

        # Text form, a second run into the same _verify folder (it is ours, so it is replaced).
        p = t.verify(work, "train.py", "--python", t.python)
        t.check("text report: run outcome, layout, estimate, result", p.returncode == 0
                and "run: ended by verify after step() returned 1 time(s)" in p.stdout
                and "estimate: a tensor dump of step 0 would write about" in p.stdout
                and "result: the dump looks complete" in p.stdout, p.stdout + p.stderr)
        t.check("the earlier short run's steps were cleared",
                sorted(d.name for d in (work / "dump_verify").iterdir()) == [".msprobe-lsp-verify", "step0"])

        # -m module with script arguments after --.
        mod = Path(root) / "module"
        (mod / "pkg").mkdir(parents=True)
        (mod / "pkg" / "__init__.py").write_text("", encoding="utf-8")
        (mod / "pkg" / "train.py").write_text(TRAIN.format(extra="", inside="pass"), encoding="utf-8")
        (mod / "config.json").write_text(json.dumps(CONFIG), encoding="utf-8")
        log = Path(root) / "module.log"
        p = t.verify(mod, "-m", "pkg.train", "--python", t.python, "--", "--lr", "0.1", log=log)
        seen = json.loads((mod / "seen.json").read_text()) if (mod / "seen.json").exists() else {}
        t.check("-m module runs as __main__ with its arguments", p.returncode == 0 and seen.get("name") == "__main__"
                and seen.get("argv", [None])[1:] == ["--lr", "0.1"] and seen["argv"][0].endswith("pkg/train.py"),
                f"{seen}\n{p.stdout[-1500:]}{p.stderr[-1500:]}")
        t.check("-m module: config found through the module's file",
                [c["call"] for c in stub_calls(log)].count("construct") == 1, p.stderr[-1500:])

        # Constructor arguments that would undo the short run are replaced.
        work = t.project(root, "ctor-args", extra=', step=[3, 4], dump_path="./elsewhere"')
        log = work.parent / "ctor.log"
        p = t.verify(work, "train.py", "--python", t.python, "--format", "json", log=log)
        result = json.loads(p.stdout) if p.stdout.strip() else {}
        t.check("step= and dump_path= passed to the constructor are replaced",
                p.returncode == 0 and sorted(result.get("run", {}).get("overridden", [])) == ["dump_path", "step"]
                and not (work / "elsewhere").exists(), p.stdout[-2000:] + p.stderr[-2000:])

        # A script that fails after its first step, and msProbe's [ERROR] lines.
        work = t.project(root, "failing", inside='if i == 1:\n        print("[ERROR] msprobe: something went wrong", '
                                                 'flush=True)\n        raise RuntimeError("boom")')
        p = t.verify(work, "train.py", "--steps", "3", "--python", t.python, "--format", "json")
        result = json.loads(p.stdout) if p.stdout.strip() else {}
        causes = "\n".join(result.get("report", {}).get("causes", []))
        t.check("a failing script: exit 1, the failure and its last line are the first cause",
                p.returncode == 1 and result.get("report", {}).get("causes", [""])[0].startswith("the script failed")
                and "RuntimeError: boom" in causes, p.stdout[-2500:])
        t.check("[ERROR] lines of the run are in the report", "the run printed 1 [ERROR] line(s)" in causes
                and any(e["source"] == "output of the run" for e in result.get("report", {}).get("errors", [])), causes)

        # Launchers: the command line to run, with the runner in front of the script.
        work = t.project(root, "launcher")
        p = t.verify(work, "torchrun", "--python", t.python, "--", "--nproc_per_node=2", "train.py", "--lr", "1")
        t.check("torchrun: exit 2 and a command line with the runner before the script", p.returncode == 2
                and "torchrun --nproc_per_node=2 " in p.stdout and "msprobe_verify_runner.py --config " in p.stdout
                and " -- train.py --lr 1" in p.stdout and "msprobe-lsp check-dump" in p.stdout, p.stdout + p.stderr)
        p = t.verify(work, "-m", "torch.distributed.run", "--python", t.python, "--config", "config.json", "--",
                     "--nproc_per_node", "2", "-m", "pkg.train")
        t.check("python -m torch.distributed.run -m pkg: the module goes to the runner", p.returncode == 2
                and f"{t.python} -m torch.distributed.run --nproc_per_node 2 " in p.stdout
                and " -m pkg.train --" in p.stdout, p.stdout + p.stderr)

        # Usage errors.
        work = t.project(root, "usage")
        (work / "plain.py").write_text("print('no debugger here')\n", encoding="utf-8")
        (work / "dump_verify").mkdir()
        (work / "dump_verify" / "mine.txt").write_text("not verify's", encoding="utf-8")
        for name, args, words in [
            ("no script", [], "no script"),
            ("--steps 0", ["train.py", "--steps", "0"], "--steps must be"),
            ("an unknown option", ["train.py", "--lr", "1"], "arguments for the script go after --"),
            ("a missing script", ["nope.py"], "no such script"),
            ("a script without a debugger", ["plain.py"], "builds no PrecisionDebugger"),
            ("a _verify folder verify did not make", ["train.py"], "did not write; pass --dump-path"),
            ("a missing interpreter", ["train.py", "--python", "/nonexistent/python", "--dump-path", "d2"], "cannot run"),
        ]:
            p = t.verify(work, *args)
            t.check(f"usage: {name} exits 2", p.returncode == 2 and words in p.stderr, p.stderr)
        t.check("the folder verify did not make is left alone",
                (work / "dump_verify" / "mine.txt").read_text(encoding="utf-8") == "not verify's")
    finally:
        if t.failures:
            print(f"work files kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"{t.passed} passed, {len(t.failures)} failed")
    return 1 if t.failures else 0


if __name__ == "__main__":
    sys.exit(main())
