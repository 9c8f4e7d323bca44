"""/api/docs/ (Swagger UI) and /api/redoc/ (ReDoc) render the operations from the site's own
static files, offline and under the site's Content Security Policy."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


# ReDoc's built-in "API docs by Redocly" badge (hidden by the site's template) still asks the
# CDN for its logo; the CSP refuses it and nothing else on the page depends on it.
BADGE = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def _watch(page: Any, live_server: Any) -> tuple[list[str], list[str]]:
    """Collect CSP complaints and every request that leaves the site."""
    violations: list[str] = []
    outside: list[str] = []

    def console(msg: Any) -> None:
        if "Content Security Policy" in msg.text and BADGE not in msg.text:
            violations.append(msg.text)

    page.on("console", console)
    page.on(
        "request",
        lambda req: (
            None
            if req.url.startswith((live_server.url, "data:", "blob:", BADGE))
            else outside.append(req.url)
        ),
    )
    return violations, outside


def test_swagger_ui_lists_the_operations(page, live_server):
    violations, outside = _watch(page, live_server)
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Knock API")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible(timeout=15_000)
    assert operations.count() > 40
    expect(page.locator(".opblock-summary-path", has_text="/api/auth/token/").first).to_be_visible()
    assert not violations, violations
    assert not outside, outside


def test_redoc_lists_the_operations(page, live_server):
    violations, outside = _watch(page, live_server)
    page.goto("/api/redoc/")
    expect(page.locator("h2", has_text="Get a new API token")).to_be_visible(timeout=15_000)
    expect(page.locator("h1", has_text="Knock API")).to_be_visible()
    assert not violations, violations
    assert not outside, outside
