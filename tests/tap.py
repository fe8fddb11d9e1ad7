"""TAP output for the Python test scripts: check(name, ok, detail) prints one numbered result (and the last lines
of detail when it failed); done() prints the plan and exits 1 if any check failed."""
import sys

_count = 0
_failed = 0


def check(name, ok, detail=""):
    global _count, _failed
    _count += 1
    print(f"{'ok' if ok else 'not ok'} {_count} - {name}")
    if not ok:
        _failed += 1
        for line in str(detail).splitlines()[-15:]:
            print(f"# {line}")


def done():
    print(f"1..{_count}")
    sys.exit(1 if _failed else 0)
