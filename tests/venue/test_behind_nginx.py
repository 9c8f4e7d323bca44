"""Knock deployed as docs/deploy.md says: behind a real nginx running deploy/nginx/knock.conf,
with phones reaching it from several client addresses (each a loopback address of its own,
so nginx writes each one into X-Forwarded-For), on the embedded SQLite and on PostgreSQL +
Redis. The journeys the venue probe found broken:

- a room behind one address scans an old slip 25 times: its invalid links turn 404 then 429,
  while every valid link from the same room keeps opening, on the pages and the API;
- an attacker guesses the director's password from outside: the attacker is locked, the
  director signs in from the club, on the pages and through the API;
- clients are counted apart, by the address nginx saw;
- a client that forges X-Forwarded-For is still counted by its own address;
- nginx's access log holds no link secret.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from requests.adapters import HTTPAdapter

from stack.nginx import HOST, NGINX, Nginx
from stack.nginx import nginx_start as start_nginx
from tests.support import free_port

pytestmark = [
    pytest.mark.venue,
    pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning"),
]

ROOT = Path(__file__).resolve().parents[2]
BAD = "x" * 32

if not Path(NGINX).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs nginx for the venue probe: .ci/run installs Debian's nginx")
    pytest.skip("nginx is not installed (apt-get install nginx)", allow_module_level=True)


# nginx, from the file the docs show: stack.nginx (nginx_start, as `make stack` starts it).


# -- Knock, as `manage.py serve` runs it ---------------------------------------------------------


def start_knock(tmp: Path, port: int, backend: str) -> tuple[subprocess.Popen[str], Path]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        KNOCK_VAR_DIR=str(tmp / "var"),
        DJANGO_SETTINGS_MODULE="config.settings.local",
        KNOCK_TRUSTED_PROXIES="127.0.0.1",
        ALLOWED_HOSTS=f"{HOST},127.0.0.1,localhost",
    )
    if backend == "postgres":
        name = f"knock_venue_{os.getpid()}"
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"],
            check=True,
            capture_output=True,
        )
        env.update(
            DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}",
            CELERY_BROKER_URL="redis://127.0.0.1:6379/11",
            CACHE_URL="redis://127.0.0.1:6379/12",
        )
        subprocess.run(["redis-cli", "-n", "12", "FLUSHDB"], check=False, capture_output=True)
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {name}"],
            check=True,
            capture_output=True,
        )
    manage = [sys.executable, str(ROOT / "manage.py")]
    for step in (["migrate", "--noinput"], ["demo"]):
        done = subprocess.run([*manage, *step], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    log_path = tmp / "serve.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [*manage, "serve", "--addr", f"127.0.0.1:{port}", "--concurrency", "1"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while "Knock is up" not in log_path.read_text():
        assert proc.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.5)
    return proc, log_path


# -- a phone: its own client address, its own cookies --------------------------------------------


class _SourceAdapter(HTTPAdapter):
    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


class Phone:
    """A browser or API client leaving from ``source`` (a loopback address) to nginx."""

    def __init__(self, base: str, source: str) -> None:
        self.base = base
        self.session = requests.Session()
        self.session.verify = False
        self.session.mount("https://", _SourceAdapter(source))
        self.session.headers["Host"] = HOST

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.session.get(
            self.base + path, allow_redirects=False, timeout=30, verify=False, **kwargs
        )

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.session.post(
            self.base + path, allow_redirects=False, timeout=30, verify=False, **kwargs
        )

    def sign_in(self, username: str, password: str) -> requests.Response:
        form = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token, form.text[:500]
        return self.post(
            "/accounts/login/",
            data={"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
            headers={"Referer": f"https://{HOST}/accounts/login/"},
        )

    def token(self, username: str, password: str) -> requests.Response:
        return self.post("/api/auth/token/", json={"username": username, "password": password})


def club_night_started(director: Phone, api_token: str) -> tuple[int, list[str]]:
    """A club, two players, an event and a match, as docs/api.md does: (match id, seat keys)."""
    auth = {"Authorization": f"Token {api_token}"}
    club = director.post("/api/clubs/", json={"name": "Venue Gin"}, headers=auth).json()["id"]
    made = director.post(
        f"/api/clubs/{club}/players/bulk/", json={"names": ["Alice", "Bob"]}, headers=auth
    ).json()
    players = [p["id"] for p in made["created"]]
    event = director.post(
        "/api/events/",
        json={"club": club, "name": "Venue night", "kind": "club_night", "rules": "standard"},
        headers=auth,
    ).json()["id"]
    director.post(
        f"/api/events/{event}/registrations/bulk/",
        json={"players": players, "checked_in": True},
        headers=auth,
    )
    match = director.post(
        "/api/matches/", json={"event": event, "players": players, "table_number": 1}, headers=auth
    ).json()
    seats = [match["links"]["seats"][seat].rsplit("#", 1)[1] for seat in ("0", "1")]
    return int(match["id"]), seats


@contextmanager
def knock_behind_nginx(
    tmp: Path, backend: str = "sqlite", *, publish_port: int = 0
) -> Iterator[tuple[str, Nginx]]:
    """Knock (``start_knock``) behind the reference nginx: (its https base URL, the nginx);
    both stopped at the end, and a PostgreSQL venue's database dropped."""
    port = free_port()
    knock, _log = start_knock(tmp, port, backend)
    nginx = start_nginx(tmp, port, publish_port=publish_port)
    try:
        yield f"https://127.0.0.1:{nginx.https}", nginx
    finally:
        nginx.process.send_signal(signal.SIGQUIT)
        knock.send_signal(signal.SIGINT)
        for proc in (nginx.process, knock):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if backend == "postgres":
            subprocess.run(
                [
                    *("psql", "-h", "127.0.0.1", "-U", "postgres", "-qc"),
                    f"DROP DATABASE IF EXISTS knock_venue_{os.getpid()} WITH (FORCE)",
                ],
                check=False,
                capture_output=True,
            )


