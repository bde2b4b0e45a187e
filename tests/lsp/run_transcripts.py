#!/usr/bin/env python3
"""Runs LSP transcripts against the real msprobe-lsp binary.

A transcript (tests/lsp/*.json) is a list of steps:
  {"send": MESSAGE}          send one JSON-RPC message (framed)
  {"raw": "TEXT"}            send raw bytes (for framing tests); "{{LEN:body}}" is not expanded
  {"expect": SUBSET}         wait for a message that contains SUBSET (dicts match by subset,
                             lists element-wise and equal length unless {"$contains": [...]}
                             and/or {"$none": [...]} is used)
  {"expect_not": SUBSET, "within_ms": N}  no such message arrives within N ms
  {"close_stdin": true}      close the server's stdin
  {"expect_exit": CODE}      the server exits with CODE within 5 s
  {"sleep_ms": N}
  {"expect": SUBSET, "within_ms": N}  as "expect", but it must arrive within N ms
  {"expect": SUBSET, "save": {"$NAME": "result.resultId"}}  remember a value of the matched
                             message; later steps replace "$NAME" with it
  {"reply_to": SUBSET, "result": VALUE}   wait for a server->client request matching SUBSET
                             (e.g. {"method": "window/showMessageRequest"}) and answer it with
                             VALUE (or with "error": {...}); add "apply": true to a
                             workspace/applyEdit to carry the edit out on disk first (create
                             files, text edits; "applied" reports whether that worked)
  {"write_file": {"path": P, "content": TEXT}}   write a file in the workspace
  {"expect_file": {"path": P, "contains": [TEXT...]}} / {"expect_no_file": P}
  {"assert_pid_dead": FILE}  the process whose pid FILE holds is gone (within 2 s)
Strings "$ROOT_URI" and "$ROOT" are replaced with a temporary workspace folder, "$TESTS" with
the tests/ folder. "env" in the spec adds environment variables for the server. "files"
entries whose name ends in "!x" are written executable (the suffix is dropped).
Messages that do not match an expectation stay queued for later expectations.
"""
import json
import os
import signal
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
    proc = subprocess.Popen([binary] + spec.get("args", []), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=root, env=env)
    q: "queue.Queue" = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, q), daemon=True).start()
    stderr_lines = []
    threading.Thread(target=lambda: stderr_lines.extend(proc.stderr), daemon=True).start()
    pending = []
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
            step = substitute(step, mapping)
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
            elif "reply_to" in step:
                want = step["reply_to"]
                is_request = lambda m: isinstance(m, dict) and "method" in m and "id" in m and matches(m, want)
                found = next((m for m in pending if is_request(m)), None)
                deadline = time.time() + TIMEOUT
                while found is None:
                    m = next_message(deadline)
                    if m == "timeout" or m is None:
                        return (f"{where}: expected a request {json.dumps(want)}\n  got instead: " +
                                "\n  ".join(json.dumps(p)[:400] for p in pending[-8:]))
                    if is_request(m):
                        found = m
                    else:
                        pending.append(m)
                if found in pending:
                    pending.remove(found)
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
                proc.stdin.write(frame(json.dumps(reply).encode("utf-8")))
                proc.stdin.flush()
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
                deadline = time.time() + 2
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
                deadline = time.time() + (step["within_ms"] / 1000 if "within_ms" in step else TIMEOUT)
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
                for name, dotted in step.get("save", {}).items():
                    value = found
                    for part in dotted.split("."):
                        value = value[part]
                    mapping[name] = value if isinstance(value, str) else json.dumps(value)
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
