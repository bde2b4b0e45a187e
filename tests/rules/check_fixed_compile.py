#!/usr/bin/env python3
"""Every rule fixture and every `*.fixed.py` (the expected result of applying
the fixes) must be valid Python: compile each with py_compile."""
import pathlib
import py_compile
import sys
import tempfile

root = pathlib.Path(sys.argv[1])
failures = []
files = sorted(root.rglob("*.py"))
with tempfile.TemporaryDirectory() as out:
    for i, path in enumerate(files):
        try:
            py_compile.compile(str(path), cfile=f"{out}/{i}.pyc", doraise=True)
        except py_compile.PyCompileError as e:
            failures.append(f"{path}: {e.msg}")
for f in failures:
    print("FAIL:", f)
fixed = sum(1 for f in files if f.name.endswith(".fixed.py"))
print(f"{len(files)} files ({fixed} fixed), {len(failures)} failures")
sys.exit(1 if failures or not fixed else 0)
