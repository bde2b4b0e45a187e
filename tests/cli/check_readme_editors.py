#!/usr/bin/env python3
"""The editor configurations in README.md are checked, not just written:

- every ```lua block compiles (Neovim's own LuaJIT `loadstring`, headless), and the Neovim blocks
  start `msprobe-lsp --stdio` for python and json buffers with the documented root markers;
- the Helix block is valid TOML (tomllib) that declares `msprobe-lsp --stdio` as a language server
  and adds it to python's servers (Helix itself is not packaged for Debian bookworm, so it is not run);
- the Emacs eglot block is run for real by tests/e2e/emacs.

Usage: check_readme_editors.py README.md
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

readme = open(sys.argv[1], encoding="utf-8").read()
failures, passed = [], 0


def check(name, ok, detail=""):
    global passed
    if ok:
        passed += 1
        print(f"ok     {name}")
    else:
        failures.append(name)
        print(f"FAILED {name}: {detail}")


def section(title):
    m = re.search(r"^#+ " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    return m.group(1) if m else ""


def blocks(text, lang):
    return re.findall(r"```" + lang + r"\n(.*?)```", text, re.S)


neovim = section("Neovim")
helix = section("Helix")
lua = blocks(neovim, "lua")
check("the Neovim section has its Lua snippets (0.11+, 0.8-0.10, lspconfig, showMessageRequest)", len(lua) >= 4, len(lua))
nvim = shutil.which("nvim")
for i, code in enumerate(lua):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(code)
    if nvim:
        r = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c",
                            f"lua local f = assert(io.open('{f.name}')); local ok, err = loadstring(f:read('*a')); "
                            "if not ok then io.stderr:write(err) vim.cmd('cquit 1') end",
                            "-c", "qa!"], capture_output=True, text=True, timeout=60)
        check(f"Lua snippet {i + 1} compiles", r.returncode == 0, r.stderr[-300:])
    os.unlink(f.name)
for i, code in enumerate(lua[:3]):
    check(f"Neovim snippet {i + 1} starts msprobe-lsp --stdio", "'msprobe-lsp', '--stdio'" in code, code[:200])
    check(f"Neovim snippet {i + 1} covers python and json", "'python', 'json'" in code, code[:200])
    check(f"Neovim snippet {i + 1} roots at .git / pyproject.toml / setup.py / config.json",
          all(m in code for m in ("'.git'", "'pyproject.toml'", "'setup.py'", "'config.json'")), code[:300])
check("a :MsprobeGenerateConfig user command is documented", "MsprobeGenerateConfig" in neovim)

toml_blocks = blocks(helix, "toml")
check("the Helix section has one TOML block", len(toml_blocks) == 1, len(toml_blocks))
if toml_blocks:
    try:
        conf = tomllib.loads(toml_blocks[0])
        server = conf.get("language-server", {}).get("msprobe-lsp", {})
        check("Helix: language-server.msprobe-lsp runs `msprobe-lsp --stdio`",
              server.get("command") == "msprobe-lsp" and server.get("args") == ["--stdio"], server)
        langs = [l for l in conf.get("language", []) if l.get("name") == "python"]
        check("Helix: python uses msprobe-lsp", bool(langs) and "msprobe-lsp" in langs[0].get("language-servers", []),
              langs)
    except tomllib.TOMLDecodeError as e:
        check("Helix TOML parses", False, str(e))

for f in failures:
    print("FAILED", f)
print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
