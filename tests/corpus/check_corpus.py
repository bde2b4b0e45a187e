#!/usr/bin/env python3
"""Lint the script corpus: every script compiles, has 30-150 lines and a
hand-written ``<name>.expect.json`` whose line numbers are consistent with the
script's syntax tree.

This checks the truth files; it never writes them. Run with any Python >= 3.8:

    python3 tests/corpus/check_corpus.py            # all scripts
    python3 tests/corpus/check_corpus.py for_basic  # some scripts
"""
import ast
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"

ROLES = {"train", "eval", "inference", "warmup"}
FORMS = {"call", "decorator", "dynamo", "module-compile", "jit"}
SCENARIOS = {"pytorch-eager", "mindspore", "msadapter", "torchair", "aclgraph", "verl",
             "vllm-runner", "vllm-offline", "monitor"}
KINDS = {"import", "seed_all", "construct", "start", "stop", "step"}
TOP_KEYS = {"scenarios", "loops", "dynamo", "msprobe", "plan", "notes", "runner"}
LOOP_KEYS = {"line", "role", "function", "model", "forward_lines", "backward_lines", "step_lines",
             "body_first_line", "body_last_line", "epoch_loop_line"}
PLAN_KEYS = {"loop_line", "import_after_line", "start_before_line", "stop_step_after_line"}
PLAN_OPTIONAL = {"construct_after_line", "start_models"}
# text a line must contain for each msprobe kind
KIND_TEXT = {
    "import": ("msprobe",),
    "seed_all": ("seed_all(",),
    "construct": ("PrecisionDebugger(",),
    "start": (".start(",),
    "stop": (".stop(", ".forward_backward_dump_end("),
    "step": (".step(",),
}
FORM_TEXT = {
    "call": ("compile(",),
    "decorator": ("@torch.compile",),
    "dynamo": ("dynamo",),
    "module-compile": (".compile(",),
    "jit": ("torch.jit.",),
}


class Loops(ast.NodeVisitor):
    """Collect every for/while loop with its enclosing def and enclosing loop."""

    def __init__(self):
        self.loops = {}
        self.funcs = []
        self.outer = []

    def _func(self, node):
        self.funcs.append(node.name)
        saved, self.outer = self.outer, []
        self.generic_visit(node)
        self.outer = saved
        self.funcs.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _func

    def _loop(self, node):
        self.loops[node.lineno] = {
            "node": node,
            "function": self.funcs[-1] if self.funcs else None,
            "parent": self.outer[-1] if self.outer else None,
        }
        self.outer.append(node.lineno)
        self.generic_visit(node)
        self.outer.pop()

    visit_For = visit_While = visit_AsyncFor = _loop


SETUP_PREFIXES = ("sys.", "os.environ", "os.putenv", "warnings.", "logging.basicConfig", "site.", "matplotlib.use")


