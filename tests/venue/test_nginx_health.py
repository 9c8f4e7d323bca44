"""deploy/nginx/knock.conf's port 80, as a load balancer meets it: ``/healthz`` asked by address
over plain HTTP reaches Knock (which answers it before its host check: tests/core), and
everything else is redirected to HTTPS. Knock is a stub here, which says what it was asked."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from tests.venue.test_behind_nginx import start_nginx

pytestmark = pytest.mark.venue


class _Knock(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps(
            {
                "path": self.path,
                "host": self.headers.get("Host"),
                "proto": self.headers.get("X-Forwarded-Proto"),
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def port_80(tmp_path: Path) -> Iterator[int]:
    """nginx running the site in front of the stub; the port its plain-HTTP server listens on."""
    stub = ThreadingHTTPServer(("127.0.0.1", 0), _Knock)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    nginx = start_nginx(tmp_path, stub.server_address[1])
    try:
        site = (tmp_path / "knock-site.conf").read_text()
        plain = next(block for block in site.split("server {") if "return 301" in block)
        match = re.search(r"listen 127\.0\.0\.1:(\d+);", plain)
        assert match, plain
        yield int(match[1])
    finally:
        nginx.process.terminate()
        nginx.process.wait(10)
        stub.shutdown()


def test_port_80_passes_a_health_check_by_address_and_redirects_the_rest(port_80: int) -> None:
    base = f"http://127.0.0.1:{port_80}"
    probe = requests.get(f"{base}/healthz", headers={"Host": "10.0.0.5"}, timeout=10)
    assert probe.status_code == 200
    assert probe.json() == {"path": "/healthz", "host": "10.0.0.5", "proto": "http"}
    page = requests.get(
        f"{base}/clubs/", headers={"Host": "10.0.0.5"}, allow_redirects=False, timeout=10
    )
    assert page.status_code == 301
    assert page.headers["Location"] == "https://10.0.0.5/clubs/"
    other = requests.get(
        f"{base}/healthz/x", headers={"Host": "knock.test"}, allow_redirects=False, timeout=10
    )
    assert other.status_code == 301
