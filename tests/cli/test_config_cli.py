#!/usr/bin/env python3
"""CLI tests for `config`, `check-dump` and `schema` against the real binary."""
import json
import os
import stat
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
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


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as d:
    # config: stdout, defaults, values
    rc, out, err = run("config", "--dump-path", "/data/dump", "--step", "0,1", "--rank", "0,4-6", "--level", "mix")
    check("config prints JSON", rc == 0, f"rc={rc} {err}")
    cfg = json.loads(out) if rc == 0 else {}
    check("config values", cfg.get("level") == "mix" and cfg.get("step") == [0, 1] and cfg.get("rank") == [0, "4-6"]
          and cfg.get("async_dump") is False and cfg.get("extra_info") is True and "statistics" in cfg, out)
    rc, out, err = run("config", "--dump-path", "/d", "--task", "structure")
    check("structure defaults to mix, has no block", rc == 0 and json.loads(out)["level"] == "mix"
          and "structure" not in json.loads(out), out + err)
    rc, out, err = run("config", "--dump-path", "/d", "--msprobe-version", "8.3.3", "--task", "overflow_check")
    check("8.x config", rc == 0 and "extra_info" not in json.loads(out) and "overflow_check" in json.loads(out), out + err)
    rc, out, err = run("config", "--dump-path", "./dump_path")
    check("relative path note", rc == 0 and "note: relative dump_path" in err, err)

    # config: errors
    rc, out, err = run("config", "--step", "0")
    check("--dump-path required", rc == 2 and "--dump-path is required" in err and out == "", err)
    rc, out, err = run("config", "--dump-path", "/d", "--level", "L7", "--rank", "5-3")
    check("invalid values", rc == 2 and "is not a valid level" in err and "left boundary (5)" in err, err)
    rc, out, err = run("config", "--dump-path", "/d", "--task", "overflow_check")
    check("8.x task on 26.x", rc == 2 and "does not exist in msProbe 26.x" in err, err)
    rc, out, err = run("config", "--dump-path", "/d", "--levle", "L1")
    check("unknown option", rc == 2 and "unknown option --levle" in err, err)

    # config --output: atomic, no overwrite without --force, mode kept
    target = os.path.join(d, "cfg", "config.json")
    os.makedirs(os.path.dirname(target))
    rc, out, err = run("config", "--dump-path", "/d", "--output", target)
    check("--output writes", rc == 0 and os.path.exists(target) and out == "" and "wrote" in err, err)
    os.chmod(target, 0o640)
    rc, out, err = run("config", "--dump-path", "/other", "--output", target)
    check("no overwrite without --force", rc == 1 and "already exists" in err and "/other" not in open(target).read(), err)
    rc, out, err = run("config", "--dump-path", "/other", "--output", target, "--force")
    check("--force replaces", rc == 0 and "/other" in open(target).read(), err)
    check("mode kept", stat.S_IMODE(os.stat(target).st_mode) == 0o640, oct(os.stat(target).st_mode))
    check("no temp files left", os.listdir(os.path.dirname(target)) == ["config.json"], os.listdir(os.path.dirname(target)))
    rc, out, err = run("config", "--dump-path", "/d", "--output", os.path.join(d, "nodir", "c.json"))
    check("unwritable target", rc == 2 and not os.path.exists(os.path.join(d, "nodir")), err)

    # the generated file is clean for `check`-style validation through the schema
    rc, out, err = run("schema")
    schema = json.loads(out) if rc == 0 else {}
    check("schema is draft-07", schema.get("$schema") == "http://json-schema.org/draft-07/schema#", out[:200])
    check("schema lists fields", {"task", "level", "dump_path", "rank", "step", "extra_info"} <= set(schema.get("properties", {})), "")
    rc, out8, err = run("schema", "--msprobe-version", "8.3.3")
    check("8.x schema", rc == 0 and "extra_info" not in json.loads(out8)["properties"]
          and "enable_dataloader" in json.loads(out8)["properties"], "")
    rc, out, err = run("schema", "extra")
    check("schema usage", rc == 2 and "usage" in err, err)
    try:
        import jsonschema  # optional: validate generated configs against the schema
        jsonschema.validate(json.load(open(target)), schema)
        bad = {"task": "statistics", "dump_path": "/d", "level": "L2"}
        try:
            jsonschema.validate(bad, schema)
            check("schema rejects L2 without tensor", False, "accepted")
        except jsonschema.ValidationError:
            check("schema rejects L2 without tensor", True)
    except ImportError:
        pass

    # check-dump
    run_dir = os.path.join(d, "run")
    write(os.path.join(run_dir, "config.json"), json.dumps({"task": "statistics", "dump_path": "./dump", "step": [0, 1]}))
    for step in (0, 1):
        base = os.path.join(run_dir, "dump", f"step{step}", "rank0")
        write(os.path.join(base, "dump.json"), json.dumps({"task": "statistics", "data": {"Tensor.add.0.forward": {}}}))
        write(os.path.join(base, "stack.json"), "{}")
        write(os.path.join(base, "construct.json"), "{}")
    rc, out, err = run("check-dump", os.path.join(run_dir, "config.json"))
    check("check-dump complete", rc == 0 and "result: the dump looks complete" in out and "step1/rank0: dump.json" in out,
          out + err)
    os.remove(os.path.join(run_dir, "dump", "step1", "rank0", "dump.json"))
    rc, out, err = run("check-dump", "--format", "json", os.path.join(run_dir, "config.json"))
    rep = json.loads(out) if out.strip() else {}
    check("check-dump incomplete", rc == 1 and rep.get("ok") is False
          and "dump.json is missing" in rep["steps"][1]["ranks"][0]["problems"], out)
    rc, out, err = run("check-dump", "config.json", cwd=run_dir)
    check("check-dump relative config", rc == 1 and "dump.json MISSING" in out, out + err)
    write(os.path.join(d, "empty", "config.json"), json.dumps({"dump_path": "./nowhere"}))
    rc, out, err = run("check-dump", os.path.join(d, "empty", "config.json"))
    check("check-dump nothing dumped", rc == 1 and "nothing was written" in out, out)
    # The three layouts: 8.x single process (step0/rank), 26.x single process (step0/proc<pid>), torch.distributed.
    tensor = {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1024, 1024]}
    dump_json = json.dumps({"task": "statistics", "data": {"Functional.linear.0.forward": {"input_args": [tensor],
                                                                                          "output": [tensor]}}})
    for folders in (["rank"], ["proc4242"], ["rank0", "rank1"]):
        lay = os.path.join(d, "layout-" + folders[0])
        write(os.path.join(lay, "config.json"), json.dumps({"dump_path": "./dump", "step": [0]}))
        for folder in folders:
            for name, text in (("dump.json", dump_json), ("stack.json", "{}"), ("construct.json", "{}")):
                write(os.path.join(lay, "dump", "step0", folder, name), text)
        for version in ([], ["--msprobe-version", "8.3.3"], ["--msprobe-version", "26.0.0"]):
            rc, out, err = run("check-dump", *version, "--format", "json", os.path.join(lay, "config.json"))
            rep = json.loads(out) if out.strip() else {}
            want = 8 * 1024 * 1024 * len(folders)
            check(f"check-dump {folders} {version}", rc == 0 and rep.get("ok") is True
                  and rep.get("tensor_bytes_per_step") == {"0": want}, out + err)
        rc, out, err = run("check-dump", os.path.join(lay, "config.json"))
        where = "on rank 0" if folders[0] == "rank0" else ("in process 4242" if folders[0] == "proc4242"
                                                            else "in the single process")
        check(f"check-dump {folders} text estimate", rc == 0 and "a tensor dump of step 0 would write about" in out
              and where in out, out)
    rc, out, err = run("check-dump", os.path.join(d, "missing.json"))
    check("check-dump unreadable config", rc == 2 and "cannot open" in err, err)
    rc, out, err = run("check-dump")
    check("check-dump usage", rc == 2 and "usage" in err, err)

    # `check` resolves config_path from disk and validates config files named on the command line
    proj = os.path.join(d, "proj")
    write(os.path.join(proj, "train.py"), "from msprobe.pytorch import PrecisionDebugger\n"
          "d = PrecisionDebugger(config_path='./config.json')\nd.start()\n")
    rc, out, err = run("check", os.path.join(proj, "train.py"))
    check("check: MSP306 for a missing config", rc == 1 and "train.py:2:35: MSP306 error: config file" in out, out + err)
    write(os.path.join(proj, "config.json"), '{"task": "statistics", "dump_path": "/d", "level": "mix", "levle": 1}')
    rc, out, err = run("check", os.path.join(proj, "train.py"), os.path.join(proj, "config.json"))
    check("check: MSP205 through the config on disk", "train.py:3:1: MSP205 error" in out and "MSP306" not in out, out)
    check("check: config.json findings", 'config.json:1:59: MSP305 warning: unknown key "levle"' in out, out)

rc, out, err = run("--help")
check("--help lists the config commands", "msprobe-lsp config" in out and "check-dump" in out and "schema" in out, out)

for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
