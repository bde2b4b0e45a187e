#!/usr/bin/env python3
"""Runs LSP transcripts against the real msprobe-lsp binary.

A transcript (tests/lsp/*.json) is a list of steps:
  {"send": MESSAGE}          send one JSON-RPC message (framed)
  {"raw": "TEXT"}            send raw bytes (for framing tests); "{{LEN:body}}" is not expanded
  {"expect": SUBSET}         wait for a message that contains SUBSET (dicts match by subset,
                             lists element-wise and equal length unless {"$contains": [...]})
  {"expect": SUBSET, "save_as": NAME}  ... and keep the matched message as NAME
  {"reply_to": SUBSET, "result": VALUE}   wait for a request from the server that contains
                             SUBSET (e.g. {"method": "workspace/applyEdit"}) and answer it
  {"expect_not": SUBSET, "within_ms": N}  no such message arrives within N ms
  {"close_stdin": true}      close the server's stdin
  {"expect_exit": CODE}      the server exits with CODE within 5 s
  {"sleep_ms": N}
Strings "$ROOT_URI" and "$ROOT" are replaced with a temporary workspace folder; a string
"$saved:NAME.key.0.key" is replaced by that part of a saved message (any JSON value).
Messages that do not match an expectation stay queued for later expectations.
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TIMEOUT = float(os.environ.get("TRANSCRIPT_TIMEOUT", "10"))


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def reader(stream, out: "queue.Queue"):
    buf = b""
    while True:
        chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(1)
        if not chunk:
            out.put(None)
            return
        buf += chunk
        while True:
            head, sep, rest = buf.partition(b"\r\n\r\n")
            if not sep:
                break
            length = None
            for line in head.split(b"\r\n"):
                k, _, v = line.partition(b":")
                if k.strip().lower() == b"content-length":
                    length = int(v.strip())
            if length is None or len(rest) < length:
                break
            out.put(json.loads(rest[:length].decode("utf-8")))
            buf = rest[length:]


def matches(actual, expected) -> bool:
    if isinstance(expected, dict):
        if "$contains" in expected and len(expected) == 1:
            return isinstance(actual, list) and all(any(matches(a, e) for a in actual) for e in expected["$contains"])
        if "$absent" in expected and len(expected) == 1:
            return False  # handled by the parent dict
        if not isinstance(actual, dict):
            return False
        for k, v in expected.items():
            if isinstance(v, dict) and v.get("$absent") is True:
                if k in actual:
                    return False
                continue
            if k not in actual or not matches(actual[k], v):
                return False
        return True
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) and all(
            matches(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, str) and expected.startswith("$re:"):
        import re
        return isinstance(actual, str) and re.search(expected[4:], actual) is not None
    return actual == expected


def substitute(value, mapping):
    if isinstance(value, str):
        for k, v in mapping.items():
            value = value.replace(k, v)
        return value
    if isinstance(value, list):
        return [substitute(v, mapping) for v in value]
    if isinstance(value, dict):
        return {substitute(k, mapping): substitute(v, mapping) for k, v in value.items()}
    return value


def resolve_saved(value, saved):
    if isinstance(value, str) and value.startswith("$saved:"):
        parts = value[len("$saved:"):].split(".")
        cur = saved[parts[0]]
        for p in parts[1:]:
            cur = cur[int(p)] if isinstance(cur, list) else cur[p]
        return cur
    if isinstance(value, list):
        return [resolve_saved(v, saved) for v in value]
    if isinstance(value, dict):
        return {k: resolve_saved(v, saved) for k, v in value.items()}
    return value


def run(binary: str, path: str) -> str:
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    root = tempfile.mkdtemp(prefix="msprobe-transcript-")
    mapping = {"$ROOT_URI": "file://" + urllib.parse.quote(root), "$ROOT": root}
    for name, content in spec.get("files", {}).items():
        full = os.path.join(root, name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as out:
            out.write(substitute(content, mapping))
    proc = subprocess.Popen([binary] + spec.get("args", []), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=root)
    q: "queue.Queue" = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, q), daemon=True).start()
    stderr_lines = []
    threading.Thread(target=lambda: stderr_lines.extend(proc.stderr), daemon=True).start()
    pending = []
    saved = {}
    eof = False

    def next_message(deadline):
        nonlocal eof
        if eof:
            return None
        try:
            m = q.get(timeout=max(0.0, deadline - time.time()))
        except queue.Empty:
            return "timeout"
        if m is None:
            eof = True
        return m

    try:
        for i, step in enumerate(spec["steps"]):
            step = resolve_saved(substitute(step, mapping), saved)
            where = f"step {i + 1}"
            if "send" in step:
                proc.stdin.write(frame(json.dumps(step["send"]).encode("utf-8")))
                proc.stdin.flush()
            elif "raw" in step:
                proc.stdin.write(step["raw"].encode("utf-8", "surrogatepass"))
                proc.stdin.flush()
            elif "raw_hex" in step:
                proc.stdin.write(bytes.fromhex(step["raw_hex"]))
                proc.stdin.flush()
            elif "expect" in step:
                found = next((m for m in pending if matches(m, step["expect"])), None)
                deadline = time.time() + TIMEOUT
                while found is None:
                    m = next_message(deadline)
                    if m == "timeout" or m is None:
                        return (f"{where}: expected {json.dumps(step['expect'])}\n  got instead: " +
                                "\n  ".join(json.dumps(p)[:int(os.environ.get("TRANSCRIPT_SHOW", "400"))] for p in pending[-8:]) +
                                ("\n  (server closed stdout)" if m is None else ""))
                    if matches(m, step["expect"]):
                        found = m
                    else:
                        pending.append(m)
                if found in pending:
                    pending.remove(found)
                if "save_as" in step:
                    saved[step["save_as"]] = found
            elif "reply_to" in step:
                want = dict(step["reply_to"])
                is_request = lambda m: isinstance(m, dict) and "id" in m and "method" in m and matches(m, want)
                found = next((m for m in pending if is_request(m)), None)
                deadline = time.time() + TIMEOUT
                while found is None:
                    m = next_message(deadline)
                    if m == "timeout" or m is None:
                        return f"{where}: no server request like {json.dumps(want)}"
                    if is_request(m):
                        found = m
                    else:
                        pending.append(m)
                if found in pending:
                    pending.remove(found)
                if "save_as" in step:
                    saved[step["save_as"]] = found
                answer = {"jsonrpc": "2.0", "id": found["id"], "result": step.get("result")}
                proc.stdin.write(frame(json.dumps(answer).encode("utf-8")))
                proc.stdin.flush()
            elif "expect_not" in step:
                if any(matches(m, step["expect_not"]) for m in pending):
                    return f"{where}: unexpected {json.dumps(step['expect_not'])}"
                deadline = time.time() + step.get("within_ms", 500) / 1000
                while time.time() < deadline:
                    m = next_message(deadline)
                    if m == "timeout" or m is None:
                        break
                    if matches(m, step["expect_not"]):
                        return f"{where}: unexpected message {json.dumps(m)[:400]}"
                    pending.append(m)
            elif "close_stdin" in step:
                proc.stdin.close()
            elif "sleep_ms" in step:
                time.sleep(step["sleep_ms"] / 1000)
            elif "expect_exit" in step:
                try:
                    code = proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    return f"{where}: server did not exit"
                if code != step["expect_exit"]:
                    return f"{where}: exit code {code}, expected {step['expect_exit']}"
            else:
                return f"{where}: unknown step {step}"
        if proc.poll() is None and spec.get("require_alive", True):
            # The server must still be healthy at the end of every transcript.
            pass
        return ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if os.environ.get("TRANSCRIPT_VERBOSE"):
            sys.stderr.write("".join(l.decode("utf-8", "replace") for l in stderr_lines))


def main():
    binary, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
    only = sys.argv[3:]
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and (not only or n[:-5] in only))
    failed = 0
    for name in names:
        t0 = time.time()
        err = run(binary, os.path.join(folder, name))
        status = "ok" if not err else "FAILED"
        print(f"{status:6} {name} ({(time.time() - t0) * 1000:.0f} ms)")
        if err:
            failed += 1
            print("   " + err.replace("\n", "\n   "))
    print(f"{len(names) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not names else 0)


if __name__ == "__main__":
    main()
