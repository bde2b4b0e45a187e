#!/usr/bin/env python3
"""The README's hand-written tables must agree with what the binary says.

Rules: the "## Rules" table lists exactly the rules of `msprobe-lsp rules --format json`,
in that order, with the same names; its "default" cell starts with the rule's default
severity and its "quick fix" cell is "–" (possibly followed by a remark) exactly when the
rule has no fix. The prose in the cells (version-dependent severities, what the fix does)
stays hand-written.

Settings: the "## Settings" table lists exactly the settings `msprobe.showInfo` reports
(as msprobe.<name>), and each literal default (`150`, `true`, `[]`, `"./config.json"`...)
equals the server's; a setting whose default is the empty string may describe where the
value comes from instead.

    check_readme_tables.py BIN README
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lsp"))
from lsp_client import Client  # noqa: E402

BIN, README = os.path.abspath(sys.argv[1]), sys.argv[2]
NO_FIX = "–"
failures = []


def fail(message):
    failures.append(message)


def table(text, heading):
    """The rows (lists of cells) of the first table under `heading`, header and rule line dropped."""
    at = text.find("\n" + heading + "\n")
    if at < 0:
        fail(f"README has no '{heading}' section")
        return []
    rows = []
    for line in text[at + len(heading) + 2:].splitlines():
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    if len(rows) < 2:
        fail(f"no table under '{heading}'")
        return []
    return rows[2:]


def check_rules(text):
    rules = json.loads(subprocess.run([BIN, "rules", "--format", "json"], capture_output=True, text=True,
                                      check=True).stdout)
    rows = table(text, "## Rules")
    got, want = [r[0] for r in rows], [r["code"] for r in rules]
    if got != want:
        fail(f"rule table codes {got} differ from `rules`: {want}")
    by_code = {r["code"]: r for r in rules}
    for row in rows:
        if len(row) != 4:
            fail(f"rule row with {len(row)} cells: {row}")
            continue
        code, name, default, fix = row
        rule = by_code.get(code)
        if not rule:
            continue
        if name != rule["name"]:
            fail(f"{code}: README name {name!r}, `rules` says {rule['name']!r}")
        if re.match(r"[a-z]+", default).group(0) != rule["severity"]:
            fail(f"{code}: README default {default!r} does not start with the default severity {rule['severity']!r}")
        if fix.startswith(NO_FIX) != (rule["fix"] == "none"):
            fail(f"{code}: README quick fix {fix!r}, but `rules` says the fix is {rule['fix']!r}")
    return len(rows)


def check_settings(text):
    c = Client(BIN)
    try:
        c.initialize()
        info = c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
    finally:
        c.close()
    settings = (info or {}).get("result", {}).get("settings")
    if not isinstance(settings, dict) or not settings:
        fail(f"msprobe.showInfo reported no settings: {info}")
        return 0
    rows = table(text, "## Settings")
    documented = {}
    for row in rows:
        m = re.fullmatch(r"`msprobe\.([\w.]+)`", row[0])
        if not m or len(row) != 3:
            fail(f"settings row not of the form | `msprobe.name` | default | meaning |: {row}")
            continue
        documented[m.group(1)] = row[1]
    if sorted(documented) != sorted(settings):
        fail(f"settings table {sorted(documented)} differs from the server's {sorted(settings)}")
    for key, cell in documented.items():
        if key not in settings:
            continue
        value = settings[key]
        literal = cell[1:-1] if re.fullmatch(r"`[^`]*`", cell) else None
        if value == "" and literal is None:
            continue  # prose: where an unset value comes from
        shown = literal if literal is not None else cell
        want = value if isinstance(value, str) and value else json.dumps(value)
        if shown != want:
            fail(f"msprobe.{key}: README default {cell!r}, the server's is {json.dumps(value)}")
    return len(documented)


def main():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    n_rules = check_rules(text)
    n_settings = check_settings(text)
    for f in failures:
        print("FAIL:", f)
    print(f"{n_rules} rules, {n_settings} settings, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
