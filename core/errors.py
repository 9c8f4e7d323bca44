"""The one application error type that services raise and the API and pages translate."""

from __future__ import annotations

from typing import Any

from core.i18n import with_particles


class ApplicationError(Exception):
    """A request that cannot be done as asked, with a message a player can act on.

    ``status`` is the HTTP status it maps to (400 invalid input, 403 forbidden, 404 not found,
    409 conflict with stored state, 422 an idempotency key reused for another request).
    ``field`` names the input at fault when there is one; ``extra`` carries data for the client
    (for a conflict, what was stored); ``retry_after`` (seconds) becomes a ``Retry-After`` header.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        field: str | None = None,
        extra: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        # A Korean message's fallback particles ("%(who)s이(가)") are chosen once it is filled in.
        message = with_particles(str(message))
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.extra = extra or {}
        self.retry_after = retry_after

    @property
    def headers(self) -> dict[str, str]:
        """Response headers that go with the error (``Retry-After`` for a 429 or a 503)."""
        return {"Retry-After": str(self.retry_after)} if self.retry_after is not None else {}

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"detail": self.message}
        if self.field:
            body["field"] = self.field
        body.update(self.extra)
        return body
