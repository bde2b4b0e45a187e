"""A minimal LSP client for tests that need volume or processes (stress, pathological
files, parent-process watching): starts the real binary, frames messages, reads
replies on a thread and waits for messages matching a predicate. Its timeouts only
guard against a hang (HANG_GUARD seconds): they measure nothing, so a slow or loaded
machine never fails a test."""
import json
import os
import queue
import subprocess
import threading
import time

HANG_GUARD = 120.0


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Client:
    def __init__(self, binary, args=(), cwd=None, env=None):
        self.proc = subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.q = queue.Queue()
        self.pending = []
        self.stderr = []
        self.invalid = []  # bodies that were not valid UTF-8 / JSON
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()
        self.next_id = 1

    def _read(self):
        stream = self.proc.stdout
        buf = b""
        while True:
            chunk = stream.read1(1 << 16)
            if not chunk:
                self.q.put(None)
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
                body = rest[:length]
                buf = rest[length:]
                try:
                    msg = json.loads(body.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as e:
                    self.invalid.append((body[:200], str(e)))
                    continue
                msg["_t"] = time.time()
                self.q.put(msg)

    def write(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        self.write(frame(json.dumps(msg).encode("utf-8")))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return i

    def wait(self, pred, timeout=HANG_GUARD):
        """The first message (queued or new) for which pred is true, or None on timeout/EOF."""
        for m in self.pending:
            if pred(m):
                self.pending.remove(m)
                return m
        deadline = time.time() + timeout
        while True:
            try:
                m = self.q.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                return None
            if m is None:
                self.q.put(None)
                return None
            if pred(m):
                return m
            self.pending.append(m)

    def response(self, rid, timeout=HANG_GUARD):
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def call(self, method, params, timeout=HANG_GUARD):
        return self.response(self.request(method, params), timeout)

    def initialize(self, init_options=None, capabilities=None, **extra):
        params = {"processId": None, "capabilities": capabilities or {}, **extra}
        if init_options is not None:
            params["initializationOptions"] = init_options
        r = self.call("initialize", params)
        assert r and "result" in r, f"initialize failed: {r}"
        self.notify("initialized", {})
        return r

    def diagnostics(self, uri, version=None, timeout=HANG_GUARD):
        def pred(m):
            if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
                return False
            return version is None or m["params"].get("version") == version
        return self.wait(pred, timeout)

    def close(self, timeout=HANG_GUARD):
        """Shuts the server down politely; returns its exit code."""
        if self.proc.poll() is None:
            try:
                self.call("shutdown", None, timeout=timeout)
                self.notify("exit", None)
            except (BrokenPipeError, OSError):
                pass
            try:
                return self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_text(self):
        return b"".join(self.stderr).decode("utf-8", "replace")


def sanitizer_report(text: str) -> str:
    """The first sanitizer report in a stderr text, or ''."""
    for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "ThreadSanitizer"):
        i = text.find(marker)
        if i >= 0:
            return text[max(0, i - 200):i + 2000]
    return ""


def peak_rss_kb(pid) -> int:
    """VmHWM of a live process, in KiB (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
