"""The backup file: one signed file holding the database copy and what it was taken at.

A backup is a tar archive (``knock-YYYYMMDD-HHMMSS.sqlite3.tar`` or ``.pgdump.tar``; ``tar tf``
lists it, ``tar xf`` takes it apart) of exactly two members, in this order:

``knock-backup.json``, the manifest::

    {"format": "knock-backup", "version": 1, "vendor": "sqlite" | "postgresql",
     "created": "2026-12-04T17:30:00+00:00",
     "schema": [["admin", "0001_initial"], ...],      # django_migrations, sorted
     "payload": {"name": "database.sqlite3", "size": 123456, "sha256": "…"},
     "key_id": "…", "signature": "…"}

and the payload: the SQLite online-backup copy (``database.sqlite3``) or ``pg_dump``'s custom
format (``database.pgdump``).

The signature is HMAC-SHA256 (Django's ``salted_hmac`` with the salt ``knock.backups.signature``:
the HMAC key is SHA-256 of the salt and ``SECRET_KEY``) over the manifest's other fields as
canonical JSON (sorted keys, no spaces, ASCII). The payload is bound to it by its size and
SHA-256, so changing one byte of the data, the schema or the date breaks it. ``key_id`` is
a second HMAC of a constant under another salt: it names the key without revealing it, so
that a backup from another install (another ``SECRET_KEY``) is told apart from an edited one.
``SECRET_KEY_FALLBACKS`` are accepted too, so a rotated key still restores older backups.
"""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from core.errors import ApplicationError

FORMAT = "knock-backup"
VERSION = 1
MANIFEST_NAME = "knock-backup.json"
PAYLOAD_NAMES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
SIGNATURE_SALT = "knock.backups.signature"
KEY_ID_SALT = "knock.backups.key-id"
MANIFEST_MAX = 4 * 1024 * 1024  # a manifest lists migrations: far below this
CHUNK = 1024 * 1024
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"

Schema = list[tuple[str, str]]


