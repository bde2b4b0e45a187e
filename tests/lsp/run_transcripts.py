#!/usr/bin/env python3
"""Runs LSP transcripts against the real msprobe-lsp binary.

A transcript (tests/lsp/*.json) is {"description", "args"?, "files"?, "steps"}; steps:
  {"send": MESSAGE}          send one JSON-RPC message (framed)
  {"send_repeat": MESSAGE, "count": N, "start": S}
                             send N copies at once; a string value "$I" becomes the integer S+i
  {"body": "TEXT"}           frame TEXT as the body verbatim (for invalid JSON, lone
                             surrogate escapes, ...); the length is computed
  {"body_hex": "HEX"}        frame these bytes as the body (for invalid UTF-8)
  {"raw": "TEXT"}            send raw bytes, framing included (for framing tests)
  {"raw_hex": "HEX"}         the same, as hex
  {"expect": SUBSET, "within_ms": N?}
                             wait for a message that contains SUBSET (dicts match by subset,
                             lists element-wise and equal length unless {"$contains": [...]});
                             with within_ms it must arrive that soon after the previous step
  {"expect_not": SUBSET, "within_ms": N}  no such message arrives within N ms
  {"close_stdin": true}      close the server's stdin
  {"expect_exit": CODE, "timeout_s": T?}  the server exits with CODE within T (5) s
  {"sleep_ms": N}
  {"expect_stderr": "REGEX", "timeout_s": T?}  the server's stderr matches REGEX within T (5) s
Strings "$ROOT_URI" and "$ROOT" are replaced with a temporary workspace folder.
Messages that do not match an expectation stay queued for later expectations.
Every outgoing message must be valid UTF-8 JSON, and stdout must hold nothing but
framed messages (no log text). A transcript fails if the server
dies without an expect_exit step, or if its stderr holds a sanitizer report.
TRANSCRIPT_TIME_SCALE (default 1) multiplies every within_ms of an "expect"
step (slow sanitizer builds).
"""
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TIMEOUT = float(os.environ.get("TRANSCRIPT_TIMEOUT", "10"))
TIME_SCALE = float(os.environ.get("TRANSCRIPT_TIME_SCALE", "1"))
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "WARNING: ThreadSanitizer")


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
                elif k.strip().lower() != b"content-type":
                    out.put({"$invalid": f"non-protocol text on stdout: {line[:200]!r}"})
            if length is None:
                out.put({"$invalid": f"a header block without Content-Length on stdout: {head[:200]!r}"})
                buf = rest
                continue
            if len(rest) < length:
                break
            body = rest[:length]
            buf = rest[length:]
            try:
                out.put(json.loads(body.decode("utf-8")))
            except (UnicodeDecodeError, ValueError) as e:
                out.put({"$invalid": f"{e}: {body[:200]!r}"})


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


def with_counter(value, i):
    if value == "$I":
        return i
    if isinstance(value, list):
        return [with_counter(v, i) for v in value]
    if isinstance(value, dict):
        return {k: with_counter(v, i) for k, v in value.items()}
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
    proc = subprocess.Popen([binary] + substitute(spec.get("args", []), mapping), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
    q: "queue.Queue" = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, q), daemon=True).start()
    stderr_lines = []
    stderr_thread = threading.Thread(target=lambda: stderr_lines.extend(proc.stderr), daemon=True)
    stderr_thread.start()
    pending = []
    eof = False

    def write(data: bytes):
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except BrokenPipeError:
            pass  # the server is gone; the next expectation reports it

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
        elif isinstance(m, dict) and "$invalid" in m:
            raise AssertionError("the server sent a message that is not valid UTF-8 JSON: " + m["$invalid"])
        return m

    try:
        result = run_steps(spec, mapping, proc, pending, next_message, write,
                           lambda: b"".join(stderr_lines).decode("utf-8", "replace"))
    except AssertionError as e:
        result = str(e)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr_thread.join(timeout=5)
    err_text = b"".join(stderr_lines).decode("utf-8", "replace")
    if os.environ.get("TRANSCRIPT_VERBOSE"):
        sys.stderr.write(err_text)
    for marker in SANITIZER_MARKERS:
        if marker in err_text:
            at = err_text.index(marker)
            result += "\nsanitizer report in the server's stderr:\n" + err_text[max(0, at - 300):at + 3000]
            break
    return result


def run_steps(spec, mapping, proc, pending, next_message, write, stderr_text) -> str:
    exit_expected = False
    step_start = time.time()
    for i, step in enumerate(spec["steps"]):
        step = substitute(step, mapping)
        where = f"step {i + 1}"
        if "expect" not in step:
            step_start = time.time()
        if "send" in step:
            write(frame(json.dumps(step["send"]).encode("utf-8")))
        elif "send_repeat" in step:
            start = step.get("start", 0)
            write(b"".join(frame(json.dumps(with_counter(step["send_repeat"], start + k)).encode("utf-8"))
                           for k in range(step["count"])))
        elif "body" in step:
            write(frame(step["body"].encode("utf-8", "surrogatepass")))
        elif "body_hex" in step:
            write(frame(bytes.fromhex(step["body_hex"])))
        elif "raw" in step:
            write(step["raw"].encode("utf-8", "surrogatepass"))
        elif "raw_hex" in step:
            write(bytes.fromhex(step["raw_hex"]))
        elif "expect" in step:
            found = next((m for m in pending if matches(m, step["expect"])), None)
            deadline = time.time() + TIMEOUT
            while found is None:
                m = next_message(deadline)
                if m == "timeout" or m is None:
                    return (f"{where}: expected {json.dumps(step['expect'])}\n  got instead: " +
                            "\n  ".join(json.dumps(p)[:400] for p in pending[-8:]) +
                            ("\n  (server closed stdout)" if m is None else ""))
                if matches(m, step["expect"]):
                    found = m
                else:
                    pending.append(m)
            if found in pending:
                pending.remove(found)
            if "within_ms" in step:
                took = (time.time() - step_start) * 1000
                if took > step["within_ms"] * TIME_SCALE:
                    return f"{where}: {json.dumps(step['expect'])} took {took:.0f} ms (limit {step['within_ms']} ms)"
            step_start = time.time()
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
        elif "expect_stderr" in step:
            deadline = time.time() + step.get("timeout_s", 5) * TIME_SCALE
            while not re.search(step["expect_stderr"], stderr_text()):
                if time.time() > deadline:
                    return f"{where}: stderr does not match {step['expect_stderr']!r}:\n{stderr_text()[-2000:]}"
                time.sleep(0.02)
        elif "close_stdin" in step:
            proc.stdin.close()
        elif "sleep_ms" in step:
            time.sleep(step["sleep_ms"] / 1000)
        elif "expect_exit" in step:
            exit_expected = True
            try:
                code = proc.wait(timeout=step.get("timeout_s", 5) * TIME_SCALE)
            except subprocess.TimeoutExpired:
                return f"{where}: server did not exit"
            if code != step["expect_exit"]:
                return f"{where}: exit code {code}, expected {step['expect_exit']}"
        else:
            return f"{where}: unknown step {step}"
    if not exit_expected and proc.poll() is not None:
        return f"the server exited unexpectedly with code {proc.returncode}"
    return ""


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
