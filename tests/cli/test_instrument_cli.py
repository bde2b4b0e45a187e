#!/usr/bin/env python3
"""CLI tests for `enable | disable | remove | vllm-ascend-flags` against the real binary:
stdout, --diff (applied back with `git apply`), --write (atomic, mode and symlink kept),
refusals and usage errors that leave the file untouched."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
FIX = os.path.join(ROOT, "tests", "actions", "fixtures", "enable")
failures = []
passed = 0


def run(*args, cwd=None):
    p = subprocess.run([BIN, *args], capture_output=True, cwd=cwd, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check(name, cond, detail=""):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(f"{name}: {str(detail)[:800]}")


def read(p):
    with open(p, "rb") as f:
        return f.read()


with tempfile.TemporaryDirectory() as d:
    # stdout is the edited file; the file itself is untouched.
    for name in ("plain_for", "crlf", "no_final_newline", "non_ascii", "tabs"):
        src = os.path.join(d, name + ".py")
        shutil.copy(os.path.join(FIX, name + ".py"), src)
        rc, out, err = run("enable", src)
        check(f"enable {name} prints the expected file", rc == 0 and out == read(os.path.join(FIX, name + ".expected.py")),
              err)
        check(f"enable {name} leaves the file alone", read(src) == read(os.path.join(FIX, name + ".py")))

        # --diff applies back with git apply (CRLF, missing final newline, UTF-8 included).
        rc, diff, err = run("enable", name + ".py", "--diff", cwd=d)
        check(f"--diff {name} exit 0", rc == 0, err)
        check(f"--diff {name} has hunks", diff.startswith(b"--- a/") and b"\n@@ -" in diff, diff[:200])
        patch = os.path.join(d, name + ".patch")
        with open(patch, "wb") as f:
            f.write(diff)
        g = subprocess.run(["git", "apply", "--unidiff-zero", "--whitespace=nowarn", patch], cwd=d, capture_output=True,
                           text=True)
        check(f"--diff {name} applies with git apply", g.returncode == 0, g.stderr)
        check(f"--diff {name} gives the enabled file", read(src) == read(os.path.join(FIX, name + ".expected.py")))
        shutil.copy(os.path.join(FIX, name + ".py"), src)

    # --write: atomic replacement that keeps the mode, through a symlink too.
    src = os.path.join(d, "train.py")
    shutil.copy(os.path.join(FIX, "plain_for.py"), src)
    os.chmod(src, 0o640)
    link = os.path.join(d, "link.py")
    os.symlink("train.py", link)
    rc, out, err = run("enable", link, "--write")
    check("--write exit 0", rc == 0, err)
    check("--write prints nothing on stdout", out == b"", out)
    check("--write summary on stderr", "enable the msProbe dump in the train loop at line 12" in err, err)
    check("--write content", read(src) == read(os.path.join(FIX, "plain_for.expected.py")))
    check("--write keeps the mode", stat.S_IMODE(os.stat(src).st_mode) == 0o640, oct(os.stat(src).st_mode))
    check("--write keeps the symlink", os.path.islink(link))
    check("--write leaves no temporary file", not [n for n in os.listdir(d) if ".msprobe-" in n], os.listdir(d))
    enabled = read(src)
    rc, out, err = run("enable", src, "--write")
    check("second enable changes nothing", rc == 0 and read(src) == enabled and "unchanged" in err, err)
    rc, out, err = run("disable", src, "--write")
    check("disable --write comments the dump out", rc == 0 and b"# msprobe-disabled: debugger.start(model)" in read(src), err)
    rc, out, err = run("enable", src, "--write")
    check("enable on a disabled file uncomments exactly", rc == 0 and read(src) == enabled, err)
    rc, out, err = run("remove", src, "--write")
    check("remove --write gives the original back", rc == 0 and read(src) == read(os.path.join(FIX, "plain_for.py")), err)

    # Options.
    shutil.copy(os.path.join(FIX, "loop_arg.py"), src)
    rc, out, err = run("enable", src, "--loop", "14", "--config", "/data/my config.json")
    check("--loop picks the eval loop", rc == 0 and b"            debugger.start(model)" in out, out)
    check("--config goes into the construction", b'PrecisionDebugger(config_path="/data/my config.json")' in out, out)
    with open(os.path.join(d, "msprobe_cfg.json"), "w") as f:
        f.write('{"task": "statistics", "dump_path": "./dump"}')
    rc, out, err = run("enable", src)
    check("a config next to the script is used", b'config_path="./msprobe_cfg.json"' in out, out)

    # Refusals and usage errors leave the file untouched.
    before = read(src)
    for args, code, what in ((["enable", src, "--loop", "3"], 1, "no training or inference loop starts at line 3"),
                             (["enable", src, "--loop", "x"], 2, "--loop needs a line number"),
                             (["enable", src, "--diff", "--write"], 2, "exclude each other"),
                             (["disable", src, "--loop", "5"], 2, "options of enable"),
                             (["enable"], 2, "a FILE is needed"),
                             (["enable", os.path.join(d, "missing.py"), "--write"], 2, "cannot open")):
        rc, out, err = run(*args)
        check(f"{' '.join(args[:1] + args[2:])}: exit {code}", rc == code, f"rc={rc} {err}")
        check(f"{' '.join(args[:1] + args[2:])}: message", what in err, err)
        check(f"{' '.join(args[:1] + args[2:])}: file untouched", read(src) == before)
    ms = os.path.join(d, "ms.py")
    shutil.copy(os.path.join(FIX, "mindspore_refused.py"), ms)
    rc, out, err = run("enable", ms, "--write")
    check("MindSpore refused with exit 1", rc == 1 and "msprobe.mindspore" in err, err)
    check("refused file untouched", read(ms) == read(os.path.join(FIX, "mindspore_refused.py")))

    # vLLM: the runner gets instrumented with a note; vllm-ascend gets flags.
    runner = os.path.join(d, "gpu_model_runner.py")
    shutil.copy(os.path.join(FIX, "vllm_runner.py"), runner)
    rc, out, err = run("enable", runner)
    check("runner instrumented", rc == 0 and b"self.debugger.start(model=self.model)" in out and b"finally:" in out, err)
    check("runner note about --enforce-eager", "--enforce-eager" in err, err)
    rc, out, err = run("vllm-ascend-flags", "cfg.json", cwd=d)
    expected_flags = "--additional-config '{\"dump_config_path\": \"%s\"}'\n" % os.path.join(d, "cfg.json")
    check("vllm-ascend flags for a config not written yet: printed, with a warning and exit 1",
          rc == 1 and out.decode() == expected_flags and "does not exist" in err, (rc, out, err))
    with open(os.path.join(d, "cfg.json"), "w") as f:
        f.write('{"task": "statistics", "dump_path": "/tmp/d", "level": "L1"}\n')
    rc, out, err = run("vllm-ascend-flags", "cfg.json", cwd=d)
    check("vllm-ascend flags", rc == 0 and out.decode() == expected_flags and not err, (rc, out, err))

print(f"{passed} passed, {len(failures)} failed")
for f in failures:
    print("FAILED " + f)
sys.exit(1 if failures else 0)
