#!/usr/bin/env python3
"""Neovim end-to-end test: a real headless Neovim (Debian's 0.7.2) drives the
real msprobe-lsp binary through the scenario of e2e.lua, then this script
checks the files on disk. Usage: run_e2e.py MSPROBE_LSP_BINARY"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
binary = os.path.abspath(sys.argv[1])
nvim = shutil.which("nvim")
if not nvim:
    print("FAILED: nvim not found (scripts/setup.sh test installs Debian's neovim)")
    sys.exit(1)

work = tempfile.mkdtemp(prefix="msprobe-nvim-e2e-")
script = os.path.join(work, "train.py")
shutil.copy(os.path.join(HERE, "train_fixture.py"), script)
out = os.path.join(work, "result.txt")
env = dict(os.environ, MSPROBE_LSP=binary, E2E_FILE=script, E2E_OUT=out, HOME=work, XDG_STATE_HOME=work,
           XDG_CACHE_HOME=work, XDG_CONFIG_HOME=work, XDG_DATA_HOME=work)
proc = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile " + os.path.join(HERE, "e2e.lua")],
                      cwd=work, env=env, capture_output=True, text=True, timeout=280)  # ctest allows 300
lines = open(out, encoding="utf-8").read().splitlines() if os.path.exists(out) else []
print("\n".join("  nvim: " + l for l in lines))
checks = []


def check(name, ok, detail=""):
    checks.append((name, ok, detail))


check("neovim ran the scenario to the end", not any(l.startswith("FAIL") for l in lines) and any(l.startswith("EXIT") for l in lines),
      proc.stderr[-2000:])
# 1. positions: line 9 is `note = "模型"; model = torch.compile(model)`; columns are 1-based
# byte columns as Neovim reports them, converted from the server's UTF-16 positions.
check("MSP101 at 9:26-9:46 (byte columns as Neovim shows them)", "DIAG MSP101 9:26-9:46" in lines, lines)
check("MSP201 on the construction in the loop", any(l.startswith("DIAG MSP201 12:16") for l in lines), lines)
check("hover shows the rule docs", "HOVER ok" in lines)
check("incremental edit clears MSP101", "INCREMENTAL ok" in lines)
text = open(script, encoding="utf-8").read()
check("enable dump inserted start/stop/step", "debugger.start(" in text and "debugger.stop()" in text and "debugger.step()" in text, text)
body = text.split("for inputs, targets in loader:")[-1]
check("start is the first statement of the loop body", body.lstrip("\n").lstrip().startswith("debugger.start("), body[:200])
check("stop/step after optimizer.step()", body.find("optimizer.step()") < body.find("debugger.stop()") < body.find("debugger.step()"), body)
pyc = subprocess.run(["python3", "-m", "py_compile", script], capture_output=True, text=True)
check("edited file passes py_compile", pyc.returncode == 0, pyc.stderr)
cfg_path = os.path.join(work, "config.json")
cfg = None
if os.path.exists(cfg_path):
    try:
        cfg = json.load(open(cfg_path, encoding="utf-8"))
    except ValueError as e:
        cfg = {"error": str(e)}
check("config.json written with the answers", isinstance(cfg, dict) and cfg.get("task") == "statistics" and cfg.get("level") == "L1"
      and cfg.get("rank") == [] and cfg.get("step") == [0, 1], cfg)
check("server exited with code 0", "EXIT 0" in lines, lines)

# A multi-file project: the action on the loop in mingpt/trainer.py edits the
# trainer and the launched script; both files change on disk exactly as the
# CLI's `enable --write` changes them.
fixture = os.path.join(HERE, "..", "..", "projects", "trainer_module")
project = os.path.join(work, "project")
expected = os.path.join(work, "expected")
for d in (project, expected):
    shutil.copytree(fixture, d, ignore=shutil.ignore_patterns("project.json", "enable.diff", "__pycache__"))
cli = subprocess.run([binary, "enable", os.path.join(expected, "mingpt", "trainer.py"), "--project", expected, "--write"],
                     capture_output=True, text=True)
check("the CLI enables the fixture project", cli.returncode == 0, cli.stderr)
out2 = os.path.join(work, "project-result.txt")
env2 = dict(env, E2E_ROOT=project, E2E_OUT=out2)
proc2 = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c",
                        "luafile " + os.path.join(HERE, "e2e_project.lua")],
                       cwd=project, env=env2, capture_output=True, text=True, timeout=280)
lines2 = open(out2, encoding="utf-8").read().splitlines() if os.path.exists(out2) else []
print("\n".join("  nvim (project): " + l for l in lines2))
check("project: neovim ran the scenario to the end", not any(l.startswith("FAIL") for l in lines2) and "WRITTEN" in lines2,
      proc2.stderr[-2000:])
check("project: the action's edit spans two files", "EDIT FILES 2" in lines2, lines2)
for rel in ("mingpt/trainer.py", "projects/chargpt/chargpt.py"):
    got = open(os.path.join(project, rel), encoding="utf-8").read()
    want = open(os.path.join(expected, rel), encoding="utf-8").read()
    check(f"project: {rel} on disk is what enable gives", got == want and "PrecisionDebugger" in got, got[:600])
    pyc = subprocess.run(["python3", "-m", "py_compile", os.path.join(project, rel)], capture_output=True, text=True)
    check(f"project: {rel} passes py_compile", pyc.returncode == 0, pyc.stderr)
check("project: server exited with code 0", "EXIT 0" in lines2, lines2)

failed = [c for c in checks if not c[1]]
for name, ok, detail in checks:
    print(("ok     " if ok else "FAILED ") + name + ("" if ok else f"\n       {str(detail)[:1500]}"))
print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
if not failed:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
