"""nginx's configuration for the stack: deploy/nginx/knock.conf with only its machine's values
replaced, and the count of what it answered without gunicorn."""

from __future__ import annotations

from pathlib import Path

from stack.nginx import SITE, cache_share, nginx_main, nginx_site
from tests.support import requires


def test_only_ports_and_paths_change(tmp_path: Path) -> None:
    site = nginx_site(
        http_port=18080, https_port=18443, upstream=18000, tmp=tmp_path, publish_port=18010
    )
    assert "listen 127.0.0.1:18080;" in site
    assert "listen 127.0.0.1:18443 ssl http2;" in site
    assert "server 127.0.0.1:18000;" in site
    assert "listen 127.0.0.1:18010;" in site
    directives = "\n".join(line.split("#", 1)[0] for line in site.splitlines())
    assert "[::]" not in directives
    assert "/var/" not in directives
    assert "/etc/letsencrypt" not in directives
    assert "knock.example.org" not in directives
    assert f"access_log {tmp_path / 'access.log'} knock;" in site
    assert "cache.log" not in site
    # everything else is the file itself: the cache and nchan's directives, line for line
    original = SITE.read_text()
    for directive in ("proxy_cache_lock on;", "nchan_publisher;", "proxy_cache_revalidate on;"):
        assert site.count(directive) == original.count(directive) == 1


def test_the_cache_log_is_a_second_access_log(tmp_path: Path) -> None:
    site = nginx_site(http_port=1, https_port=2, upstream=3, tmp=tmp_path, cache_log=True)
    assert site.count(f"access_log {tmp_path / 'access.log'} knock;") == 2
    assert site.count(f"access_log {tmp_path / 'cache.log'} knock_cache;") == 2
    main = nginx_main(tmp_path, connections=5000, cache_log=True)
    assert "worker_connections 5000;" in main
    assert main.index("log_format knock_cache") < main.index("knock-site.conf")
    assert "knock_cache" not in nginx_main(tmp_path)


def test_cache_share_counts_public_requests_nginx_answered_alone(tmp_path: Path) -> None:
    log = tmp_path / "cache.log"
    log.write_text(
        '0 HIT "-" 304 GET /events/1/live/\n'
        '0 UPDATING "-" 200 GET /events/1/live/\n'
        '0 - "-" 200 GET /live/sub/event-1\n'
        '0 MISS "127.0.0.1:8000" 200 GET /events/1/live/\n'
        '0 REVALIDATED "127.0.0.1:8000" 304 GET /matches/2/live/\n'
        '1 BYPASS "127.0.0.1:8000" 201 POST /api/matches/2/hands/\n'
    )
    share = cache_share(log)
    assert (share.public, share.without_gunicorn, share.private) == (5, 3, 1)
    assert share.share == 0.6
    assert "3 of 5 public requests (60.0 %)" in str(share)
    assert cache_share(log, offset=log.stat().st_size).public == 0
    assert cache_share(tmp_path / "none.log").share == 0.0


DEBIAN_MAIN = Path("/etc/nginx/nginx.conf")


@requires(DEBIAN_MAIN.exists(), "nginx (Debian's package)")
def test_the_main_conf_keeps_what_debians_does(tmp_path: Path) -> None:
    """The stack's nginx.conf is Debian's as far as what a request costs goes: a worker a core,
    sendfile and gzip of HTML for the clients that ask (phones do), so the load test measures
    what a server set up as docs/deploy.md says spends."""
    debian = DEBIAN_MAIN.read_text()
    main = nginx_main(tmp_path)
    for directive in (
        "worker_processes auto;",
        "sendfile on;",
        "tcp_nopush on;",
        "gzip on;",
        "default_type application/octet-stream;",
    ):
        assert directive in debian
        assert directive in main
