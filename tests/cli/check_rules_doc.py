#!/usr/bin/env python3
"""docs/rules.md must be exactly what `msprobe-lsp rules --format markdown` prints.

Regenerate it with MSPROBE_UPDATE_EXPECT=1 (for example
`MSPROBE_UPDATE_EXPECT=1 ctest --test-dir build -R rules_doc`), which rewrites it and
fails so that the diff gets reviewed (tests/golden.py). Also checks the
JSON form: every rule has a code, name, severity, fix availability, anchor and docs,
and every anchor appears in the Markdown. Every citation of msProbe facts is a link to
an anchor that exists in docs/msprobe-reference.md.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import golden  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
DOC = os.path.join(sys.argv[2], "docs", "rules.md")

md = subprocess.run([BIN, "rules", "--format", "markdown"], capture_output=True, text=True, check=True).stdout
failures = []
if golden.update_mode() and golden.write_if_changed(DOC, md):
    print(f"updated {DOC}")
    failures.append(golden.rewrote(1))

try:
    with open(DOC, encoding="utf-8", newline="") as f:
        current = f.read()
except FileNotFoundError:
    current = None
if current != md:
    failures.append(f"{DOC} is out of date: regenerate it with MSPROBE_UPDATE_EXPECT=1 ctest -R rules_doc")

rules = json.loads(subprocess.run([BIN, "rules", "--format", "json"], capture_output=True, text=True,
                                  check=True).stdout)
if not rules:
    failures.append("no rules in the JSON reference")
for r in rules:
    for key in ("code", "name", "summary", "severity", "fix", "anchor", "docs"):
        if not r.get(key):
            failures.append(f"{r.get('code')}: empty {key}")
    if r["anchor"] != r["code"].lower():
        failures.append(f"{r['code']}: anchor {r['anchor']}")
    if f'<a id="{r["anchor"]}"></a>' not in md:
        failures.append(f"{r['code']}: no anchor in the Markdown")
    for section in ("What it does", "Why it matters", "Example", "Fix"):
        if f"### {section}" not in r["docs"]:
            failures.append(f"{r['code']}: docs lack a '{section}' section")

# Users do not have the project's msprobe-facts notes: every citation is a link into
# docs/msprobe-reference.md (shipped next to rules.md), to an anchor that exists there.
REFERENCE = os.path.join(sys.argv[2], "docs", "msprobe-reference.md")
reference = open(REFERENCE, encoding="utf-8").read()
anchors = set(re.findall(r'<a id="([^"]+)"></a>', reference))
if "msprobe-facts" in md or any("msprobe-facts" in r["docs"] for r in rules):
    failures.append("a citation of msprobe-facts is left in the rule reference")
links = re.findall(r"\]\(msprobe-reference\.md#([^)]+)\)", md)
if not links:
    failures.append("no link into msprobe-reference.md")
for anchor in sorted(set(links)):
    if anchor not in anchors:
        failures.append(f"msprobe-reference.md has no anchor {anchor!r}")
unlinked = [line for line in md.splitlines() if re.search(r"(?<!\[)§\d", line)]
if unlinked:
    failures.append(f"section numbers outside links: {unlinked[:3]}")
for target in re.findall(r"\]\((#[^)]+)\)", reference):
    if target[1:] not in anchors:
        failures.append(f"msprobe-reference.md links to a missing anchor {target}")

bad = subprocess.run([BIN, "rules", "--format", "yaml"], capture_output=True, text=True)
if bad.returncode != 2 or "usage" not in bad.stderr:
    failures.append(f"--format yaml: rc={bad.returncode} {bad.stderr}")

for f in failures:
    print("FAIL:", f)
print(f"{len(rules)} rules, {len(failures)} failures")
sys.exit(1 if failures else 0)
