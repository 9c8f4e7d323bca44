"""No secret in a logged URL: a club night on ``manage.py serve`` (gunicorn with its access log,
the Celery worker and beat), with every way a link is opened, leaves no link secret and no
check-in token in any log the server wrote: its output (Django's request log, gunicorn's error
log, the worker's and beat's logs) and gunicorn's access log.

The night opens seat links by ``/l/<secret>/`` (typed by hand), by the ``/l/#<secret>`` page's
POST and by ``?k=<secret>``; sends invalid secrets until the address is answered 429 (which Django
logs as ``Too Many Requests: <path>``); checks players in by ``/checkin/<token>/`` (page and API)
and by the ``/checkin/#<token>`` page's POST and the API's body; a browser's ``Referer`` repeats a
token; hands are entered and confirmed with ``X-Match-Key``. Every secret and token is collected
from the API, and none may appear in any log, while the redacted forms (``/l/...``) must.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support import free_port, needs_proc, requires

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "knock-logs-9"


class _Browser:
    """A cookie-keeping HTTP client (a phone's browser, or curl when no cookie is sent)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        data = None
        sent = dict(headers or {})
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        try:
            with self.opener.open(request, timeout=20) as response:
                return int(response.status), response.read().decode()
        except urllib.error.HTTPError as exc:
            return int(exc.code), exc.read().decode()

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        status, text = self.call(method, path, **kwargs)
        assert status < 300, (method, path, status, text[:500])
        return json.loads(text)

    def csrf(self, path: str) -> str:
        status, html = self.call("GET", path)
        assert status == 200, (path, status)
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert found, html[:500]
        return found[1]


def _serve(tmp_path: Path, port: int) -> tuple[subprocess.Popen[str], Path, Path]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        KNOCK_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="config.settings.local",
        LOG_LEVEL="INFO",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    setup = (  # one process, not two: each start of Django costs seconds on a busy machine
        "from django.core.management import call_command;"
        "from django.contrib.auth import get_user_model;"
        "call_command('migrate', interactive=False, verbosity=0);"
        f"get_user_model().objects.create_superuser('director', 'd@x.org', {PASSWORD!r})"
    )
    subprocess.run([*manage, "shell", "-c", setup], env=env, check=True, capture_output=True)
    output = tmp_path / "serve.log"
    access = tmp_path / "access.log"
    proc = subprocess.Popen(
        [
            *manage,
            "serve",
            "--addr",
            f"127.0.0.1:{port}",
            "--concurrency",
            "1",
            "--web-workers",
            "1",
            "--threads",
            "4",
            "--access-log",
            str(access),
        ],
        env=env,
        stdout=output.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 90
    while "Knock is up" not in output.read_text():
        assert proc.poll() is None, output.read_text()
        assert time.monotonic() < deadline, output.read_text()
        time.sleep(0.3)
    return proc, output, access


def _club_night(web: _Browser) -> tuple[set[str], set[str]]:
    """Run the night; return (every link secret and check-in token, every invalid one sent)."""
    api = _Browser(web.base)
    token = api.json(
        "POST", "/api/auth/token/", body={"username": "director", "password": PASSWORD}
    )["token"]
    auth = {"Authorization": f"Token {token}"}
    club = api.json("POST", "/api/clubs/", body={"name": "Thursday Gin"}, headers=auth)["id"]
    names = ["Alice", "Bob", "Chris", "Dana"]
    api.json("POST", f"/api/clubs/{club}/players/bulk/", body={"names": names}, headers=auth)
    players = [p["id"] for p in api.json("GET", f"/api/players/?club={club}")["results"]]
    event = api.json(
        "POST",
        "/api/events/",
        body={
            "club": club,
            "name": "Thursday club night",
            "kind": "club_night",
            "rules": "standard",
            "confirmation": "opponent",
        },
        headers=auth,
    )["id"]
    registered = api.json(
        "POST", f"/api/events/{event}/registrations/bulk/", body={"players": players}, headers=auth
    )
    tokens = [r["checkin_token"] for r in registered]
    assert len(tokens) == 4
    assert all(tokens)
    bogus: set[str] = set()

    # Check-in: the old path (a card printed before) on the page and by the API, the fragment
    # page's two posts (look, then "I am here"), the API with the token in the body.
    old_page = f"/checkin/{tokens[0]}/"
    csrf = web.csrf(old_page)
    assert web.call("POST", old_page, form={"csrfmiddlewaretoken": csrf})[0] == 200
    csrf = web.csrf("/checkin/")
    status, html = web.call(
        "POST", "/checkin/", form={"csrfmiddlewaretoken": csrf, "token": tokens[1]}
    )
    assert status == 200
    assert "I am here" in html
    form = {"csrfmiddlewaretoken": csrf, "token": tokens[1], "confirm": "1"}
    assert web.call("POST", "/checkin/", form=form)[0] == 200
    assert api.json("POST", "/api/checkin/", body={"token": tokens[2]})["status"] == "checked_in"
    assert api.json("POST", f"/api/checkin/{tokens[3]}/")["status"] == "checked_in"
    # what a browser sends after the old page: its address as the Referer
    status, _ = web.call("GET", "/static/css/knock.css", headers={"Referer": web.base + old_page})
    assert status == 200
    wrong = secrets.token_urlsafe(16)
    bogus.add(wrong)
    assert web.call("GET", f"/checkin/{wrong}/")[0] == 404
    listed = api.json("GET", f"/api/events/{event}/registrations/?limit=50", headers=auth)
    assert {r["status"] for r in listed["results"]} == {"checked_in"}
    tokens += [r["checkin_token"] for r in listed["results"]]

    # A table: its seat links, and every link of it from the director's links.
    match = api.json(
        "POST",
        "/api/matches/",
        body={"event": event, "players": players[:2], "table_number": 1},
        headers=auth,
    )
    seats = [match["links"]["seats"][str(p)].split("#", 1)[1] for p in (0, 1)]
    links = api.json("GET", f"/api/matches/{match['id']}/links/", headers=auth)
    found = {
        url.split("#", 1)[1]
        for url in re.findall(r"https?://[^\"\s]+/l/#[\w-]+", json.dumps(links))
    }
    assert set(seats) <= found

    # Seat 0 typed by hand (/l/<secret>/), seat 1 by the fragment page's POST, and ?k=.
    status, html = web.call("GET", f"/l/{seats[0]}/")
    assert status == 200
    assert f"/matches/{match['id']}/" in html
    phone = _Browser(web.base)
    csrf = phone.csrf("/l/")
    assert (
        phone.call("POST", "/l/", form={"csrfmiddlewaretoken": csrf, "secret": seats[1]})[0] == 200
    )
    assert _Browser(web.base).call("GET", f"/matches/{match['id']}/?k={seats[0]}")[0] == 200

    # A scanner's invalid secrets: past the limit the address is answered 429.
    answers = []
    for _ in range(25):
        wrong = secrets.token_urlsafe(24)
        bogus.add(wrong)
        answers.append(web.call("GET", f"/l/{wrong}/")[0])
    assert answers[0] == 404, answers
    assert answers[-1] == 429, answers

    # Hands: entered from seat 0's link, confirmed from seat 1's.
    for number, (mine, theirs) in enumerate([(5, 25), (0, 30)], start=1):
        hand = api.json(
            "POST",
            f"/api/matches/{match['id']}/hands/",
            body={
                "knocker": 0,
                "outcome": "knock" if mine else "gin",
                "knocker_deadwood": mine,
                "defender_deadwood": theirs,
            },
            headers={"X-Match-Key": seats[0], "Idempotency-Key": f"t1-h{number}"},
        )
        confirmed = api.json(
            "POST", f"/api/hands/{hand['id']}/confirm/", body={}, headers={"X-Match-Key": seats[1]}
        )
        assert confirmed["status"] == "confirmed"
    return set(tokens) | found, bogus


@pytest.mark.worker
@needs_proc
def test_no_secret_reaches_any_log_after_a_club_night(tmp_path):
    started = time.monotonic()
    port = free_port()
    proc, output, access = _serve(tmp_path, port)
    try:
        issued, bogus = _club_night(_Browser(f"http://127.0.0.1:{port}"))
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    logs = {"serve output": output.read_text(), "access log": access.read_text()}
    assert len(issued) >= 7  # 4 check-in tokens, 2 seat links and the table link
    for name, text in logs.items():
        leaked = sorted(s for s in issued | bogus if s in text)
        assert not leaked, f"{name} holds {len(leaked)} secrets:\n{text}"
    # The lines are there, redacted: the test would see a secret if one were written.
    served, requests = logs["serve output"], logs["access log"]
    assert "Too Many Requests: /l/..." in served
    assert "Not Found: /checkin/..." in served
    assert re.search(r'"GET /l/\.\.\. HTTP/1\.1" 429 ', requests), requests
    assert '"GET /checkin/... HTTP/1.1" 200' in requests
    assert '"POST /api/checkin/... HTTP/1.1" 200' in requests
    assert '"GET /matches/' in requests
    assert "?k=..." in requests
    assert '"GET /static/css/knock.css HTTP/1.1" 200' in requests
    assert '"http://127.0.0.1:' + str(port) + '/checkin/..."' in requests  # the Referer
    assert '"POST /checkin/ HTTP/1.1" 200' in requests
    print(f"club night on serve, logs read: {time.monotonic() - started:.1f} s")


NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).is_file()), None
)


