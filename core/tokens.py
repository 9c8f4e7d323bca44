"""API token keys and their digests (pure: no database).

Why Knock's own token model and not django-rest-knox (which installs with Django 5.2): clients
send ``Authorization: Token <40 hex>``, the keys DRF's ``authtoken`` made, and those keys must
keep working after the upgrade. With a plain SHA-256 digest of the key, an old key is moved by
hashing it, and a request costs one lookup on a unique index. Knox would take new 64-character
keys, keep 15 characters of each key in clear to find candidate rows and compare SHA-512 digests
row by row (sweeping the user's expired tokens on every request), and its login and logout views
(Basic auth, ``POST /logout/``) are not Knock's endpoint; Knock would use its model and
authentication class only, and still have to write the migration of the old keys.

A key carries 160 random bits, so an unsalted SHA-256 is enough: no one can search that space
from a digest, and a digest that does not depend on ``SECRET_KEY`` survives a key rotation.
"""

from __future__ import annotations

import hashlib
import secrets

KEY_BYTES = 20  # 40 hex characters, as DRF's tokens
PREFIX_LENGTH = 8  # shown to tell tokens apart; the other 128 bits stay secret


def token_new_key() -> str:
    """A fresh key: 40 lowercase hex characters."""
    return secrets.token_hex(KEY_BYTES)


def token_digest(key: str) -> str:
    """What the database keeps of ``key``: its SHA-256, in hex.

    >>> token_digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(key.encode()).hexdigest()


def token_prefix(key: str) -> str:
    """The first characters of ``key``, to tell a person's tokens apart."""
    return key[:PREFIX_LENGTH]
