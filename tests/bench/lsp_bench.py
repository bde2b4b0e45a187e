#!/usr/bin/env python3
"""LSP latency and memory harness: spawns a language server over stdio and
times what an editor user waits for. Standard library only, single-threaded
(select on the server's pipes), so the client adds no thread hand-off delay.

Measures, per file, over --runs runs after --warmup discarded runs (a fresh
server process per run):
  init      spawn -> initialize result
  open      didOpen -> first non-empty publishDiagnostics for the document
  change    one-character incremental didChange -> the next publishDiagnostics
            (--changes samples per run, after WARMUP_CHANGES discarded ones: the
            steady state of typing, as parse_bench's reparse; the first
            change after the open is kept apart as first_change)
  action    textDocument/codeAction round trip on the first diagnostic (msprobe only)
  hover     textDocument/hover round trip on the first diagnostic (msprobe only)
For open and change it also records the CPU time the server's threads used and
the time they spent runnable but waiting for a core (/proc schedstat, live
threads only; msprobe-lsp's background threads, named in BACKGROUND_THREADS,
are counted apart as *_bg_cpu: the workspace index runs beside the edits), which separates the server's own cost from the load of a shared
machine, and the process's utime+stime (10 ms ticks, exited threads included).
and, with --rss, the server's peak RSS (VmHWM) with 1 and with N open documents.

Servers (--server): msprobe, pyright or pylsp; the command line that starts
the server follows `--`. Results are printed as JSON lines and appended to
--out.

Example:
  lsp_bench.py --server msprobe --file f.py --runs 9 -- build/server/msprobe-lsp
"""
import argparse
import json
import os
import re
import select
import statistics
import subprocess
import sys
import time
import urllib.parse


def now_ms() -> float:
    return time.perf_counter_ns() / 1e6


