"""One JSON line per test to the file named by $VALVE_PYTEST_RESULTS, when set, for
test/node/clients/python-langchain.test.ts: {"test": node id, "outcome": passed | failed | error |
skipped | xfailed | xpassed, "reason": why it was skipped or expected to fail, or the failure}.
"""

import json
import os


def outcome_of(report):
    expected_to_fail = hasattr(report, "wasxfail")
    if report.when != "call" and report.failed:
        return "error"
    if report.skipped:
        return "xfailed" if expected_to_fail else "skipped"
    if report.failed:
        return "failed"
    return "xpassed" if expected_to_fail else "passed"


def reason_of(report):
    if hasattr(report, "wasxfail"):
        return report.wasxfail
    if report.skipped and isinstance(report.longrepr, tuple):
        return report.longrepr[2]
    if report.failed:
        return report.longreprtext[-2000:]
    return ""


def pytest_runtest_logreport(report):
    path = os.environ.get("VALVE_PYTEST_RESULTS")
    # A test reports once per phase: its outcome is the call's, or the setup's when that did not pass.
    if not path or (report.when == "setup" and report.passed) or (report.when == "teardown" and report.passed):
        return
    line = {"test": report.nodeid, "outcome": outcome_of(report), "reason": reason_of(report)}
    with open(path, "a", encoding="utf-8") as results:
        results.write(json.dumps(line, ensure_ascii=False) + "\n")