@requires(NGINX, "nginx (Debian's package)")
def test_the_nginx_log_format_writes_no_secret(tmp_path):
    """deploy/nginx/knock-log.conf, included as docs/deploy.md says, in a real nginx."""
    port = free_port()
    temp = " ".join(
        f"{name}_temp_path {tmp_path / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"""
worker_processes 1;
error_log {tmp_path / "error.log"};
pid {tmp_path / "nginx.pid"};
events {{}}
http {{
    include {ROOT / "deploy" / "nginx" / "knock-log.conf"};
    {temp}
    server {{
        listen 127.0.0.1:{port};
        access_log {tmp_path / "access.log"} knock;
        location / {{ return 200 "ok"; }}
    }}
}}
"""
    )
    secret, token = secrets.token_urlsafe(24), secrets.token_urlsafe(16)
    run = [str(NGINX), "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    subprocess.run([*run, "-t"], check=True, capture_output=True)
    subprocess.run(run, check=True, capture_output=True)
    try:
        browser = _Browser(f"http://127.0.0.1:{port}")
        paths = [
            f"/l/{secret}/",
            f"/checkin/{token}/",
            f"/api/checkin/{token}/",
            f"/matches/3/?k={secret}&x=1",
            f"/accounts/password_reset/MQ/{token}/",
            "/accounts/password_reset/done/",
            "/events/5/registrations/7/checkin/",
            "/static/css/knock.css?v=2",
        ]
        for path in paths:
            referer = {"Referer": f"https://knock.example/checkin/{token}/"}
            assert browser.call("GET", path, headers=referer)[0] == 200
        assert (
            browser.call("GET", "/l/", headers={"Referer": "https://knock.example/events/5/"})[0]
            == 200
        )
    finally:
        subprocess.run([*run, "-s", "stop"], capture_output=True)
    log = (tmp_path / "access.log").read_text()
    assert secret not in log
    assert token not in log
    for shown in (
        '"GET /l/... HTTP/1.1" 200',
        '"GET /checkin/... HTTP/1.1" 200',
        '"GET /api/checkin/... HTTP/1.1" 200',
        '"GET /matches/3/?k=... HTTP/1.1" 200',
        '"GET /accounts/password_reset/... HTTP/1.1" 200',
        '"GET /accounts/password_reset/done/ HTTP/1.1" 200',
        '"GET /events/5/registrations/7/checkin/ HTTP/1.1" 200',
        '"GET /static/css/knock.css?v=2 HTTP/1.1" 200',
        '"https://knock.example/events/5/"',
    ):
        assert shown in log, log
