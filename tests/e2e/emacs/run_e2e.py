#!/usr/bin/env python3
"""Emacs (eglot) end-to-end test: a real `emacs --batch -Q` (Debian bookworm's 28.2 with
elpa-eglot 1.9) evaluates the README's "Emacs (eglot)" snippet exactly as written, opens a
training script in python-mode, lets eglot start "msprobe-lsp --stdio" from PATH, and reports
flymake diagnostics, a hover and the generateConfig dialogue, answered through eglot's own
completing-read with lines typed on stdin (scenario in e2e.el); this script checks the result.
Usage: run_e2e.py MSPROBE_LSP_BINARY"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.normpath(os.path.join(HERE, "..", "..", "..", "README.md"))
ELPA = "/usr/share/emacs/site-lisp/elpa"

if len(sys.argv) != 2:
    print(__doc__)
    sys.exit(2)
binary = os.path.abspath(sys.argv[1])
if not os.access(binary, os.X_OK):
    print(f"FAILED: server binary {binary} is not an executable file")
    sys.exit(1)
emacs = shutil.which("emacs")
has_eglot = os.path.isdir(ELPA) and any(d.startswith("eglot-") for d in os.listdir(ELPA))
if not emacs or not has_eglot:
    missing = " and ".join(n for n, ok in (("emacs", emacs), (f"eglot under {ELPA}", has_eglot)) if not ok)
    print(f"FAILED: {missing} not found: install Debian's packages with "
          "`apt-get install -y --no-install-recommends emacs-nox elpa-eglot` (scripts/setup.sh installs them)")
    sys.exit(1)


def readme_snippet():
    """The ```elisp block under the README's "### Emacs (eglot)" heading, verbatim."""
    text = open(README, encoding="utf-8").read()
    m = re.search(r"^### Emacs \(eglot\)[ \t]*\n(.*?)(?=^#{1,3} )", text + "\n# end", re.S | re.M)
    if not m:
        return None
    block = re.search(r"^```elisp[ \t]*\n(.*?)^```[ \t]*$", m.group(1), re.S | re.M)
    return block.group(1) if block else None


snippet = readme_snippet()
if not snippet:
    print(f"FAILED: no ```elisp block under '### Emacs (eglot)' in {README}")
    sys.exit(1)

work = tempfile.mkdtemp(prefix="msprobe-emacs-e2e-")
bindir = os.path.join(work, "bin")
os.mkdir(bindir)
os.symlink(binary, os.path.join(bindir, "msprobe-lsp"))  # the README's command name, found on PATH
project = os.path.join(work, "project")
os.mkdir(project)
script = os.path.join(project, "train.py")
shutil.copy(os.path.join(HERE, "train_fixture.py"), script)
src_lines = open(script, encoding="utf-8").read().splitlines()
line_no = next(i for i, l in enumerate(src_lines, 1) if "model = torch.compile(model)" in l)
col_no = src_lines[line_no - 1].index("torch.compile(") + 1  # 1-based character column
# An existing config whose previous run left a dump: the dialogue's task question then says how
# much a tensor dump would write (64 x 1024 float32 in and out: 524.3 KB).
with open(os.path.join(project, "config.json"), "w", encoding="utf-8") as f:
    json.dump({"task": "statistics", "dump_path": "./dump", "rank": [], "step": [0], "level": "L0"}, f)
rank_dir = os.path.join(project, "dump", "step0", "rank")
os.makedirs(rank_dir)
tensor = {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [64, 1024]}
with open(os.path.join(rank_dir, "dump.json"), "w", encoding="utf-8") as f:
    json.dump({"task": "statistics", "data": {"Functional.linear.0.forward": {"input_args": [tensor], "output": [tensor]}}}, f)
for name in ("stack.json", "construct.json"):
    with open(os.path.join(rank_dir, name), "w", encoding="utf-8") as f:
        f.write("{}")
