#!/usr/bin/env python3
"""ctest behaviour_check_dump: instrumented scripts run for real under Debian's
torch with the recording msProbe stand-in writing msProbe's folder layouts
(8.x single process, 26.x single process, torch.distributed), then
`msprobe-lsp check-dump` reads what they wrote.

    run_check_dump.py MSPROBE_LSP [--python /usr/bin/python3]

Each case states the run (script, config, stand-in version) and what
check-dump must say about it: exit code, causes, layout, and the tensor-volume
estimate, which is compared with an independent sum over the dump.json files
the run wrote. Exit 0 when every case passes.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUB = HERE / "stub"
RUN_TIMEOUT_S = 300
ELEMENT_SIZE = {"torch.float32": 4, "torch.float64": 8, "torch.float16": 2, "torch.bfloat16": 2,
                "torch.int64": 8, "torch.int32": 4, "torch.bool": 1, "torch.uint8": 1, "torch.int8": 1}


def tensor_bytes(value):
    """numel x element size of every {dtype, shape} object under `value`."""
    if isinstance(value, list):
        return sum(tensor_bytes(v) for v in value)
    if not isinstance(value, dict):
        return 0
    if "dtype" in value and isinstance(value.get("shape"), list):
        numel = 1
        for d in value["shape"]:
            numel *= d
        return numel * ELEMENT_SIZE[value["dtype"]]
    return sum(tensor_bytes(v) for v in value.values())


def expected_per_step(dump_path):
    """step -> bytes over the rank folders, from the dump.json files themselves."""
    out = {}
    for step_dir in sorted(Path(dump_path).glob("step*")):
        total = 0
        for dump_json in step_dir.glob("*/dump.json"):
            total += tensor_bytes(json.loads(dump_json.read_text(encoding="utf-8"))["data"])
        if total:
            out[step_dir.name[4:]] = total
    return out


class Runner:
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

    def prepare(self, work, script, config):
        """Copies the script into `work` (instrumenting the plain ones) and writes its config."""
        target = work / "train.py"
        shutil.copy(script, target)
        if "PrecisionDebugger" not in target.read_text(encoding="utf-8"):
            subprocess.run([self.binary, "enable", str(target), "--write"], check=True, capture_output=True, text=True)
        (work / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        return target

    def run_script(self, work, version):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MSPROBE_STUB"))}
        env.update({"PYTHONPATH": str(STUB), "PYTHONDONTWRITEBYTECODE": "1", "MSPROBE_STUB_VERSION": version})
        return subprocess.run([self.python, "train.py"], cwd=work, env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_S)

    def check_dump(self, work, *args):
        p = subprocess.run([self.binary, "check-dump", *args, "--format", "json", str(work / "config.json")],
                           capture_output=True, text=True, timeout=60)
        report = json.loads(p.stdout) if p.stdout.strip() else {}
        text = subprocess.run([self.binary, "check-dump", *args, str(work / "config.json")], capture_output=True,
                              text=True, timeout=60).stdout
        return p.returncode, report, text


def causes(report):
    return "\n".join(report.get("causes", []))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--python", default="/usr/bin/python3")
    args = parser.parse_args()
    r = Runner(os.path.abspath(args.binary), args.python)
    plain = HERE / "scripts" / "plain_for.py"
    base = {"task": "statistics", "dump_path": "./dump", "rank": [], "step": [0, 1], "level": "L1"}
    root = Path(tempfile.mkdtemp(prefix="msprobe-behaviour-dump-"))
    try:
        # One run per layout; check-dump with no version, the matching one and the other one.
        layouts = [("26.x single process", plain, "26.0.0", "proc", "by msProbe 26.x"),
                   ("8.x single process", plain, "8.3.3", "rank", "by msProbe 8.x"),
                   ("torch.distributed", HERE / "dump_scripts" / "distributed_one_rank.py", "26.0.0", "rank0",
                    "torch.distributed run")]
        for name, script, version, folder, words in layouts:
            work = root / folder
            work.mkdir()
            r.prepare(work, script, base)
            p = r.run_script(work, version)
            r.check(f"{name}: the script ran", p.returncode == 0, p.stderr[-2000:])
            folders = sorted(d.name for d in (work / "dump" / "step0").iterdir()) if (work / "dump" / "step0").is_dir() else []
            r.check(f"{name}: msProbe's folder step0/{folder}*", len(folders) == 1 and folders[0].startswith(folder)
                    and (folder != "rank" or folders[0] == "rank"), folders)
            want = expected_per_step(work / "dump")
            for flags in ([], ["--msprobe-version", version], ["--msprobe-version", "8.3.3" if version != "8.3.3" else "26.0.0"]):
                rc, report, text = r.check_dump(work, *flags)
                label = f"{name}: check-dump {' '.join(flags) or '(no version)'}"
                r.check(f"{label} exits 0, dump complete", rc == 0 and report.get("ok") is True, text)
                r.check(f"{label} names the layout", words in report.get("layout", ""), report.get("layout"))
                r.check(f"{label} estimate equals the sum over dump.json", want and report.get("tensor_bytes_per_step") == want,
                        f"{report.get('tensor_bytes_per_step')} vs {want}")
            r.check(f"{name}: the estimate in words", "estimate: a tensor dump of step 0 would write about" in text, text)

        # rank [0] in a single-process script: msProbe writes nothing, not even the dump_path.
        work = root / "rank-filter"
        work.mkdir()
        r.prepare(work, plain, dict(base, rank=[0]))
        p = r.run_script(work, "26.0.0")
        r.check("rank filter: the script ran", p.returncode == 0, p.stderr[-2000:])
        r.check("rank filter: no dump_path was created", not (work / "dump").exists())
        rc, report, text = r.check_dump(work)
        r.check("rank filter: check-dump names the rank filter", rc == 1 and report.get("causes", [""])[0].startswith(
            '"rank": [0] matched no process of the run'), text)

        # start() before a guard: the skipped iteration is an empty step.
        work = root / "guard"
        work.mkdir()
        r.prepare(work, HERE / "dump_scripts" / "start_before_guard.py", dict(base, step=[]))
        p = r.run_script(work, "8.3.3")
        r.check("guard: the script ran", p.returncode == 0, p.stderr[-2000:])
        rc, report, text = r.check_dump(work)
        r.check("guard: check-dump lists the empty step and its cause",
                rc == 1 and "steps [1] are empty" in causes(report) and "break/continue" in causes(report), text)

        # task tensor on PyTorch 1.13: 8.x writes "data": {} and logs the error; 26.x stops.
        work = root / "tensor-8x"
        work.mkdir()
        r.prepare(work, plain, dict(base, task="tensor"))
        p = r.run_script(work, "8.3.3")
        r.check("tensor on 1.13, 8.x: the script ends normally", p.returncode == 0, p.stderr[-2000:])
        rc, report, text = r.check_dump(work)
        r.check("tensor on 1.13, 8.x: check-dump shows the logged error and the PyTorch cause",
                rc == 1 and any("untyped_storage" in line for e in report.get("errors", []) for line in e["lines"])
                and "PyTorch < 2.0" in causes(report) and "errors from" in text, text)
        lint = subprocess.run([r.binary, "check", "--torch-version", "1.13.1", str(work / "config.json")],
                              capture_output=True, text=True, timeout=60)
        r.check("tensor on 1.13: `check` predicted it (MSP309)", lint.returncode == 1 and "MSP309 error" in lint.stdout,
                lint.stdout)
        work = root / "tensor-26"
        work.mkdir()
        r.prepare(work, plain, dict(base, task="tensor"))
        p = r.run_script(work, "26.0.0")
        r.check("tensor on 1.13, 26.x: the script stops with AttributeError",
                p.returncode != 0 and "AttributeError" in p.stderr and "untyped_storage" in p.stderr, p.stderr[-2000:])

        # A dump_path with a space: the debugger is built, the run fails when the dump starts.
        work = root / "space"
        work.mkdir()
        r.prepare(work, plain, dict(base, dump_path="./my dump"))
        p = r.run_script(work, "26.0.0")
        r.check("dump_path with a space: the run fails at the first start()",
                p.returncode != 0 and "contains special characters" in p.stderr and "debugger.start" in p.stderr,
                p.stderr[-2000:])
        lint = subprocess.run([r.binary, "check", str(work / "config.json")], capture_output=True, text=True, timeout=60)
        r.check("dump_path with a space: `check` says it fails when the dump starts",
                "MSP303 error" in lint.stdout and "the run fails when the dump starts" in lint.stdout, lint.stdout)
    finally:
        if r.failures:
            print(f"work files kept in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"{r.passed} passed, {len(r.failures)} failed")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
