#!/usr/bin/env python3
"""Process-level behaviour of the real binary:

  - it exits when the client process named by --clientProcessId=PID (or by
    initialize's processId) dies, tested with a short-lived parent process;
  - --stdio and --clientProcessId are accepted as vscode-languageclient passes them;
  - --log-file / --log-level: logs go to the file or stderr, never to stdout;
    bad values are refused with exit code 2.

Usage: test_process.py BINARY
Nothing is timed: the client process dies when the test kills it, and the waits for the
server only guard against a hang.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import HANG_GUARD, Client, sanitizer_report  # noqa: E402

failures = []


def check(name, cond, detail=""):
    print(f"  {'ok' if cond else 'FAILED':6} {name}" + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(f"{name}: {detail}")


def client_process():
    """A stand-in client process that lives until end_client_process() kills it (and reaps it,
    so its pid is really gone): the server sees it alive for as long as the test needs."""
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])


def end_client_process(parent):
    parent.kill()
    parent.wait()


def wait_exit(c, timeout):
    try:
        return c.proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def parent_death_flag(binary):
    print("--clientProcessId=PID")
    parent = client_process()
    c = Client(binary, ["--stdio", f"--clientProcessId={parent.pid}"])
    r = c.call("initialize", {"processId": None, "capabilities": {}})
    check("server runs while the client process lives", r is not None and "result" in r)
    end_client_process(parent)
    t_dead = time.time()
    code = wait_exit(c, HANG_GUARD)
    took = time.time() - t_dead
    print(f"  the server exited {took:.2f} s after its client process ended")
    check("server exits when the client process is gone", code is not None, f"still running after {HANG_GUARD:.0f} s")
    check("exit code 1 (no shutdown)", code == 1, f"{code}")
    check("the log says why", "client process" in c.stderr_text(), c.stderr_text()[-500:])
    check("no sanitizer report", not sanitizer_report(c.stderr_text()), sanitizer_report(c.stderr_text()))
    c.kill()


def parent_death_initialize(binary):
    print("initialize processId")
    parent = client_process()
    c = Client(binary)
    r = c.call("initialize", {"processId": parent.pid, "capabilities": {}})
    check("initialize answered", r is not None and "result" in r)
    info = c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
    check("server answers while the client process lives", info is not None and "result" in info)
    end_client_process(parent)
    t_dead = time.time()
    code = wait_exit(c, HANG_GUARD)
    print(f"  the server exited {time.time() - t_dead:.2f} s after its client process ended")
    check("server exits when processId is gone", code == 1, f"{code}")
    c.kill()


def live_parent_keeps_server(binary):
    print("a live client process keeps the server running")
    c = Client(binary, [f"--clientProcessId={os.getpid()}"])
    c.initialize()
    time.sleep(2.5)  # two watch periods
    info = c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
    check("still answering after 2.5 s", info is not None and "result" in info)
    check("clean exit", c.close() == 0)


def bogus_process_ids(binary):
    print("processId values that are not usable pids are ignored")
    for pid in ("0", "-1", "abc"):
        c = Client(binary, [f"--clientProcessId={pid}"])
        r = c.call("initialize", {"processId": None, "capabilities": {}})
        check(f"--clientProcessId={pid} accepted", r is not None and "result" in r, c.stderr_text()[-300:])
        check(f"--clientProcessId={pid}: clean exit", c.close() == 0)
    for pid in (0, -5, 2 ** 40, 1.5, "12"):
        c = Client(binary)
        r = c.call("initialize", {"processId": pid, "capabilities": {}})
        time.sleep(1.3)
        info = c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
        check(f"processId {pid!r} ignored, server alive", info is not None and "result" in info)
        check(f"processId {pid!r}: clean exit", c.close() == 0)


def logging(binary):
    print("--log-file / --log-level")
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "server.log")
        c = Client(binary, ["--log-file", log, "--log-level", "debug"])
        c.initialize()
        c.write(b"Content-Length: 3\r\n\r\n{x}")  # a parse error is logged
        c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
        code = c.close()
        check("clean exit", code == 0, f"{code}")
        text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
        check("the log file has the session", "started" in text and "exiting with code 0" in text, text[-500:])
        check("nothing logged to stderr with a log file", c.stderr_text().strip() == "", c.stderr_text()[-300:])
        check("stdout holds only protocol messages", not c.invalid, str(c.invalid[:2]))

        c = Client(binary, ["--log-level=warn"])
        c.initialize()
        c.write(b"Content-Length: 3\r\n\r\n{x}")
        c.call("workspace/executeCommand", {"command": "msprobe.showInfo"})
        c.close()
        err = c.stderr_text()
        check("warnings go to stderr", "not valid JSON" in err, err[-300:])
        check("info is filtered at warn level", "started" not in err, err[-300:])
        check("stdout holds only protocol messages (stderr logging)", not c.invalid, str(c.invalid[:2]))

        p = subprocess.run([binary, "--log-level", "loud"], capture_output=True, text=True, timeout=HANG_GUARD, input="")
        check("unknown log level -> exit 2", p.returncode == 2 and "log level" in p.stderr, p.stderr)
        open(os.path.join(d, "a-file"), "w").close()
        p = subprocess.run([binary, "--log-file", os.path.join(d, "a-file", "x.log")],
                           capture_output=True, text=True, timeout=HANG_GUARD, input="")
        check("unwritable log file -> exit 2", p.returncode == 2 and "log file" in p.stderr, p.stderr)
        check("usage errors print nothing on stdout", p.stdout == "", p.stdout)


def main():
    binary = os.path.abspath(sys.argv[1])
    parent_death_flag(binary)
    parent_death_initialize(binary)
    live_parent_keeps_server(binary)
    bogus_process_ids(binary)
    logging(binary)
    for f in failures:
        print("FAILED", f)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
