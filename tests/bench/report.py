#!/usr/bin/env python3
"""Writes docs/benchmarks.md (to stdout) from the JSON lines scripts/bench.sh
collected: machine, versions, command, targets and the tables.

Usage: report.py RESULTS.jsonl --lsp BIN [--pyright-js PATH] [--notes FILE]
  --notes: a Markdown file appended as is (profiling notes, before/after figures)
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:
        return ""


def read_results(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def ms(v, digits=None):
    if v is None:
        return "–"
    if digits is None:
        digits = 2 if v < 10 else 1 if v < 100 else 0
    return f"{v:,.{digits}f}"


def spread(s, digits=None):
    """median (min–max) of a summary dict."""
    if not s:
        return "–"
    return f"{ms(s['median'], digits)} ({ms(s['min'], digits)}–{ms(s['max'], digits)})"


def bg(r, what):
    """Median CPU time of the server's background threads during `what` (open,
    change); results from before lsp_bench recorded it have none."""
    s = r.get(f"{what}_bg_cpu")
    return ms(s["median"]) if s else "–"


def machine(lsp, pyright_js):
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_kb = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem_kb = int(line.split()[1])
    os_name = "?"
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            m = re.search(r'PRETTY_NAME="([^"]+)"', f.read())
            os_name = m.group(1) if m else os_name
    deb_ver = ""
    if os.path.exists("/etc/debian_version"):
        with open("/etc/debian_version") as f:
            deb_ver = f.read().strip()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    versions_file = os.path.join(root, "cmake", "TreeSitter.cmake")
    ts = ""
    if os.path.exists(versions_file):
        with open(versions_file) as f:
            pk = re.findall(r'"(tree-sitter(?:-python)?@[0-9.]+)"', f.read())
            ts = ", ".join(pk)
    pyright = ""
    if pyright_js and os.path.exists(pyright_js):
        pkg = os.path.join(os.path.dirname(pyright_js), "package.json")
        with open(pkg) as f:
            pyright = json.load(f).get("version", "")
    rows = [
        ("CPU", f"{cpu}, {os.cpu_count()} cores"),
        ("Memory", f"{mem_kb / 1024 / 1024:.0f} GiB"),
        ("OS", f"{os_name} ({deb_ver}), Linux {platform.release()}"),
        ("Compiler", sh("c++", "--version").splitlines()[0] if sh("c++", "--version") else "?"),
        ("msprobe-lsp", f"{sh(lsp, '--version')}, commit {sh('git', '-C', root, 'rev-parse', '--short', 'HEAD')}, "
                        "CMake Release (-O3)"),
        ("tree-sitter", ts + " (runtime 0.25.10 from the first)"),
        ("pyright", f"{pyright} (npm, its own folder build/bench-peers/pyright), node {sh('node', '--version')}"),
        ("pylsp", f"{sh('dpkg-query', '-W', '-f=${Version}', 'python3-pylsp')} (Debian python3-pylsp; linter: pyflakes "
                  f"{sh('dpkg-query', '-W', '-f=${Version}', 'python3-pyflakes')}), {sh('/usr/bin/python3', '--version')}"),
    ]
    return rows



def floor_clock(parse_cpu, parse_wall):
    """The clock the targets' floor (parse_bench's parse and reparse) is read with in this run.

    parse_bench times each figure on one thread with both clocks. The CPU clock
    is the better floor on a loaded machine (time spent waiting for a core is
    not counted), but only while it is consistent: one thread cannot use more
    CPU time than wall time, so a run whose CPU medians exceed the wall medians
    (seen on a VM whose thread CPU clock ran ~1.7x fast) has a CPU clock that
    does not measure time, and the wall clock is used. Returns (clock, reason).
    """
    if not parse_cpu:
        return "wall", "only wall-clock figures were recorded"
    if not parse_wall:
        return "cpu", "only CPU-clock figures were recorded"
    ahead = [(f, parse_cpu[f]["parse_ms"]["median"] / parse_wall[f]["parse_ms"]["median"])
             for f in parse_cpu if f in parse_wall and parse_wall[f]["parse_ms"]["median"] > 0]
    worst = max(ahead, key=lambda t: t[1], default=None)
    if worst and worst[1] > 1.05:
        return "wall", (f"the thread CPU clock ran ahead of the wall clock in this run ({worst[0]}: CPU "
                        f"{worst[1]:.2f}x wall for the same single-threaded parse), so it does not measure time here")
    return "cpu", "the thread's CPU clock, which the load inflates less than the wall clock"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--lsp", required=True)
    ap.add_argument("--pyright-js")
    ap.add_argument("--notes")
    a = ap.parse_args()
    res = read_results(a.results)
    out = []
    w = out.append

    lat = [r for r in res if r["measure"] == "latency"]
    ours = {r["file"]: r for r in lat if r["server"] == "msprobe-lsp"}
    deb = {r["file"]: r for r in lat if r["server"].startswith("msprobe-lsp (debounce")}
    peers = [r for r in lat if not r["server"].startswith("msprobe-lsp")]
    parse_wall = {r["file"]: r for r in res if r["measure"] == "parse" and r.get("clock") == "wall"}
    parse_cpu = {r["file"]: r for r in res if r["measure"] == "parse" and r.get("clock") == "cpu"}
    instr = {r["file"]: r for r in res if r["measure"] == "instructions"}
    rss = {r["docs"]: r for r in res if r["measure"] == "rss"}
    check = {r["jobs"]: r for r in res if r["measure"] == "check"}
    pindex = next((r for r in res if r["measure"] == "project_index"), None)
    pexplain = next((r for r in res if r["measure"] == "project_explain"), None)
    loads = [r.get("loadavg") for r in res if r.get("loadavg") is not None]
    # ISO times ("2026-12-04T18:46:11"); older records wrote "2026-12-04 18:46".
    times = [r["time"].replace(" ", "T") for r in res if r.get("time")]

    w("# Benchmarks\n")
    w("Latency, throughput and memory of msprobe-lsp, side by side with pyright and pylsp on the same "
      "generated PyTorch scripts in the same run (issue #8). Everything on this page is produced by one "
      "command, which rebuilds Release, installs the peers if missing, generates the inputs, runs every "
      "measure and rewrites this file:\n")
    w("    scripts/bench.sh            # about 25 minutes; --quick for a smoke test, --no-peers\n")
    w("The benchmark is not part of `scripts/test.sh`. Its pieces live in `tests/bench/`: `gen_scripts.py` "
      "(inputs), `lsp_bench.py` (a stdio LSP client), `parse_bench.cpp` (the tree-sitter floor, built with "
      "`-DMSPROBE_LSP_BENCH=ON`), `check_bench.py` and `report.py`. Raw results: `$TMPDIR/msprobe-lsp-bench/results.jsonl` (inputs and results live outside the repository, so no input belongs to a project).\n")
    if times:
        w(f"Run: {min(times).replace('T', ' ')} to {max(times).replace('T', ' ')}. "
          f"Load average (1 min) during the run: {min(loads):.1f} to {max(loads):.1f} on "
          f"{os.cpu_count()} cores"
          + (". **The machine was shared** with other builds while these figures were taken"
             if max(loads) > os.cpu_count() + 0.5 else
             " (the benchmark's own client and servers; nothing else ran)")
          + ". Every figure is a median over repeated runs with its spread (min–max), and the load "
          "average at the time is printed next to it. Latencies measured by the client include the time the "
          "server waited for a core; the tables also give the server's own CPU time, which the load does not "
          "inflate as much.\n")

    w("## Machine and versions\n")
    w("| | |\n|---|---|")
    for k, v in machine(a.lsp, a.pyright_js):
        w(f"| {k} | {v} |")
    w("")

    # ----- targets -----
    w("## Targets\n")
    w("| Target (2-core machine) | Measured (median) | Met |\n|---|---|---|")

    def yes(ok):
        return "yes" if ok else "**no**"

    # Issue 17's targets are ratios to tree-sitter's own work on the same
    # text (parse_bench), so the machine's speed cancels out. Which clock the
    # floor is read with is decided per run (floor_clock).
    clock, clock_why = floor_clock(parse_cpu, parse_wall)
    floor = parse_cpu if clock == "cpu" else parse_wall
    o1k = ours.get("train_1000.py")
    p1k = floor.get("train_1000.py")
    if o1k and p1k:
        r = o1k["open"]["median"] / p1k["parse_ms"]["median"]
        w(f"| didOpen → diagnostics ≤ 1.3x the parse alone (1k-line script) | {r:.2f}x "
          f"({ms(o1k['open']['median'])} ms client-measured, server CPU {ms(o1k['open_cpu']['median'])} ms; "
          f"parse {ms(p1k['parse_ms']['median'])} ms {clock} clock; load {o1k['loadavg_start']:.1f}) | "
          f"{yes(r <= 1.3)} |")
    for f in ("train_1000.py", "train_10000.py", "train_50000.py"):
        o, pc = ours.get(f), floor.get(f)
        if not (o and pc and o.get("change")):
            continue
        rep = pc["reparse_ms"]["median"]
        r = o["change"]["median"] / rep
        ri = pc["reanalyze_ms"]["median"] / rep
        inproc = f"in-process reanalysis {ri:.2f}x"
        if "reanalyze_project_ms" in pc:
            inproc += f", {pc['reanalyze_project_ms']['median'] / rep:.2f}x in a project"
        if "edit_ratio" in instr.get(f, {}):
            inproc += f"; {instr[f]['edit_ratio']:.2f}x in instructions"
        w(f"| change → diagnostics ≤ 2x the incremental reparse ({f}) | {r:.2f}x ({ms(o['change']['median'])} ms "
          f"client-measured vs {ms(rep)} ms reparse, {clock} clock; {inproc}) | {yes(r <= 2)} |")
    for f in ("train_1000.py", "train_10000.py"):
        pc, pw, i = parse_cpu.get(f), parse_wall.get(f), instr.get(f)
        parts, verdict = [], []
        if pc:
            parts.append(f"{pc['ratio']:.2f}x CPU time")
        if pw:
            parts.append(f"{pw['ratio']:.2f}x wall time")
        if i:
            parts.append(f"{i['ratio']:.2f}x instructions")
            verdict.append(f"instructions: {yes(i['ratio'] <= 1.5)}")
        t = pc or pw
        if t:
            verdict.append(f"time: {yes(t['ratio'] <= 1.5)}")
        if parts:
            w(f"| full analysis ≤ 1.5x raw tree-sitter parse ({f}) | {'; '.join(parts)} | {'; '.join(verdict)} |")
    if o1k:
        for prefix in ("pyright", "pylsp"):
            pr = next((r for r in peers if r["server"].startswith(prefix) and r["file"] == "train_1000.py"), None)
            if pr:
                ratio = pr["open"]["median"] / o1k["open"]["median"]
                w(f"| ≥ 100x faster than {prefix} to first diagnostics (1k lines, same run) | {ratio:,.0f}x "
                  f"({ms(pr['open']['median'])} vs {ms(o1k['open']['median'])} ms) | {yes(ratio >= 100)} |")
    if 100 in rss:
        mb = rss[100]["rss_kb"]["median"] / 1024
        w(f"| peak RSS ≤ 40 MB with 100 open 1k-line documents | {mb:.1f} MB | {yes(mb <= 40)} |")
    if 2 in check:
        c1, c2 = check.get(1), check[2]
        w(f"| `check` ≥ 10 MB/s using every core | {c2['mb_per_s']:.1f} MB/s with 2 threads"
          + (f" ({c1['mb_per_s']:.1f} with 1)" if c1 else "") + f"; load {c2['loadavg_start']:.1f} | "
          f"{yes(c2['mb_per_s'] >= 10)} |")
    if pindex:
        secs = pindex["total_ms"]["median"] / 1000
        mb = pindex["peak_rss_kb"]["max"] / 1024
        e = pindex["edit"]
        w(f"| index a generated {pindex['files']:,}-file project ≤ 3 s on 2 cores | {secs:.2f} s "
          f"({pindex['source_bytes'] / 1e6:.1f} MB of source; load {pindex['loadavg_start']:.1f}) | {yes(secs <= 3)} |")
        w(f"| peak RSS while indexing it ≤ 150 MB | {mb:.1f} MB (summaries {pindex['summary_bytes'] / 1e6:.1f} MB) | "
          f"{yes(mb <= 150)} |")
        w(f"| a one-file edit updates the index in ≤ 2x that file's analysis | {e['ratio']:.2f}x "
          f"({ms(e['index_update_ms'])} vs {ms(e['analysis_ms'])} ms, {e['file']}) | {yes(e['ratio'] <= 2)} |")
        if "affected_ms" in e:
            w(f"| finding the open documents that edit may affect (import graph of the project) | "
              f"{ms(e['affected_ms'])} ms ({e['affected_files']:,} of {pindex['files']:,} files linked) | — |")
    if pexplain:
        s_ = pexplain["wall_ms"]["median"] / 1000
        w(f"| `explain --project` on a {pexplain['files']:,}-file project ≤ 1 s | {s_:.2f} s (a fresh process: "
          f"scan, index, plan; load {pexplain['loadavg_start']:.1f}) | {yes(s_ <= 1)} |")
    w("")
    if parse_cpu or parse_wall:
        w(f"The parse and reparse the ratios divide by are read with the **{clock} clock** in this run: "
          f"{clock_why}. The floor table below gives both clocks.\n")

    # ----- latency -----
    if ours:
        w("## msprobe-lsp latency (client-measured, debounce 0)\n")
        w("A fresh server per run, one warm-up run discarded; milliseconds, median (min–max) over the runs "
          "(changes, code actions and hovers: several samples per run). The change types one digit after a "
          "number literal near the middle of the file (`64` → `640`), or deletes it, as an incremental "
          "`didChange`; the changes are measured after 12 untimed ones (typing's steady state, the "
          "state `parse_bench`'s reparse is measured in), and *first change* is the first one after the "
          "open, whose parse starts from the fresh tree. *Server CPU* is the CPU time the server's threads used between the request and the "
          "publish (from `/proc/PID/task/*/schedstat`), *waited* the time they were runnable but had no "
          "core, and *background* the CPU time the background threads (the workspace index, named "
          "`msprobe-index`, and the environment probe, `msprobe-probe`) used meanwhile, left out of the other two: the "
          "benchmark's folder, which the server indexes, holds all four scripts.\n")
        w("| script | spawn → initialize | didOpen → diagnostics | server CPU / waited / background | first change "
          "| change → diagnostics | server CPU / waited / background | codeAction | hover | diagnostics | load |")
        w("|---|---|---|---|---|---|---|---|---|---|---|")
        for f, r in sorted(ours.items(), key=lambda kv: kv[1]["lines"]):
            w(f"| {f} ({r['lines']:,} lines, {r['bytes'] / 1024:,.0f} KB) | {spread(r['init'])} | "
              f"{spread(r['open'])} | {ms(r['open_cpu']['median'])} / {ms(r['open_wait']['median'])} / {bg(r, 'open')} | "
              f"{spread(r.get('first_change'))} | "
              f"{spread(r['change'])} | {ms(r['change_cpu']['median'])} / {ms(r['change_wait']['median'])} / {bg(r, 'change')} | "
              f"{spread(r.get('action'))} | {spread(r.get('hover'))} | {r['diagnostics']} | "
              f"{r['loadavg_start']:.1f} |")
        w("")
        for f, r in deb.items():
            w(f"With the default debounce (`msprobe.debounceMs` 150 ms) instead of 0, a change "
              f"to {f} is published after {spread(r['change'])} ms (load {r['loadavg_start']:.1f}): the delay is "
              "the debounce; didOpen is never debounced "
              f"({spread(r['open'])} ms).\n")

    # ----- side by side -----
    if peers:
        w("## Side by side with pyright and pylsp (same files, same run)\n")
        w("Each server is spawned fresh per run and gets the same `initialize` capabilities, the same "
          "`didOpen` and the same incremental one-character changes. *First diagnostics* is the first "
          "non-empty `publishDiagnostics` for the document; *change* is the next publish after the change. "
          "Ratios are the peer's median over msprobe-lsp's median in the same table. pylsp debounces linting "
          "by 0.5 s (`LINT_DEBOUNCE_S`, on open too), so its row is also given minus 500 ms. pyright and pylsp "
          "compute much more (types, every pyflakes check): this compares what a user waits for before the "
          "file's first useful diagnostic, not the work done.\n")
        w("| script | server | runs | didOpen → first diagnostics (ms) | × msprobe-lsp | change → diagnostics (ms) "
          "| × msprobe-lsp | diagnostics | load |")
        w("|---|---|---|---|---|---|---|---|---|")
        for f in sorted({r["file"] for r in peers}, key=lambda x: int(re.sub(r"\D", "", x) or 0)):
            me = ours.get(f)
            rows = ([me] if me else []) + [r for r in peers if r["file"] == f]
            for r in rows:
                ro = me and r is not me
                xo = "{:,.0f}x".format(r["open"]["median"] / me["open"]["median"]) if ro else "1"
                xc = "{:,.0f}x".format(r["change"]["median"] / me["change"]["median"]) if ro else "1"
                w(f"| {f} | {r['server']} | {r['open']['n']} | {spread(r['open'])} | {xo} | {spread(r['change'])} | "
                  f"{xc} | {r['diagnostics']} | {r['loadavg_start']:.1f} |")
                if ro and r["server"].startswith("pylsp"):
                    o, c = r["open"]["median"] - 500, r["change"]["median"] - 500
                    w(f"| {f} | … minus its 500 ms debounce | | {ms(o)} | {o / me['open']['median']:,.0f}x | {ms(c)} | "
                      f"{c / me['change']['median']:,.0f}x | | |")
        w("")

    # ----- floor -----
    if parse_wall or parse_cpu:
        w("## The floor: raw tree-sitter parse vs the full analysis\n")
        w("`build-bench/tests/bench/parse_bench` times, in one process, `PythonParser::parse` alone and "
          "`analysis::analyze` (parse + facts + rules + suppressions) on the same text, then the two parts "
          "after the parse, an incremental reparse after the one-character edit (`ts_tree_edit` on a copy + "
          "parse with the old tree), the same edit through `analyze(..., old_tree, previous facts)` as the server "
          "runs it (the top-level statements the edit did not touch keep their facts), the same as the one "
          "file of a project with the previous summary lent too (*in a project*: the server's case in a "
          "workspace folder; call effects of untouched defs are kept), and "
          "the server's text bookkeeping for the edit. *In two halves* is `analyze` with a second core, as the "
          "server opens a document of 8 KB or more while nothing else runs: the text parsed in two halves, "
          "one on each thread (`split_analysis.h`; wall clock only, since it runs on two threads). Many iterations per figure (at least 5, up to 200 or "
          "1.5 s); medians in ms. *cpu* rows use the thread's CPU clock, *wall* rows the wall clock "
          f"(the targets use the {clock} rows in this run, see above).\n")
        w("| script | clock | parse | analyze | **ratio** | in two halves | facts | rules | reparse (1 char) | "
          "reanalyze (1 char) | in a project | text edit | load |")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for table in (parse_cpu, parse_wall):
            for f, r in sorted(table.items(), key=lambda kv: kv[1]["lines"]):
                w(f"| {f} | {r['clock']} | {ms(r['parse_ms']['median'])} | {ms(r['analyze_ms']['median'])} | "
                  f"**{r['ratio']:.2f}x** | "
                  # Two threads: a thread's CPU clock would count one of them only.
                  f"{ms(r['analyze_parts_ms']['median']) if 'analyze_parts_ms' in r and r['clock'] == 'wall' else '–'} | "
                  f"{ms(r['facts_ms']['median'])} | {ms(r['rules_ms']['median'])} | "
                  f"{ms(r['reparse_ms']['median'])} | {ms(r['reanalyze_ms']['median'])} | "
                  f"{ms(r['reanalyze_project_ms']['median']) if 'reanalyze_project_ms' in r else '–'} | "
                  f"{ms(r['text_edit_ms']['median'], 3)} | {r['loadavg_start']:.1f} |")
        w("")
        if instr:
            w("Instruction counts (valgrind callgrind, `--toggle-collect` on each function; independent of the "
              "load), per call:\n")
            w("| script | parse | analyze | ratio | reparse (1 char) | reanalyze (1 char, in a project) | ratio |\n"
              "|---|---|---|---|---|---|---|")
            for f, r in sorted(instr.items(), key=lambda kv: kv[1]["bytes"]):
                edit = (f"{r['reparse_ir'] / 1e6:,.2f} M | {r['reanalyze_project_ir'] / 1e6:,.2f} M | "
                        f"{r['edit_ratio']:.2f}x" if "edit_ratio" in r else "– | – | –")
                w(f"| {f} | {r['parse_ir'] / 1e6:,.1f} M | {r['analyze_ir'] / 1e6:,.1f} M | {r['ratio']:.2f}x | "
                  f"{edit} |")
            w("\nThe edit columns count the worker thread's instructions for the timed part of an edit (the "
              "donor copy on the second core is not counted); they do not see cache misses or the allocator's "
              "page faults, which the wall-clock ratios above do.")
            w("")
            with_parts = [(f, r) for f, r in sorted(instr.items(), key=lambda kv: kv[1]["bytes"])
                          if "reanalyze_project_parts_ir" in r]
            if with_parts:
                names = list(with_parts[0][1]["reanalyze_project_parts_ir"])
                w("Where one edit's instructions go, by pass (inclusive counts of each pass's function, "
                  "differenced like the totals; share of the edit in brackets):\n")
                w("| script | " + " | ".join(names) + " |\n|---|" + "---|" * len(names))
                for f, r in with_parts:
                    p, total = r["reanalyze_project_parts_ir"], r["reanalyze_project_ir"]
                    w(f"| {f} | " + " | ".join(f"{p[n] / 1e6:,.2f} M ({100 * p[n] / total:.0f}%)" for n in names)
                      + " |")
                w("")

    # ----- memory -----
    if rss:
        w("## Memory\n")
        w("Peak RSS (`VmHWM`) of the server after opening the documents and receiving all their diagnostics; "
          "1,000-line scripts generated with different seeds; median (min–max) over runs.\n")
        w("| open documents | peak RSS | after initialize | load |\n|---|---|---|---|")
        for n, r in sorted(rss.items()):
            w(f"| {n} | {spread({k: v / 1024 for k, v in r['rss_kb'].items() if k != 'n'}, 1)} MB | "
              f"{r['rss_after_init_kb']['median'] / 1024:.1f} MB | {r['loadavg_start']:.1f} |")
        w("")

    # ----- check -----
    if check:
        any_c = next(iter(check.values()))
        w("## `msprobe-lsp check` throughput\n")
        w(f"`msprobe-lsp check --jobs N` over a tree of {any_c['files']:,} generated scripts "
          f"({any_c['bytes'] / 1e6:.1f} MB, 50 to 2,000 lines each), output discarded; one warm-up run, then "
          f"{any_c['runs']} runs. *CPU/wall* 2.0 means both cores busy the whole time; *peak RSS* is each "
          "run's own (median, range).\n")
        w("| threads | wall (s) | files/s | MB/s | best MB/s | CPU/wall | peak RSS (MB) | load |\n"
          "|---|---|---|---|---|---|---|---|")
        for j, r in sorted(check.items()):
            rss = r.get("peak_rss_kb")  # absent from runs before it was recorded
            rss_mb = ("–" if not rss else
                      spread({k: v / 1024 for k, v in rss.items()}, 0))
            w(f"| {j} | {spread(r['wall_s'], 2)} | {r['files_per_s']:,.0f} | {r['mb_per_s']:.1f} | "
              f"{r['mb_per_s_best']:.1f} | {r['cpu_per_wall']:.2f} | {rss_mb} | {r['loadavg_start']:.1f} |")
        w("")

    if a.notes and os.path.exists(a.notes):
        with open(a.notes) as f:
            w(f.read().rstrip() + "\n")
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
