"""Golden files: the expected outputs checked in next to the tests.

MSPROBE_UPDATE_EXPECT=1 (that value only) is the update mode: a harness rewrites
the expected files whose content differs from what the code produces now, then
fails with "rewrote N files: review the diff", as insta and expect-test do, so an
update never passes unreviewed. tests/unit/golden.h is the same for the C++ tests.
"""
import os


def update_mode() -> bool:
    return os.environ.get("MSPROBE_UPDATE_EXPECT") == "1"


def write_if_changed(path, text: str) -> bool:
    """Writes `text` to `path` unless it holds exactly that already; True when it wrote."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            if f.read() == text:
                return False
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return True


def rewrote(count: int) -> str:
    return f"rewrote {count} files: review the diff"


def report(rewritten: int) -> bool:
    """Prints the update mode's failure when files were rewritten; True when it did."""
    if rewritten:
        print("FAIL: " + rewrote(rewritten))
    return rewritten > 0