@dataclass(frozen=True)
class Manifest:
    vendor: str
    created: str
    schema: Schema
    payload_name: str
    payload_size: int
    payload_sha256: str
    key_id: str = ""
    signature: str = ""

    def body(self) -> dict[str, Any]:
        """What the signature covers: everything but the signature itself."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "vendor": self.vendor,
            "created": self.created,
            "schema": [list(pair) for pair in self.schema],
            "payload": {
                "name": self.payload_name,
                "size": self.payload_size,
                "sha256": self.payload_sha256,
            },
            "key_id": self.key_id,
        }


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _keys() -> list[str]:
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def key_id(secret: str) -> str:
    """A name for ``secret`` that does not reveal it (16 hex digits)."""
    return salted_hmac(KEY_ID_SALT, FORMAT, secret=secret, algorithm="sha256").hexdigest()[:16]


def sign(manifest: Manifest, *, secret: str | None = None) -> Manifest:
    """``manifest`` with ``key_id`` and ``signature`` made with ``secret`` (``SECRET_KEY``)."""
    secret = secret or settings.SECRET_KEY
    body = {**manifest.body(), "key_id": key_id(secret)}
    mac = salted_hmac(SIGNATURE_SALT, _canonical(body), secret=secret, algorithm="sha256")
    return Manifest(**{**manifest.__dict__, "key_id": body["key_id"], "signature": mac.hexdigest()})


def file_digest(path: Path) -> tuple[int, str]:
    """The size and SHA-256 of a file, read in chunks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _member(name: str, size: int, mtime: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mode = 0o600
    info.mtime = int(mtime)
    return info


def write(target: Path, manifest: Manifest, payload: Path) -> None:
    """Write the signed backup file ``target`` (mode 0600) from ``manifest`` and ``payload``."""
    data = json.dumps({**manifest.body(), "signature": manifest.signature}, indent=1).encode()
    mtime = datetime.fromisoformat(manifest.created).timestamp()
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with (
        os.fdopen(fd, "wb") as out,
        tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        manifest_info = _member(MANIFEST_NAME, len(data), mtime)
        tar.addfile(manifest_info, _Bytes(data))
        with payload.open("rb") as source:
            tar.addfile(_member(manifest.payload_name, manifest.payload_size, mtime), source)
        out.flush()
        os.fsync(out.fileno())


class _Bytes:
    """A tiny file object over bytes for ``TarFile.addfile``."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._at = 0

    def read(self, size: int = -1) -> bytes:
        end = len(self._data) if size < 0 else self._at + size
        chunk, self._at = self._data[self._at : end], min(end, len(self._data))
        return chunk


def _refuse(message: str) -> ApplicationError:
    return ApplicationError(message, status=400)


def _identify(path: Path) -> None:
    """Refuse a file that is not a Knock backup at all, saying what it looks like."""
    with path.open("rb") as f:
        head = f.read(512)
    ours = head[:100].rstrip(b"\0") == MANIFEST_NAME.encode() and head[257:262] == b"ustar"
    if ours or (len(head) < 512 and MANIFEST_NAME.encode().startswith(head[:17]) and head):
        return
    if head.startswith(SQLITE_MAGIC):
        what = "a bare SQLite database"
    elif head.startswith(PG_MAGIC):
        what = "a bare pg_dump file"
    elif head[257:262] == b"ustar":
        what = "a tar archive of something else"
    else:
        what = "neither"
    raise _refuse(
        f"{path} is not a Knock backup ({what}): a Knock backup is the one signed file that "
        "`manage.py backup` writes (knock-YYYYMMDD-HHMMSS.sqlite3.tar or .pgdump.tar), "
        "holding knock-backup.json and the database copy. Nothing was changed."
    )


def _truncated(path: Path, detail: str) -> ApplicationError:
    return _refuse(
        f"{path} is truncated ({detail}): the file was cut short, e.g. by a copy that did not "
        "finish or a full disk. Copy it again from where it was written. Nothing was changed."
    )


def _tampered(path: Path, detail: str) -> ApplicationError:
    return _refuse(
        f"{path} has been tampered with: {detail}. It was changed after `manage.py backup` "
        "wrote it; do not restore it. Nothing was changed."
    )


def _parse(path: Path, data: bytes) -> Manifest:
    try:
        raw = json.loads(data)
        if raw.get("format") != FORMAT:
            raise ValueError("format")
        if raw.get("version") != VERSION:
            raise _refuse(
                f"{path} is a Knock backup of format version {raw.get('version')}; this Knock "
                f"reads version {VERSION}. Restore it with the Knock version that wrote it. "
                "Nothing was changed."
            )
        payload = raw["payload"]
        manifest = Manifest(
            vendor=str(raw["vendor"]),
            created=str(raw["created"]),
            schema=[(str(app), str(name)) for app, name in raw["schema"]],
            payload_name=str(payload["name"]),
            payload_size=int(payload["size"]),
            payload_sha256=str(payload["sha256"]),
            key_id=str(raw["key_id"]),
            signature=str(raw["signature"]),
        )
        datetime.fromisoformat(manifest.created)
    except ApplicationError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise _tampered(path, "its manifest (knock-backup.json) is not one Knock writes") from exc
    if manifest.payload_name != PAYLOAD_NAMES.get(manifest.vendor):
        raise _tampered(path, "its manifest names no database copy Knock writes")
    return manifest


def _check_signature(path: Path, manifest: Manifest) -> None:
    for secret in _keys():
        if constant_time_compare(manifest.key_id, key_id(secret)):
            expected = sign(manifest, secret=secret).signature
            if constant_time_compare(manifest.signature, expected):
                return
            raise _tampered(
                path, "its signature does not match its contents (the manifest was edited)"
            )
    raise _refuse(
        f"{path} was made by another Knock install: it is signed with a different SECRET_KEY "
        f"(key id {manifest.key_id}; this install's is {key_id(settings.SECRET_KEY)}). To move "
        "a site to a new machine, give the new install the old SECRET_KEY (or copy the old "
        "var/secret_key) before restoring; or, if you trust this file, run `manage.py restore "
        "--allow-foreign-key FILE`, which skips the signature check only. Nothing was changed."
    )


def read(path: Path, *, into: Path, allow_foreign_key: bool = False) -> Manifest:
    """Check the backup ``path`` and write its database copy to ``into``; return its manifest.

    Refuses (:class:`ApplicationError`, saying which) a file that is not a Knock backup, is cut
    short, was made with another key, or was changed after it was written. The copy in
    ``into`` is to be used only when this returns. With ``allow_foreign_key`` the key and
    signature are not checked; the format, the size and the checksum still are.
    """
    if not path.is_file():
        raise _refuse(f"No backup at {path}.")
    _identify(path)
    try:
        tar = tarfile.open(path, mode="r:")  # noqa: SIM115 (closed by the ``with`` below)
    except (tarfile.TarError, EOFError) as exc:
        raise _truncated(path, "its first entry is incomplete") from exc
    with tar:
        try:
            first = tar.next()
            if first is None or first.name != MANIFEST_NAME or not first.isfile():
                raise _truncated(path, "no manifest")
            if first.size > MANIFEST_MAX:
                raise _tampered(path, "its manifest is far larger than any Knock writes")
            source = tar.extractfile(first)
            data = source.read() if source is not None else b""
        except (tarfile.TarError, EOFError) as exc:
            raise _truncated(path, "the manifest is incomplete") from exc
        if len(data) != first.size:
            raise _truncated(path, "the manifest is incomplete")
        manifest = _parse(path, data)
        if not allow_foreign_key:
            _check_signature(path, manifest)
        try:
            member = tar.next()
        except (tarfile.TarError, EOFError) as exc:
            raise _truncated(path, "the database copy is missing") from exc
        if member is None:
            raise _truncated(path, "the database copy is missing")
        if member.name != manifest.payload_name or not member.isfile():
            raise _tampered(path, f"it holds {member.name!r} where the database copy belongs")
        if member.size != manifest.payload_size:
            raise _tampered(
                path,
                f"the database copy is {member.size} bytes; it was signed at "
                f"{manifest.payload_size}",
            )
        got, digest = _copy(tar.extractfile(member), into)
        if got != manifest.payload_size:
            raise _truncated(
                path, f"{got} of the database copy's {manifest.payload_size} bytes are there"
            )
        if not constant_time_compare(digest, manifest.payload_sha256):
            raise _tampered(path, "the database copy does not match its signed SHA-256")
        try:
            extra = tar.next()
        except (tarfile.TarError, EOFError):
            extra = None  # the end-of-archive blocks cut off: everything signed is there
        if extra is not None:
            raise _tampered(path, f"it holds an extra entry {extra.name!r}")
    return manifest


def _copy(source: IO[bytes] | None, into: Path) -> tuple[int, str]:
    """Copy a member to ``into`` (mode 0600) while hashing it; stop where the data ends."""
    digest = hashlib.sha256()
    size = 0
    fd = os.open(into, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        if source is None:
            return 0, digest.hexdigest()
        while True:
            try:
                chunk = source.read(CHUNK)
            except (tarfile.TarError, EOFError, OSError):
                break
            if not chunk:
                break
            digest.update(chunk)
            out.write(chunk)
            size += len(chunk)
    return size, digest.hexdigest()