def dotted(node):
    """`a.b.c` for a Name/Attribute chain (subscripts keep their value's name), else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    if isinstance(node, ast.Subscript):
        return dotted(node.value)
    return ""


def is_setup(stmt):
    """sys.path / os.environ / warnings set-up between imports."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return dotted(stmt.value.func).startswith(SETUP_PREFIXES)
    if isinstance(stmt, (ast.Assign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for t in targets:
            name = dotted(t)
            if name.startswith(("os.environ", "sys.")) or (name.startswith("__") and name.endswith("__")):
                return True
    return False


def last_import_line(tree):
    """Last line of the import header: top-level imports, try/if/with blocks that import
    (they count whole), with the docstring and set-up between them; the header ends
    at the first other statement."""
    last = None
    for i, stmt in enumerate(tree.body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(getattr(stmt, "value", None), ast.Constant) \
                and isinstance(stmt.value.value, str):
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last = stmt.end_lineno
        elif isinstance(stmt, (ast.Try, ast.If, ast.With)) and any(
                isinstance(s, (ast.Import, ast.ImportFrom)) for s in ast.walk(stmt)):
            last = stmt.end_lineno
        elif not is_setup(stmt):
            break
    return last


def first_after_guards(loop):
    """First line of the loop body after its leading guards: `if` statements that only
    leave the iteration (break/continue/return/raise, plus plain expression statements)."""
    exits = (ast.Break, ast.Continue, ast.Return, ast.Raise)
    body = loop.body
    k = 0
    while k < len(body) - 1 and isinstance(body[k], ast.If):
        inner = [s for s in ast.walk(body[k]) if isinstance(s, ast.stmt) and s is not body[k]]
        if not inner or not all(isinstance(s, exits + (ast.Expr, ast.Assign, ast.AugAssign)) for s in inner) \
                or not any(isinstance(s, exits) for s in inner):
            break
        k += 1
    return body[k].lineno


def check(name):
    errors = []
    err = errors.append
    py = SCRIPTS / f"{name}.py"
    exp_path = SCRIPTS / f"{name}.expect.json"
    if not exp_path.exists():
        return [f"missing {exp_path.name}"]
    source = py.read_text(encoding="utf-8")
    try:
        compile(source, str(py), "exec", dont_inherit=True)  # what py_compile checks
    except SyntaxError as exc:
        return [f"does not compile: {exc}"]
    lines = source.splitlines()
    if not 30 <= len(lines) <= 150:
        err(f"{len(lines)} lines, want 30-150")
    tree = ast.parse(source)
    visitor = Loops()
    visitor.visit(tree)
    exp = json.loads(exp_path.read_text(encoding="utf-8"))

    def text(n):
        return lines[n - 1] if isinstance(n, int) and 1 <= n <= len(lines) else None

    extra = set(exp) - TOP_KEYS
    if extra:
        err(f"unknown top-level keys {sorted(extra)}")
    for key in ("scenarios", "loops", "dynamo", "msprobe", "notes"):
        if key not in exp:
            err(f"missing key {key}")
    if not set(exp.get("scenarios", [])) <= SCENARIOS or not exp.get("scenarios"):
        err(f"bad scenarios {exp.get('scenarios')}")

    loops_by_line = {}
    for loop in exp.get("loops", []):
        where = f"loop {loop.get('line')}"
        if set(loop) != LOOP_KEYS:
            err(f"{where}: keys {sorted(set(loop) ^ LOOP_KEYS)} differ")
            continue
        loops_by_line[loop["line"]] = loop
        if loop["role"] not in ROLES:
            err(f"{where}: bad role {loop['role']}")
        info = visitor.loops.get(loop["line"])
        if info is None:
            err(f"{where}: no for/while statement starts on that line")
            continue
        node = info["node"]
        if loop["function"] != info["function"]:
            err(f"{where}: function {loop['function']!r}, tree says {info['function']!r}")
        if loop["body_first_line"] != node.body[0].lineno:
            err(f"{where}: body_first_line {loop['body_first_line']}, tree says {node.body[0].lineno}")
        if loop["body_last_line"] != node.body[-1].end_lineno:
            err(f"{where}: body_last_line {loop['body_last_line']}, tree says {node.body[-1].end_lineno}")
        if loop["epoch_loop_line"] is not None and loop["epoch_loop_line"] != info["parent"]:
            err(f"{where}: epoch_loop_line {loop['epoch_loop_line']}, enclosing loop is {info['parent']}")
        lo, hi = loop["body_first_line"], loop["body_last_line"]
        for key in ("forward_lines", "backward_lines", "step_lines"):
            for n in loop[key]:
                if not lo <= n <= hi:
                    err(f"{where}: {key} {n} outside body {lo}-{hi}")
        if loop["model"] is not None:
            for n in loop["forward_lines"]:
                t = text(n) or ""
                if loop["model"] not in t and "(" not in t:
                    err(f"{where}: forward line {n} does not call anything")
        for n in loop["backward_lines"]:
            t = text(n) or ""
            handed = "loss" in t and "optim" in t  # a callable handed the loss and the optimizer
            if "backward" not in t and n not in loop["forward_lines"] and not handed:
                err(f"{where}: backward line {n} has no 'backward' and is not a helper call")
        for n in loop["step_lines"]:
            t = text(n) or ""
            handed = "loss" in t and "optim" in t
            manual = ".grad" in t and any(op in t for op in ("-=", "+=", "add_(", "sub_(", "copy_("))
            if ".step(" not in t and n not in loop["forward_lines"] and not (handed or manual):
                err(f"{where}: step line {n} has no '.step(' and is not a helper call")
        if loop["role"] == "train" and not (loop["forward_lines"] and loop["step_lines"]):
            err(f"{where}: train loop without forward or step lines")

    for d in exp.get("dynamo", []):
        if d.get("form") not in FORMS:
            err(f"dynamo {d}: bad form")
        elif not any(s in (text(d.get("line")) or "") for s in FORM_TEXT[d["form"]]):
            err(f"dynamo {d}: line text {text(d.get('line'))!r} does not match the form")

    for m in exp.get("msprobe", []):
        if m.get("kind") not in KINDS:
            err(f"msprobe {m}: bad kind")
        elif not any(s in (text(m.get("line")) or "") for s in KIND_TEXT[m["kind"]]):
            err(f"msprobe {m}: line text {text(m.get('line'))!r} does not match the kind")

    plan = exp.get("plan")
    if plan is not None:
        if not PLAN_KEYS <= set(plan) <= PLAN_KEYS | PLAN_OPTIONAL:
            err(f"plan keys {sorted(plan)}")
        else:
            loop = loops_by_line.get(plan["loop_line"])
            if loop is None:
                err(f"plan loop_line {plan['loop_line']} is not a listed loop")
            else:
                if loop["role"] not in ("train", "inference"):
                    err(f"plan targets a {loop['role']} loop")
                if any(l["role"] == "train" for l in exp["loops"]) and loop["role"] != "train":
                    err("plan targets a non-train loop although a train loop exists")
                node = next((n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While, ast.AsyncFor))
                             and n.lineno == loop["line"]), None)
                guarded = first_after_guards(node) if node is not None else None
                if plan["start_before_line"] not in (loop["body_first_line"], guarded):
                    err("plan start_before_line is neither body_first_line nor the first line after leading guards")
                if plan["stop_step_after_line"] != loop["body_last_line"]:
                    err("plan stop_step_after_line != body_last_line")
            want = last_import_line(tree)
            if plan["import_after_line"] != want:
                err(f"plan import_after_line {plan['import_after_line']}, last top-level import ends at {want}")
    return errors


def main(argv):
    names = argv or sorted(p.name[:-3] for p in SCRIPTS.glob("*.py"))
    orphans = [p.name for p in SCRIPTS.glob("*.expect.json")
               if not (SCRIPTS / p.name.replace(".expect.json", ".py")).exists()]
    failed = 0
    for name in names:
        errors = check(name)
        if errors:
            failed += 1
            print(f"FAIL {name}")
            for e in errors:
                print(f"     {e}")
    for o in orphans:
        failed += 1
        print(f"FAIL {o}: no matching script")
    print(f"{len(names) - failed}/{len(names)} scripts OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
