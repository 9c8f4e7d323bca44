"""The audit tests/e2e/conftest.py runs on every page: it reports a violation of any impact with
the page it was on, injects axe under the site's own Content Security Policy, and does not audit
again a page that brings no new kind of element."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Audit, AuditedBrowser

pytestmark = pytest.mark.django_db(transaction=True)

UNNAMED_LINK = """() => {
    const a = document.createElement("a");
    a.href = "/clubs/";
    a.className = "unnamed-link";  // a kind of element the page did not have
    document.querySelector("main").append(a);
}"""


def _checked(page: Any, stats: dict[str, int], n: int) -> None:
    """Wait until the audit has looked at ``n`` loads (it runs next to the test)."""
    for _ in range(400):
        if stats["audited"] + stats["same"] >= n:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"the audit did not run: {stats}")


def test_the_audit_reports_each_violation_with_its_page(chromium_browser: Any, live_server: Any):
    stats = {"audited": 0, "same": 0, "gone": 0}
    audit = Audit({}, stats)
    context = AuditedBrowser(chromium_browser, audit).new_context(base_url=live_server.url)
    page = context.new_page()
    response = page.goto("/accounts/login/")
    assert response is not None
    assert "script-src" in (response.headers.get("content-security-policy") or "")
    _checked(page, stats, 1)
    assert page.evaluate("() => !!window.axe")  # injected although the site's CSP is in force
    assert stats["audited"] == 1
    assert audit.found == {}
    page.reload()
    _checked(page, stats, 2)
    assert stats == {"audited": 1, "same": 1, "gone": 0}  # nothing new on it: not audited again
    page.evaluate(UNNAMED_LINK)  # link-name is serious; a moderate one is reported the same way
    report = audit.finish()  # what the fixture does when the test ends: audit, close, report
    assert stats["audited"] == 2
    assert report.startswith("/accounts/login/ [en]:\n  link-name (serious, 1x): ")
    assert "a.unnamed-link" in report or ".unnamed-link" in report
