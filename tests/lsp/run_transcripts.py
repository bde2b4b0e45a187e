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
  {"expect": SUBSET, "before": OTHER?}
                             wait for a message that contains SUBSET (dicts match by subset,
                             lists element-wise and equal length unless {"$contains": [...]});
                             with "before", no message matching OTHER may have arrived first
                             (e.g. "answered while the analysis runs": before its publish)
  {"expect_not": SUBSET, "until": OTHER}
                             no such message arrives before one matching OTHER (a reply the
                             server sends after the unwanted message would have been sent);
                             OTHER stays queued for the next steps
  {"expect_not": SUBSET, "within_ms": N}  no such message arrives within N ms (only where
                             nothing the server sends later can serve as "until")
  {"poll": REQUEST, "expect": SUBSET}
                             send REQUEST (a fresh id each time) until its answer contains SUBSET,
                             for what the server does in the background and announces with no
                             message (e.g. the environment probe finishing)
  {"close_stdin": true}      close the server's stdin
  {"expect_exit": CODE, "timeout_s": T?}  the server exits with CODE within T (60) s
  {"sleep_ms": N}
  {"expect_stderr": "REGEX", "timeout_s": T?}  the server's stderr matches REGEX within T (60) s
  {"expect": SUBSET, "save": {"$NAME": "result.resultId"}}  remember a value of the matched
                             message; later steps replace "$NAME" with it
  {"reply_to": SUBSET, "result": VALUE}   wait for a server->client request matching SUBSET
                             (e.g. {"method": "window/showMessageRequest"}) and answer it with
                             VALUE (or with "error": {...}); add "apply": true to a
                             workspace/applyEdit to carry the edit out on disk first (create
                             files, text edits; "applied" reports whether that worked)
  {"write_file": {"path": P, "content": TEXT}}   write a file in the workspace
  {"expect_file": {"path": P, "contains": [TEXT...]}} / {"expect_no_file": P}
  {"assert_pid_dead": FILE}  the process whose pid FILE holds is gone (within 30 s)
