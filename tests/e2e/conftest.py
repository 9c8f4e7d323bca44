"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Skipped with a clear message when Chromium is absent, except under CI (``CI=true``), where a
missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("KNOCK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in this thread; the test database calls made by the
# fixtures around it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium not found at {CHROMIUM}: CI must install Debian's chromium")
        pytest.skip(
            f"Chromium not found at {CHROMIUM}: apt-get install chromium to run browser tests"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any, live_server: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, base_url=live_server.url)
    page = context.new_page()
    yield page
    context.close()
