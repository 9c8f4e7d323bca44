"""The embedded default's cache: Django's file cache with atomic ``add`` and ``incr``.

Django's ``FileBasedCache`` implements ``add`` as "has_key, then set" and ``incr`` as "get,
then set": two web processes counting at once lose counts. Measured on the link limit before
this class: 300 parallel invalid secrets from one address were answered 75–87 times as under
the limit of 20. Here both hold an exclusive lock on one file of the cache's folder
(``django.core.files.locks``: ``flock`` on POSIX, ``LockFileEx`` on Windows) for the few
microseconds they take, so every count is exact (tests/core/test_net.py). Reads and ``set``
keep Django's lock-free code. Production sets ``CACHE_URL`` (Redis), whose ``INCR`` is atomic.
"""

from __future__ import annotations

import os
import pickle
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks

_THREADS = threading.Lock()


class LockedFileBasedCache(FileBasedCache):
    """``FileBasedCache`` whose ``add`` and ``incr`` are atomic across threads and processes."""

    @contextmanager
    def _counter_lock(self) -> Iterator[None]:
        folder = str(getattr(self, "_dir"))  # noqa: B009 (FileBasedCache's own folder)
        os.makedirs(folder, 0o700, exist_ok=True)
        path = os.path.join(folder, ".counters.lock")
        with _THREADS, os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o600), "r+b") as handle:
            locks.lock(handle, locks.LOCK_EX)
            try:
                yield
            finally:
                locks.unlock(handle)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        with self._counter_lock():
            return bool(super().add(key, value, timeout, version))

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        with self._counter_lock():
            value = self.get(key, self._missing_key, version=version)
            if value is self._missing_key:
                raise ValueError(f"Key '{key}' not found")
            new_value = int(value) + delta
            # Keep the entry's expiry (Django's incr would reset it to the default timeout).
            try:
                with open(self._key_to_file(key, version), "rb") as f:  # type: ignore[attr-defined]
                    expiry = pickle.load(f)
            except FileNotFoundError:
                raise ValueError(f"Key '{key}' not found") from None
            remaining = None if expiry is None else max(1.0, expiry - time.time())
            self.set(key, new_value, remaining, version)
            return new_value
