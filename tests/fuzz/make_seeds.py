#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from the project's own test data:

  corpus/frame_reader/  the byte streams of the LSP transcripts (tests/lsp/*.json),
                        framed as the runner frames them, raw framing steps included
  corpus/server/        the same transcripts as line-mode inputs of fuzz_server
                        (first byte 0x00, then one JSON-RPC body per line)
  corpus/incremental/   corpus scripts cut to 1,000 bytes with a few edits appended, alone and
                        as a project's file

fuzz_analysis takes tests/corpus/scripts, tests/rules/fixtures and
tests/config directly. Rerun after changing the transcripts:
  python3 tests/fuzz/make_seeds.py
"""
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def write(target, data: bytes):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def transcript_streams():
    lsp = os.path.join(TESTS, "lsp")
    for name in sorted(os.listdir(lsp)):
        if not name.endswith(".json"):
            continue
        spec = json.load(open(os.path.join(lsp, name), encoding="utf-8"))
        stream, lines = b"", []
        for step in spec.get("steps", []):
            if "send" in step:
                body = json.dumps(step["send"], ensure_ascii=False).encode("utf-8")
            elif "body" in step:
                body = step["body"].encode("utf-8", "surrogatepass")
            elif "body_hex" in step:
                body = bytes.fromhex(step["body_hex"])
            elif "raw" in step:
                stream += step["raw"].encode("utf-8", "surrogatepass")
                continue
            elif "raw_hex" in step:
                stream += bytes.fromhex(step["raw_hex"])
                continue
            else:
                continue
            stream += frame(body)
            if b"\n" not in body:
                lines.append(body)
        yield name, stream, lines


def main():
    for target in ("frame_reader", "server", "incremental"):
        shutil.rmtree(os.path.join(HERE, "corpus", target), ignore_errors=True)
    for name, stream, lines in transcript_streams():
        if len(stream) < 60000:
            write("frame_reader", b"\x07" + stream)
            write("server", b"\x01" + stream)
        if lines:
            write("server", b"\x00" + b"\n".join(lines)[:60000])
    scripts = os.path.join(TESTS, "corpus", "scripts")
    for name in sorted(os.listdir(scripts))[:20]:
        base = open(os.path.join(scripts, name), "rb").read()[:1000]
        # 2-byte length, the base, then edits: [pos hi, pos lo, op]; op >> 3 picks a token.
        edits = bytes([0, 40, 0 << 3, 0, 41, (1 << 3) | 2, 0, 90, (10 << 3), 1, 0, (12 << 3) | 1])
        write("incremental", len(base).to_bytes(2, "big") + base + edits)
        # The same base as a project's file (top bit of the first byte), edits that keep it clean.
        clean = bytes([0, 200, 2 << 3, 1, 44, (6 << 3), 0, 120, 7, 2, 0, (2 << 3) | 1, 1, 180, (30 << 3) | 1, 0x30])
        write("incremental", (0x80 | len(base) >> 8).to_bytes(1, "big") + bytes([len(base) & 0xFF]) + base + clean)
    for target in ("frame_reader", "server", "incremental"):
        print(target, len(os.listdir(os.path.join(HERE, "corpus", target))), "seeds")


if __name__ == "__main__":
    main()