# What the user types at each completing-read / y-or-n-p of the dialogue, in order: the five
# questions, "Write config.json", "Replace" (eglot has no change annotations), and eglot's own
# confirmation of the server's edit.
answers = ["tensor", "L1 (recommended)", "[] (recommended)", "[0]", "./dump_path", "Write config.json", "Replace", "y"]
snippet_file = os.path.join(work, "readme-snippet.el")
with open(snippet_file, "w", encoding="utf-8") as f:
    f.write(snippet)
out = os.path.join(work, "result.txt")
events = os.path.join(work, "eglot-events.log")
env = dict(os.environ, HOME=work, PATH=bindir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
           E2E_SNIPPET=snippet_file, E2E_FILE=script, E2E_LINE=str(line_no), E2E_COL=str(col_no),
           E2E_OUT=out, E2E_EVENTS=events, E2E_ELPA=ELPA)
for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "EMACSLOADPATH"):
    env.pop(var, None)
try:
    proc = subprocess.run([emacs, "--batch", "-Q", "-l", os.path.join(HERE, "e2e.el")],
                          cwd=project, env=env, capture_output=True, text=True, timeout=280,  # ctest allows 300
                          input="\n".join(answers) + "\n")
    rc, stderr = proc.returncode, proc.stderr
except subprocess.TimeoutExpired as e:
    rc, stderr = "timeout", (e.stderr or b"").decode("utf-8", "replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
lines = open(out, encoding="utf-8").read().splitlines() if os.path.exists(out) else []
print("\n".join("  emacs: " + l for l in lines))
checks = []


def check(name, ok, detail=""):
    checks.append((name, ok, detail))


diags = [l for l in lines if l.startswith("DIAG ")]
check("emacs ran the scenario to the end", "DONE" in lines and not any(l.startswith("FAIL") for l in lines),
      "\n".join(lines) + "\n" + stderr[-2000:])
check("python-mode is the buffer's major mode", "MODE python-mode" in lines, lines)
check("eglot started `msprobe-lsp --stdio` from the README snippet", 'COMMAND ("msprobe-lsp" "--stdio")' in lines, lines)
check("eglot-current-server is live while diagnostics are shown", "LIVE yes" in lines, lines)
check(f"MSP101 diagnostic at {line_no}:{col_no} (Emacs character column)",
      any(l.startswith(f"DIAG {line_no}:{col_no} ") and "MSP101" in l for l in diags), diags)
check("hover on torch.compile mentions MSP101", any(l.startswith("HOVER MSP101") for l in lines), lines)
# Emacs 28's jsonrpc.el kills the server right after sending `exit` (EXIT shows signal 9),
# so the check is that the server answered eglot-shutdown's `shutdown` request in time.
check("generateConfig's dialogue ran in eglot (no window capabilities) and wrote the config",
      "DIALOGUE written=true" in lines and "CONFIG-SAVED" in lines, lines)
try:
    written = json.load(open(os.path.join(project, "config.json"), encoding="utf-8"))
except (OSError, ValueError) as e:
    written = {"error": str(e)}
check("config.json has the answers typed in the dialogue", written.get("task") == "tensor" and written.get("level") == "L1"
      and written.get("step") == [0] and written.get("dump_path") == "./dump_path" and "tensor" in written, written)
events_text = open(events, encoding="utf-8", errors="replace").read() if os.path.exists(events) else ""
check("the task question carried the tensor estimate of the previous dump",
      "a tensor dump of step 0 would write about 524.3 KB in the single process" in events_text
      and "(1/5) task" in events_text, events_text[-1500:])
check("server answered eglot-shutdown's shutdown request", "SHUTDOWN answered" in lines, lines)
check("emacs exited with code 0", rc == 0, f"exit code {rc}\n{stderr[-2000:]}")

failed = [c for c in checks if not c[1]]
for name, ok, detail in checks:
    print(("ok     " if ok else "FAILED ") + name + ("" if ok else f"\n       {str(detail)[:1500]}"))
print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
if failed:
    print(f"  (work files kept in {work})")
else:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
