"""Print the TAP report of a check script and exit with its status (tests/arena/arena-check.py, tests/arena/arena-hostile.py).

    report(results, timings=())   results: [(name, ok, detail)]; timings: [(section, seconds)], printed as comments
"""
import sys


def report(results, timings=()):
    print(f"1..{len(results)}")
    for name, seconds in timings:
        print(f"# {name}: {seconds:.1f} s")
    for i, (name, ok, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok and detail:
            for line in str(detail).splitlines():
                print(f"# {line}")
    sys.exit(0 if all(ok for _, ok, _ in results) else 1)