class Server:
    """One server process and a blocking-with-timeout message pump."""

    def __init__(self, cmd, cwd, stderr_path=None):
        self.t_spawn = now_ms()
        err = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, cwd=cwd,
                                     bufsize=0)
        self.out_fd = self.proc.stdout.fileno()
        self.in_fd = self.proc.stdin.fileno()
        os.set_blocking(self.out_fd, False)
        os.set_blocking(self.in_fd, False)
        self.buf = b""
        self.queue = []  # (arrival_ms, message)
        self.next_id = 1
        self.config_reply = None  # value answered for each workspace/configuration item
        self.outbuf = bytearray()
        self.writing = False

    # -- I/O ---------------------------------------------------------------
    def _read_available(self) -> bool:
        try:
            chunk = os.read(self.out_fd, 1 << 20)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        t = now_ms()
        self.buf += chunk
        while True:
            head_end = self.buf.find(b"\r\n\r\n")
            if head_end < 0:
                break
            m = re.search(rb"content-length:\s*(\d+)", self.buf[:head_end], re.I)
            length = int(m.group(1))
            start = head_end + 4
            if len(self.buf) < start + length:
                break
            msg = json.loads(self.buf[start:start + length])
            self.buf = self.buf[start + length:]
            self._on_message(t, msg)
        return True

    def _on_message(self, t, msg):
        # Server -> client requests are answered at once, or pyright stalls.
        if "method" in msg and "id" in msg:
            method = msg["method"]
            if method == "workspace/configuration":
                result = [self.config_reply for _ in msg.get("params", {}).get("items", [])]
            else:
                result = None  # client/registerCapability, window/workDoneProgress/create, ...
            self._write(frame({"jsonrpc": "2.0", "id": msg["id"], "result": result}))
            return
        self.queue.append((t, msg))

    def _write(self, data: bytes):
        # Replies to server requests arrive while a long message is being
        # written (reading must go on, or both sides block on full pipes):
        # they are queued and written after it, never in the middle.
        self.outbuf += data
        if self.writing:
            return
        self.writing = True
        try:
            while self.outbuf:
                r, w, _ = select.select([self.out_fd], [self.in_fd], [], 30)
                if r and not self._read_available():
                    raise RuntimeError("server closed stdout")
                if w:
                    try:
                        n = os.write(self.in_fd, self.outbuf)
                        del self.outbuf[:n]
                    except BlockingIOError:
                        pass
        finally:
            self.writing = False

    def send(self, method, params, request=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            msg["id"] = self.next_id
            self.next_id += 1
        self._write(frame(msg))
        return msg.get("id")

    def wait(self, pred, timeout_s=60.0):
        """First queued message matching pred (removed from the queue), with its arrival time."""
        deadline = time.monotonic() + timeout_s
        while True:
            for k, (t, m) in enumerate(self.queue):
                if pred(m):
                    del self.queue[k]
                    return t, m
            left = deadline - time.monotonic()
            if left <= 0:
                return None, None
            r, _, _ = select.select([self.out_fd], [], [], left)
            if r and not self._read_available():
                return None, None

    def drain(self):
        self.queue.clear()

    def request(self, method, params, timeout_s=60.0):
        t0 = now_ms()
        rid = self.send(method, params, request=True)
        t, m = self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout_s)
        return (t - t0 if t else None), m

    def sched(self):
        """(CPU time, run-queue wait, background CPU time) of the server's
        threads so far, in ms (/proc/PID/task/*/schedstat, nanosecond
        resolution). The first two leave out the background threads
        (BACKGROUND_THREADS, by name), whose CPU time is the third. On a loaded
        machine the wait is what other processes took from the server's latency."""
        run = wait = bg = 0
        try:
            for tid in os.listdir(f"/proc/{self.proc.pid}/task"):
                try:
                    with open(f"/proc/{self.proc.pid}/task/{tid}/comm") as f:
                        name = f.read().strip()
                    with open(f"/proc/{self.proc.pid}/task/{tid}/schedstat") as f:
                        a, b, _ = f.read().split()
                    if name in BACKGROUND_THREADS:
                        bg += int(a)
                    else:
                        run += int(a)
                        wait += int(b)
                except (OSError, ValueError):
                    pass
        except OSError:
            pass
        return run / 1e6, wait / 1e6, bg / 1e6

    def cpu_ms(self):
        """utime + stime of the whole process (exited threads included, which
        schedstat misses: pylsp lints in short-lived threads), 10 ms resolution."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def peak_rss_kb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def close(self):
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, timeout_s=5)
                self.send("exit", None)
                self.proc.wait(timeout=5)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def frame(msg) -> bytes:
    body = json.dumps(msg).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def file_uri(path: str) -> str:
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def is_publish(uri, version=None, nonempty=False):
    def pred(m):
        if m.get("method") != "textDocument/publishDiagnostics":
            return False
        p = m.get("params", {})
        if p.get("uri") != uri:
            return False
        if version is not None and p.get("version") is not None and p["version"] < version:
            return False
        if nonempty and not p.get("diagnostics"):
            return False
        return True
    return pred


CHANGE_LINE_RE = re.compile(r"^\s+\S.*\b(\d+)\b")


# Changes typed before the measured ones. tree-sitter reparses a tree fresh
# from a full parse several times slower than one from incremental parses
# (tests/bench/parse_bench.cpp), so the first keystrokes after an open are
# slower than the rest; the measure is the steady state, the same as the
# reparse it is compared with.
WARMUP_CHANGES = 12
# msprobe-lsp's background threads (server/thread_name.h): the workspace index
# and the environment probe. Their CPU time is reported apart from the request's.
BACKGROUND_THREADS = {"msprobe-index", "msprobe-probe"}


def change_site(text: str):
    """A code line near the middle of the file with a number literal: typing a
    digit after it keeps the script valid (64 -> 640), deleting it restores it."""
    lines = text.split("\n")
    mid = len(lines) // 2
    for d in range(len(lines)):
        for k in (mid + d, mid - d):
            if 0 <= k < len(lines):
                line = lines[k]
                if line.lstrip().startswith("#"):
                    continue
                m = CHANGE_LINE_RE.match(line)
                if m:
                    return k, m.end(1)
    return 0, 0


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def one_run(args, kind, path, text, measure_changes: int):
    root = os.path.dirname(os.path.abspath(path))
    uri = file_uri(path)
    srv = Server(args.cmd, root, args.stderr)
    out = {}
    try:
        t0 = srv.t_spawn
        rid = srv.send("initialize", init_params(kind, root, args.debounce), request=True)
        t, resp = srv.wait(lambda m: m.get("id") == rid and "method" not in m, args.timeout)
        if resp is None:
            raise RuntimeError("no initialize result")
        out["init"] = t - t0
        sync = resp["result"].get("capabilities", {}).get("textDocumentSync", 1)
        change_kind = sync.get("change", 1) if isinstance(sync, dict) else sync
        srv.send("initialized", {})
        if args.settle_ms:
            # Let the server finish its start-up work (pyright loads its
            # typeshed stubs lazily, on the first open, so this is small).
            srv.wait(lambda m: False, args.settle_ms / 1000)
        s0, c0 = srv.sched(), srv.cpu_ms()
        t0 = now_ms()
        srv.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                           "text": text}})
        t, m = srv.wait(is_publish(uri, nonempty=True), args.timeout)
        if m is None:
            raise RuntimeError("no diagnostics after didOpen")
        out["open"] = t - t0
        s1, c1 = srv.sched(), srv.cpu_ms()
        out["open_cpu"], out["open_wait"], out["open_bg_cpu"] = s1[0] - s0[0], s1[1] - s0[1], s1[2] - s0[2]
        out["open_proc_cpu"] = c1 - c0 if c0 is not None and c1 is not None else None
        out["diagnostics"] = len(m["params"]["diagnostics"])
        diags = m["params"]["diagnostics"]
        srv.drain()
        # One-character incremental changes, alternately typing and deleting a digit.
        line, col = change_site(text)
        col16 = utf16_len(text.split("\n")[line][:col])
        lines_now = text.split("\n")
        version = 1
        samples, cpu, waits, bg_cpu, proc_cpu, first = [], [], [], [], [], []
        for k in range(measure_changes + WARMUP_CHANGES):
            version += 1
            insert = k % 2 == 0
            if change_kind == 2:
                rng = {"start": {"line": line, "character": col16},
                       "end": {"line": line, "character": col16 if insert else col16 + 1}}
                changes = [{"range": rng, "text": "0" if insert else ""}]
            else:
                cur = lines_now[line]
                lines_now[line] = cur[:col] + "0" + cur[col:] if insert else cur[:col] + cur[col + 1:]
                changes = [{"text": "\n".join(lines_now)}]
            if change_kind == 2:
                cur = lines_now[line]
                lines_now[line] = cur[:col] + "0" + cur[col:] if insert else cur[:col] + cur[col + 1:]
            s0, c0 = srv.sched(), srv.cpu_ms()
            t0 = now_ms()
            srv.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                "contentChanges": changes})
            t, m = srv.wait(is_publish(uri, version=version), args.timeout)
            if m is None:
                raise RuntimeError(f"no diagnostics after change {k}")
            s1, c1 = srv.sched(), srv.cpu_ms()
            diags = m["params"]["diagnostics"] or diags  # current version: its fixes apply
            if k == 0:
                first.append(t - t0)
            if k >= WARMUP_CHANGES:
                samples.append(t - t0)
                cpu.append(s1[0] - s0[0])
                waits.append(s1[1] - s0[1])
                bg_cpu.append(s1[2] - s0[2])
                proc_cpu.append(c1 - c0 if c0 is not None and c1 is not None else None)
            srv.drain()
        out["change"], out["change_cpu"], out["change_wait"], out["change_bg_cpu"] = samples, cpu, waits, bg_cpu
        out["first_change"] = first
        out["change_proc_cpu"] = proc_cpu
        if kind == "msprobe" and args.requests:
            coded = [d for d in diags if d.get("code")] or diags
            d = coded[0]
            acts, hovs = [], []
            for _ in range(args.requests + 1):
                dt, resp = srv.request("textDocument/codeAction", {
                    "textDocument": {"uri": uri}, "range": d["range"],
                    "context": {"diagnostics": [d], "triggerKind": 1}})
                acts.append(dt)
                dt, resp2 = srv.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                                "position": d["range"]["start"]})
                hovs.append(dt)
            out["action"] = acts[1:]
            out["hover"] = hovs[1:]
            out["action_count"] = len(resp.get("result") or [])
            out["hover_ok"] = bool(resp2.get("result"))
        out["rss_kb"] = srv.peak_rss_kb()
    finally:
        srv.close()
    return out


def init_params(kind, root, debounce_ms):
    caps = {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {
            "synchronization": {"didSave": True},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
        },
        "workspace": {"configuration": True, "workspaceFolders": True, "applyEdit": True},
    }
    params = {"processId": os.getpid(), "rootUri": file_uri(root), "rootPath": root, "capabilities": caps,
              "workspaceFolders": [{"uri": file_uri(root), "name": "bench"}]}
    if kind == "msprobe" and debounce_ms is not None:
        params["initializationOptions"] = {"settings": {"debounceMs": debounce_ms}}
    return params


def rss_run(args, files):
    """Peak RSS after opening every file in `files` and receiving their diagnostics."""
    root = os.path.dirname(os.path.abspath(files[0]))
    srv = Server(args.cmd, root, args.stderr)
    try:
        rid = srv.send("initialize", init_params("msprobe", root, args.debounce), request=True)
        srv.wait(lambda m: m.get("id") == rid, args.timeout)
        srv.send("initialized", {})
        base = srv.peak_rss_kb()
        uris = []
        for p in files:
            uri = file_uri(p)
            uris.append(uri)
            with open(p, encoding="utf-8") as f:
                srv.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                   "text": f.read()}})
        for uri in uris:
            t, m = srv.wait(is_publish(uri), args.timeout)
            if m is None:
                raise RuntimeError("missing diagnostics for " + uri)
        return {"docs": len(files), "rss_kb": srv.peak_rss_kb(), "rss_after_init_kb": base}
    finally:
        srv.close()


def summary(values):
    v = [x for x in values if x is not None]
    if not v:
        return None
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v),
            "p90": sorted(v)[max(0, int(round(0.9 * len(v))) - 1)]}


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", choices=["msprobe", "pyright", "pylsp"], required=True)
    ap.add_argument("--name", help="label in the results (default: --server)")
    ap.add_argument("--file", action="append", default=[], help="script to open (repeatable)")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--changes", type=int, default=5, help="change samples per run")
    ap.add_argument("--requests", type=int, default=5, help="codeAction/hover samples per run (msprobe)")
    ap.add_argument("--debounce", type=int, default=0, help="msprobe debounceMs (default 0; -1: server default)")
    ap.add_argument("--settle-ms", type=int, default=0, help="pause between initialized and didOpen")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--rss", nargs="*", metavar="FILE", help="peak-RSS runs: with the first file, then all")
    ap.add_argument("--rss-runs", type=int, default=3)
    ap.add_argument("--stderr", help="append the server's stderr to this file")
    ap.add_argument("--out", help="append JSON lines here")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        ap.error("give the server command line after --")
    cut = argv.index("--")
    args = ap.parse_args(argv[:cut])
    args.cmd = argv[cut + 1:]
    if args.debounce < 0:
        args.debounce = None
    # Servers run in the opened file's folder: make relative paths absolute.
    args.cmd = [os.path.abspath(c) if not c.startswith("-") and "/" in c and os.path.exists(c) else c
                for c in args.cmd]
    name = args.name or args.server
    results = []

    def emit(rec):
        rec.update({"server": name, "loadavg": loadavg(), "time": time.strftime("%Y-%m-%dT%H:%M:%S")})
        line = json.dumps(rec)
        print(line, flush=True)
        results.append(rec)
        if args.out:
            with open(args.out, "a") as f:
                f.write(line + "\n")

    for path in args.file:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        la0 = loadavg()
        runs = []
        for r in range(args.warmup + args.runs):
            res = one_run(args, args.server, path, text, args.changes)
            if r >= args.warmup:
                runs.append(res)
        rec = {"file": os.path.basename(path), "lines": text.count("\n"), "bytes": len(text.encode()),
               "debounce": args.debounce, "loadavg_start": la0,
               "init": summary([r["init"] for r in runs]),
               "open": summary([r["open"] for r in runs]),
               "change": summary([x for r in runs for x in r["change"]]),
               "first_change": summary([x for r in runs for x in r["first_change"]]),
               "open_cpu": summary([r["open_cpu"] for r in runs]),
               "open_wait": summary([r["open_wait"] for r in runs]),
               "change_cpu": summary([x for r in runs for x in r["change_cpu"]]),
               "change_wait": summary([x for r in runs for x in r["change_wait"]]),
               "open_bg_cpu": summary([r["open_bg_cpu"] for r in runs]),
               "change_bg_cpu": summary([x for r in runs for x in r["change_bg_cpu"]]),
               "open_proc_cpu": summary([r["open_proc_cpu"] for r in runs]),
               "change_proc_cpu": summary([x for r in runs for x in r["change_proc_cpu"]]),
               "diagnostics": runs[0]["diagnostics"],
               "rss_kb": summary([r["rss_kb"] for r in runs])}
        if runs and "action" in runs[0]:
            rec["action"] = summary([x for r in runs for x in r["action"]])
            rec["hover"] = summary([x for r in runs for x in r["hover"]])
            rec["action_count"] = runs[0]["action_count"]
            rec["hover_ok"] = runs[0]["hover_ok"]
        emit({"measure": "latency", **rec})

    if args.rss:
        for files in ([args.rss[0]], args.rss):
            la0 = loadavg()
            got = [rss_run(args, files) for _ in range(args.rss_runs)]
            emit({"measure": "rss", "docs": len(files), "loadavg_start": la0,
                  "rss_kb": summary([g["rss_kb"] for g in got]),
                  "rss_after_init_kb": summary([g["rss_after_init_kb"] for g in got])})
    return 0


if __name__ == "__main__":
    sys.exit(main())