@pytest.fixture(params=["sqlite", "postgres"])
def venue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Nginx]]:
    with knock_behind_nginx(tmp_path, request.param) as running:
        yield running


def test_the_venue_behind_nginx(venue: tuple[str, Nginx]) -> None:
    base, nginx = venue
    director = Phone(base, "127.0.0.10")
    got = director.token("director", "knock-demo")
    assert got.status_code in (200, 201), got.text
    match, (alice, bob) = club_night_started(director, got.json()["token"])

    # The http server only redirects, to https.
    # (a) A room behind one address: an old slip scanned 25 times, the valid links still open.
    room = [Phone(base, "127.0.0.5") for _ in range(3)]
    answers = [room[i % 3].get(f"/l/{BAD}/").status_code for i in range(25)]
    assert answers[:20] == [404] * 20, answers
    assert set(answers[20:]) == {429}, answers
    refused = room[0].get(f"/l/{BAD}/")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    opened = room[1].get(f"/l/{alice}/")
    assert opened.status_code == 302, opened.text[:300]
    assert opened.headers["Location"].endswith(f"/matches/{match}/")
    assert room[1].get(f"/matches/{match}/").status_code == 200
    api = room[2].get(f"/api/matches/{match}/", headers={"X-Match-Key": bob})
    assert api.status_code == 200, api.text
    api_bad = room[2].get(f"/api/matches/{match}/", headers={"X-Match-Key": BAD})
    assert api_bad.status_code == 429
    assert api_bad.headers["Content-Type"].startswith("application/json")
    assert "Retry-After" in api_bad.headers

    # (c) Counted apart by the address nginx saw: another phone's typo is a plain 404.
    assert Phone(base, "127.0.0.7").get(f"/l/{BAD}/").status_code == 404

    # (b) An attacker guesses the director's password from outside.
    attacker = Phone(base, "127.0.0.66")
    for _ in range(8):
        attacker.sign_in("director", "not-the-password")
    assert attacker.sign_in("director", "knock-demo").status_code == 429
    locked = attacker.token("director", "knock-demo")
    assert locked.status_code == 429
    assert locked.headers["Content-Type"].startswith("application/json")
    assert int(locked.headers["Retry-After"]) > 0
    assert "detail" in locked.json()
    at_club = Phone(base, "127.0.0.10")
    assert at_club.sign_in("director", "knock-demo").status_code == 302
    assert at_club.get("/accounts/login/").status_code in (200, 302)
    # a program at the club (no session cookie) gets its token
    assert Phone(base, "127.0.0.10").token("director", "knock-demo").status_code in (200, 201)

    # (d) A forged X-Forwarded-For is one more request of the forger's own address.
    forger = Phone(base, "127.0.0.67")
    forger.session.headers["X-Forwarded-For"] = "127.0.0.10"
    for _ in range(8):
        forger.sign_in("director", "not-the-password")
    assert forger.sign_in("director", "knock-demo").status_code == 429
    assert Phone(base, "127.0.0.10").sign_in("director", "knock-demo").status_code == 302
    for _ in range(25):
        forger.get(f"/l/{BAD}/")
    assert Phone(base, "127.0.0.10").get(f"/l/{BAD}/").status_code == 404

    # Plain HTTP is only a redirect to HTTPS; nginx's log holds no secret.
    nginx.process.send_signal(signal.SIGUSR1)  # reopen: flushes the buffered log
    time.sleep(0.5)
    logged = nginx.access_log.read_text()
    assert "127.0.0.66" in logged
    assert "127.0.0.5" in logged
    for secret in (alice, bob, BAD):
        assert secret not in logged
    assert json.dumps(logged).count("/l/") >= 25
