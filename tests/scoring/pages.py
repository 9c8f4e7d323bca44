"""A page client that follows redirects on GET, as a browser does: a private link in the address
(``?k=``) is exchanged for a seat session and redirected to the clean URL first."""

from __future__ import annotations

from typing import Any

from django.test import Client as DjangoClient


class Client(DjangoClient):
    def get(self, path: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        kwargs.setdefault("follow", True)
        return super().get(path, *args, **kwargs)
