"""The client's address: one function for the whole site.

Behind a reverse proxy every request reaches Knock from the proxy's address, so the address
that identifies a client (for the link limit, the sign-in limit, the logs) must be read from
``X-Forwarded-For``, but only when the request really came through a proxy the site trusts:
anyone can send that header. The rule, the one nginx's ``real_ip_recursive on`` applies:

- ``REMOTE_ADDR`` is the client, unless it is one of ``KNOCK_TRUSTED_PROXIES`` (addresses or
  networks, empty by default);
- from a trusted proxy, ``X-Forwarded-For`` is read from the right (each proxy appends the
  address it saw) and the first address that is not itself a trusted proxy is the client. An
  entry that is not an address ends the walk at the last trusted hop (what the proxy saw), so
  a forged or garbled header never yields a made-up address.

Why not django-ipware (which django-axes reads): python-ipware 4 reads ``X-Forwarded-For``
whatever ``REMOTE_ADDR`` is, unless told to read ``REMOTE_ADDR`` alone, and its
``proxy_list`` names the last hops *of the header* in a fixed order, not "the peer is a trusted
proxy". Neither says "believe the header only from our own proxy, however many of them there
are", which is the whole point here; the address parsing it would save is
:mod:`ipaddress` from the standard library. django-axes is pointed at this function
(``AXES_CLIENT_IP_CALLABLE``), so sign-in throttling sees the same client as everything else.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

FORWARDED_HEADER = "HTTP_X_FORWARDED_FOR"
_CACHE_ATTR = "_knock_client_ip"


@lru_cache(maxsize=8)
def parse_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry)


def trusted_networks() -> tuple[Network, ...]:
    """``KNOCK_TRUSTED_PROXIES`` parsed (a wrong entry fails at start, in ``check``)."""
    configured = getattr(settings, "KNOCK_TRUSTED_PROXIES", ()) or ()
    if isinstance(configured, str):
        configured = [part for part in configured.split(",") if part.strip()]
    return parse_networks(tuple(str(entry).strip() for entry in configured))


def parse_address(value: str) -> Address | None:
    """An address as a proxy writes it (``1.2.3.4``, ``1.2.3.4:5678``, ``[::1]:80``, ``::1``),
    or None for anything else (``unknown``, a name, garbage)."""
    value = value.strip().strip('"')
    if value.startswith("["):
        value = value[1:].split("]", 1)[0]
    elif value.count(":") == 1:
        value = value.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, networks: Iterable[Network]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def resolve_client(remote_addr: str, forwarded_for: str, networks: tuple[Network, ...]) -> str:
    """The client's address from the peer's address and the ``X-Forwarded-For`` value."""
    peer = parse_address(remote_addr)
    if peer is None or not networks or not _trusted(peer, networks):
        return str(peer) if peer is not None else remote_addr
    client: Address = peer
    for entry in reversed(forwarded_for.split(",")):
        hop = parse_address(entry)
        if hop is None:
            break
        client = hop
        if not _trusted(hop, networks):
            break
    return str(client)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for this request (computed once per request)."""
    cached = getattr(request, _CACHE_ATTR, None)
    if cached is not None:
        return str(cached) or None
    meta = request.META
    address = resolve_client(
        str(meta.get("REMOTE_ADDR") or ""),
        str(meta.get(FORWARDED_HEADER) or ""),
        trusted_networks(),
    )
    with contextlib.suppress(AttributeError):  # a request that takes no attributes: no cache
        setattr(request, _CACHE_ATTR, address)
    return address or None
