"""Run the binding's unittest suites and report in TAP (one `ok N - name` / `not ok N - name` per test case), so
that `meson test` (protocol: 'tap') and .ci/run count each case. Standard library only.

    python3 run_tap.py [START_DIR [PATTERN...]]     (default: this file's folder and test_*.py)

A module that raises unittest.SkipTest when it is imported is reported as one skipped case (`ok N - ... # SKIP`).
"""
import os
import sys
import unittest


class TapResult(unittest.TestResult):
    def __init__(self, stream):
        super().__init__()
        self.stream = stream
        self.number = 0
        self._emitted = True

    def startTest(self, test):
        super().startTest(test)
        self._emitted = False

    def stopTest(self, test):
        if not self._emitted:  # only subtests failed: the test case fails once
            self._line(False, test, " (subtests failed)")
        super().stopTest(test)

    def _line(self, ok, test, directive=""):
        self._emitted = True
        self.number += 1
        name = test.id().replace("\n", " ")
        self.stream.write(f"{'ok' if ok else 'not ok'} {self.number} - {name}{directive}\n")
        self.stream.flush()

    def _diagnostic(self, text):
        for line in text.rstrip().splitlines():
            self.stream.write(f"# {line}\n")

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test)
        self._diagnostic(self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test)
        self._diagnostic(self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, f" # SKIP {reason}")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line(True, test, " # TODO expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line(False, test, " # unexpected success")

    def addSubTest(self, test, subtest, err):
        # a failing subtest fails its test case (one line, in stopTest); passing subtests are not counted
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._diagnostic(f"{subtest.id()}: " + self._exc_info_to_string(err, test))


def main():
    start = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    patterns = sys.argv[2:] or ["test_*.py"]
    suite = unittest.TestSuite(unittest.defaultTestLoader.discover(start, pattern=pattern, top_level_dir=start)
                               for pattern in patterns)
    out = sys.stdout
    out.write(f"1..{suite.countTestCases()}\n")
    result = TapResult(out)
    suite.run(result)
    # module import errors become failing `_FailedTest` cases above; say so once more for the log
    ok = result.wasSuccessful()
    out.write(f"# {result.testsRun} run, {len(result.failures)} failures, {len(result.errors)} errors, "
              f"{len(result.skipped)} skipped\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
