"""nginx running deploy/nginx/knock.conf, the very file the docs show, with only its
machine-specific values replaced (ports, paths, the certificate: a self-signed one made here).
``make stack``, the load test and tests/venue all start it this way."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from stack.servers import free_port, port_wait

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx" / "knock.conf"
LOG_FORMAT = ROOT / "deploy" / "nginx" / "knock-log.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HOST = "knock.test"
# nchan, Debian's libnginx-mod-nchan, which the site's live push uses (docs/live.md).
NCHAN_MODULE = Path("/usr/lib/nginx/modules/ngx_nchan_module.so")
CACHE_LOG_FORMAT = (
    'log_format knock_cache \'$knock_private $upstream_cache_status "$upstream_addr" $status '
    "$request_method $knock_log_uri $request_time $upstream_response_time';\n"
)
"""The stack's second access log (``cache.log``): per request, whether it was private (a session,
a seat key or a token: 1), what the cache did, which upstream answered ("-": none, nginx
answered alone), and how long nginx took and gunicorn took (a cache HIT that waited for
``proxy_cache_lock`` took long with no upstream time). :func:`cache_share` reads it."""


def nginx_site(
    *,
    http_port: int,
    https_port: int,
    upstream: int,
    tmp: Path,
    publish_port: int = 0,
    cache_log: bool = False,
) -> str:
    """deploy/nginx/knock.conf with only its machine-specific values replaced (and, with
    ``cache_log``, a second access log in the format :data:`CACHE_LOG_FORMAT`)."""
    site = SITE.read_text()
    access_log = f"{tmp / 'access.log'} knock"
    if cache_log:
        access_log += f";\n    access_log {tmp / 'cache.log'} knock_cache"
    replacements = [
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"listen \[::\]:80;\n", ""),
        (r"listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        (r"listen \[::\]:443 ssl http2;\n", ""),
        (r"server_name knock\.example\.org;", f"server_name {HOST};"),
        (r"ssl_certificate     \S+;", f"ssl_certificate     {tmp / 'cert.pem'};"),
        (r"ssl_certificate_key \S+;", f"ssl_certificate_key {tmp / 'key.pem'};"),
        (r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream};"),
        (r"/var/log/nginx/knock\.access\.log knock", access_log),
        (r"root /var/www/letsencrypt;", f"root {tmp};"),
        (r"/var/cache/nginx/knock", str(tmp / "cache")),
        (r"listen 127\.0\.0\.1:8010;", f"listen 127.0.0.1:{publish_port or free_port()};"),
    ]
    for pattern, value in replacements:
        site, count = re.subn(pattern, value.replace("\\", "\\\\"), site)
        if not count:
            raise RuntimeError(
                f"deploy/nginx/knock.conf no longer has {pattern!r}: update stack/nginx.py"
            )
    return site


def nginx_main(tmp: Path, *, connections: int = 256, cache_log: bool = False) -> str:
    """The main nginx.conf around the site: what Debian's /etc/nginx/nginx.conf does (a worker
    a core, sendfile, gzip of HTML for the clients that ask, as phones do), with the paths of
    ``tmp`` and room for ``connections``."""
    user = "user root;\n" if os.geteuid() == 0 else ""
    nchan = f"load_module {NCHAN_MODULE};\n" if NCHAN_MODULE.exists() else ""
    return f"""{user}{nchan}worker_processes auto;
worker_rlimit_nofile {max(1024, 4 * connections)};
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections {connections}; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    gzip on;
    client_body_temp_path {tmp / "body"};
    proxy_temp_path {tmp / "proxy"};
    fastcgi_temp_path {tmp / "fastcgi"};
    uwsgi_temp_path {tmp / "uwsgi"};
    scgi_temp_path {tmp / "scgi"};
    include {tmp / "knock-log.conf"};
    {CACHE_LOG_FORMAT if cache_log else ""}include {tmp / "knock-site.conf"};
}}
"""


@dataclass
class Nginx:
    http: int
    https: int
    publish: int
    access_log: Path
    process: subprocess.Popen[bytes]


def certificate_make(tmp: Path) -> None:
    """A self-signed certificate for :data:`HOST`: ``cert.pem`` and ``key.pem`` in ``tmp``.

    An ECDSA P-256 key, as Let's Encrypt's certbot issues by default (since 2.0): nginx signs
    every TLS handshake with it, 0.02 ms where an RSA 2048 key takes 0.7 ms (``openssl speed``
    here), and an open's spectators arriving together make thousands of handshakes."""
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"),
            *("-nodes", "-days", "2"),
            *("-subj", f"/CN={HOST}", "-keyout", str(tmp / "key.pem")),
            *("-out", str(tmp / "cert.pem")),
        ],
        check=True,
        capture_output=True,
    )


def nginx_start(
    tmp: Path,
    upstream: int,
    publish_port: int = 0,
    *,
    connections: int = 256,
    cache_log: bool = False,
) -> Nginx:
    """nginx in the foreground (``daemon off``) with its files in ``tmp``, in front of
    127.0.0.1:``upstream``; returns once its HTTPS port accepts connections."""
    tmp.mkdir(parents=True, exist_ok=True)
    certificate_make(tmp)
    http_port, https_port = free_port(), free_port()
    publish_port = publish_port or free_port()
    (tmp / "knock-site.conf").write_text(
        nginx_site(
            http_port=http_port,
            https_port=https_port,
            upstream=upstream,
            tmp=tmp,
            publish_port=publish_port,
            cache_log=cache_log,
        )
    )
    (tmp / "knock-log.conf").write_text(LOG_FORMAT.read_text())
    (tmp / "nginx.conf").write_text(nginx_main(tmp, connections=connections, cache_log=cache_log))
    process = subprocess.Popen(
        [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(tmp / "nginx.stderr").open("wb"),
        start_new_session=True,
    )
    try:
        port_wait(https_port, 15, "nginx")
    except RuntimeError:
        process.kill()
        process.wait()
        raise RuntimeError(
            "nginx did not start: " + (tmp / "nginx.stderr").read_text(errors="replace")
        ) from None
    return Nginx(
        http=http_port,
        https=https_port,
        publish=publish_port,
        access_log=tmp / "access.log",
        process=process,
    )


@dataclass(frozen=True)
class CacheShare:
    """From the stack's ``cache.log``: requests without a session, seat key or token (what
    spectators send), and how many of them nginx answered without reaching gunicorn (from its
    cache, or nchan's fan-out)."""

    public: int
    without_gunicorn: int
    private: int

    @property
    def share(self) -> float:
        return self.without_gunicorn / self.public if self.public else 0.0

    def __str__(self) -> str:
        return (
            f"{self.without_gunicorn} of {self.public} public requests "
            f"({100 * self.share:.1f} %) answered by nginx without gunicorn; "
            f"{self.private} private requests passed through"
        )


def cache_share(log: Path, offset: int = 0) -> CacheShare:
    """Count :data:`CACHE_LOG_FORMAT` lines of ``log`` from byte ``offset`` on."""
    public = without = private = 0
    try:
        with log.open("rb") as f:
            f.seek(offset)
            lines = f.read().decode(errors="replace").splitlines()
    except OSError:
        lines = []
    for line in lines:
        fields = line.split(" ", 3)
        if len(fields) < 3:
            continue
        if fields[0] != "0":
            private += 1
            continue
        public += 1
        if fields[2] in ('"-"', '""'):
            without += 1
    return CacheShare(public=public, without_gunicorn=without, private=private)