"$TESTS" is replaced with the tests/ folder; a string "$text:PATH" is replaced with the content of
the file tests/PATH (a document too long to write inline). "env" in the spec adds environment variables for
the server. "files" entries whose name ends in "!x" are written executable (the suffix is dropped).
Lists match with {"$contains": [...]} and/or {"$none": [...]}.
Strings "$ROOT_URI" and "$ROOT" are replaced with a temporary workspace folder; a string
"$saved:NAME.key.0.key" is replaced by that part of a saved message (any JSON value), kept by
{"expect": SUBSET, "save_as": NAME} or {"reply_to": SUBSET, ..., "save_as": NAME}.
Messages that do not match an expectation stay queued for later expectations.
Every outgoing message must be valid UTF-8 JSON, and stdout must hold nothing but
framed messages (no log text). A transcript fails if the server
dies without an expect_exit step, or if its stderr holds a sanitizer report.
Nothing here measures time: the timeouts only guard against a hang (TRANSCRIPT_TIMEOUT,
default 60 s, for each expectation), so a slow or loaded machine never fails a transcript;
latency figures belong in scripts/bench.sh.
"""
import json
import signal
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TIMEOUT = float(os.environ.get("TRANSCRIPT_TIMEOUT", "60"))
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
        if expected and set(expected) <= {"$contains", "$none"}:
            # A list that has a match for each of "$contains" and none for any of "$none".
            return isinstance(actual, list) and all(
                any(matches(a, e) for a in actual) for e in expected.get("$contains", [])) and not any(
                matches(a, e) for a in actual for e in expected.get("$none", []))
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
    if isinstance(value, str) and value.startswith("$text:"):
        # The whole content of a file under tests/ (a document too long to write inline).
        with open(os.path.join(mapping["$TESTS"], value[len("$text:"):]), encoding="utf-8") as f:
            return f.read()
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


def position_offset(text: str, pos) -> int:
    """Offset of an LSP position (utf-16 columns) in `text`."""
    lines = text.split("\n")
    line = min(pos["line"], len(lines) - 1) if lines else 0
    offset = sum(len(l) + 1 for l in lines[:line])
    units = 0
    col = 0
    for ch in lines[line] if lines else "":
        if units >= pos["character"]:
            break
        units += 2 if ord(ch) > 0xFFFF else 1
        col += 1
    return offset + col


def apply_workspace_edit(edit) -> (bool, str):
    """Carries out a WorkspaceEdit on disk (create/text edits/changes), as an editor would."""
    def path_of(uri):
        return urllib.parse.unquote(uri[len("file://"):])

    def edit_text(path, edits):
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                        reverse=True):
            a, b = position_offset(text, e["range"]["start"]), position_offset(text, e["range"]["end"])
            text = text[:a] + e["newText"] + text[b:]
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    for change in edit.get("documentChanges", []):
        if change.get("kind") == "create":
            p = path_of(change["uri"])
            opts = change.get("options", {})
            if os.path.exists(p) and not opts.get("overwrite") and not opts.get("ignoreIfExists"):
                return False, "file exists"
            if not os.path.exists(p) or opts.get("overwrite"):
                os.makedirs(os.path.dirname(p), exist_ok=True)  # editors create missing folders
                open(p, "w").close()
        elif "textDocument" in change:
            edit_text(path_of(change["textDocument"]["uri"]), change["edits"])
        else:
            return False, "unsupported change"
    for uri, edits in edit.get("changes", {}).items():
        edit_text(path_of(uri), edits)
    return True, ""


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
    tests = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    mapping = {"$ROOT_URI": "file://" + urllib.parse.quote(root), "$ROOT": root, "$TESTS": tests}
    for name, content in spec.get("files", {}).items():
        executable = name.endswith("!x")
        full = os.path.join(root, name[:-2] if executable else name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as out:
            out.write(substitute(content, mapping))
        if executable:
            os.chmod(full, 0o755)
    env = dict(os.environ)
    env.update(substitute(spec.get("env", {}), mapping))
    proc = subprocess.Popen([binary] + substitute(spec.get("args", []), mapping), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root, env=env)
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
    root = mapping["$ROOT"]
    saved = {}
    exit_expected = False
    for i, step in enumerate(spec["steps"]):
        step = resolve_saved(substitute(step, mapping), saved)
        where = f"step {i + 1}"
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
        elif "poll" in step:
            deadline = time.time() + TIMEOUT
            attempt, last = 0, None
            while True:
                attempt += 1
                ident = f"poll-{i + 1}-{attempt}"
                write(frame(json.dumps({**step["poll"], "id": ident}).encode("utf-8")))
                answer = None
                while answer is None:
                    m = next_message(deadline)
                    if m == "timeout" or m is None:
                        return f"{where}: no answer matching {json.dumps(step['expect'])}; last: {json.dumps(last)[:400]}"
                    if isinstance(m, dict) and m.get("id") == ident and "method" not in m:
                        answer = m
                    else:
                        pending.append(m)
                last = answer
                if matches(answer, step["expect"]):
                    break
                time.sleep(0.05)
        elif "reply_to" in step:
            want = step["reply_to"]
            is_request = lambda m: isinstance(m, dict) and "method" in m and "id" in m and matches(m, want)
            found = next((m for m in pending if is_request(m)), None)
            deadline = time.time() + TIMEOUT
            while found is None:
                m = next_message(deadline)
                if m == "timeout" or m is None:
                    return (f"{where}: expected a request {json.dumps(want)}\n  got instead: " +
                            "\n  ".join(json.dumps(p)[:int(os.environ.get("TRANSCRIPT_SHOW", "400"))] for p in pending[-8:]))
                if is_request(m):
                    found = m
                else:
                    pending.append(m)
            if found in pending:
                pending.remove(found)
            if "save_as" in step:
                saved[step["save_as"]] = found
            if step.get("apply"):
                ok, why = apply_workspace_edit(found["params"]["edit"])
                answer = {"applied": ok}
                if not ok:
                    answer["failureReason"] = why
                reply = {"jsonrpc": "2.0", "id": found["id"], "result": answer}
            elif "error" in step:
                reply = {"jsonrpc": "2.0", "id": found["id"], "error": step["error"]}
            else:
                reply = {"jsonrpc": "2.0", "id": found["id"], "result": step.get("result")}
            write(frame(json.dumps(reply).encode("utf-8")))
        elif "write_file" in step:
            full = os.path.join(root, step["write_file"]["path"])
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as out:
                out.write(step["write_file"]["content"])
        elif "expect_file" in step:
            full = os.path.join(root, step["expect_file"]["path"])
            if not os.path.exists(full):
                return f"{where}: {full} does not exist"
            text = open(full, encoding="utf-8").read()
            for piece in step["expect_file"].get("contains", []):
                if piece not in text:
                    return f"{where}: {full} lacks {piece!r}:\n{text}"
        elif "expect_no_file" in step:
            if os.path.exists(os.path.join(root, step["expect_no_file"])):
                return f"{where}: {step['expect_no_file']} exists"
        elif "assert_pid_dead" in step:
            pid_file = step["assert_pid_dead"]
            if not os.path.exists(pid_file):
                return f"{where}: no pid file {pid_file}"
            pid = int(open(pid_file).read().strip())
            deadline = time.time() + 30
            while True:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                if time.time() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    return f"{where}: process {pid} is still running"
                time.sleep(0.05)
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
            if "before" in step:
                ahead = pending[:pending.index(found)] if found in pending else pending
                early = next((m for m in ahead if matches(m, step["before"])), None)
                if early is not None:
                    return (f"{where}: {json.dumps(step['expect'])} came after {json.dumps(early)[:400]}, "
                            f"which must not come first")
            if found in pending:
                pending.remove(found)
            if "save_as" in step:
                saved[step["save_as"]] = found
            for name, dotted in step.get("save", {}).items():
                value = found
                for part in dotted.split("."):
                    value = value[part]
                mapping[name] = value if isinstance(value, str) else json.dumps(value)
        elif "expect_not" in step and "until" in step:
            deadline = time.time() + TIMEOUT
            while not any(matches(m, step["until"]) for m in pending):
                m = next_message(deadline)
                if m == "timeout" or m is None:
                    return (f"{where}: expected {json.dumps(step['until'])}\n  got instead: " +
                            "\n  ".join(json.dumps(p)[:400] for p in pending[-8:]))
                pending.append(m)
            until = next(k for k, m in enumerate(pending) if matches(m, step["until"]))
            bad = next((m for m in pending[:until] if matches(m, step["expect_not"])), None)
            if bad is not None:
                return f"{where}: unexpected message {json.dumps(bad)[:400]}"
        elif "expect_not" in step:
            if any(matches(m, step["expect_not"]) for m in pending):
                return f"{where}: unexpected {json.dumps(step['expect_not'])}"
            deadline = time.time() + step["within_ms"] / 1000
            while time.time() < deadline:
                m = next_message(deadline)
                if m == "timeout" or m is None:
                    break
                if matches(m, step["expect_not"]):
                    return f"{where}: unexpected message {json.dumps(m)[:400]}"
                pending.append(m)
        elif "expect_stderr" in step:
            deadline = time.time() + step.get("timeout_s", 60)
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
                code = proc.wait(timeout=step.get("timeout_s", 60))
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
