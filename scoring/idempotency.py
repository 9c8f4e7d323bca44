"""``Idempotency-Key`` for the POST APIs and the hand entry page: a retried or double-tapped
request is answered once.

The first successful response to a key is stored (in the same transaction as the result it
reports) and replayed for any later request with the same key and the same body; the same key
with a different body is refused with 422. Keys are scoped by who sends them (user, or match
link, or the seat links held in the session), so two people can never collide. Failed requests
are not stored: a retry may succeed. The page's twin (:func:`page_idempotent`) stores where the
first answer redirected to, for static/js/offline.js sending again an entry kept on a phone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from scoring.models import IdempotencyRecord
from scoring.permissions import Actor

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"


def idempotency_scope(*, actor: Actor) -> str:
    """Who a key belongs to: the signed-in user, else the match link that was shown."""
    if actor.user is not None:
        return f"user:{actor.user.pk}"
    if actor.token:
        return "link:" + hashlib.sha256(actor.token.encode()).hexdigest()[:32]
    if actor.key_ids:
        held = ",".join(str(k) for k in sorted(actor.key_ids))
        return "seats:" + hashlib.sha256(held.encode()).hexdigest()[:32]
    return "anonymous"


def _body_hash(request: Request) -> str:
    try:
        body = json.dumps(request.data, sort_keys=True, default=str)
    except TypeError:
        body = repr(request.data)
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(record: IdempotencyRecord, body_hash: str) -> Response:
    if record.body_hash != body_hash:
        raise ApplicationError(
            _("This Idempotency-Key was already used for a different request."),
            status=422,
            field=HEADER,
        )
    response = Response(record.response, status=record.status_code)
    response[REPLAY_HEADER] = "true"
    return response


def idempotent(request: Request, *, actor: Actor, handler: Callable[[], Response]) -> Response:
    """Run ``handler`` once per (scope, key); replay its stored response for repeats."""
    key = (request.headers.get(HEADER) or "").strip()
    if not key:
        return handler()
    if len(key) > 200:
        raise ApplicationError(_("An Idempotency-Key has at most 200 characters."), field=HEADER)
    scope = idempotency_scope(actor=actor)
    body_hash = _body_hash(request)
    record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
    if record is not None:
        return _replay(record, body_hash)
    try:
        with transaction.atomic():
            response = handler()
            if 200 <= response.status_code < 300:
                data: Any = json.loads(json.dumps(response.data, default=str))
                IdempotencyRecord.objects.create(
                    key=key,
                    scope=scope,
                    method=request.method or "",
                    path=request.path[:300],
                    body_hash=body_hash,
                    status_code=response.status_code,
                    response=data,
                )
            return response
    except (ApplicationError, IntegrityError):
        # A concurrent request with the same key may have won the race: answer as it did.
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is not None:
            return _replay(record, body_hash)
        raise


PAGE_FIELD = "idempotency_key"
_NOT_HASHED = {"csrfmiddlewaretoken", PAGE_FIELD}


def _form_hash(request: HttpRequest) -> str:
    fields = {k: request.POST.getlist(k) for k in sorted(request.POST) if k not in _NOT_HASHED}
    text = f"{request.method} {request.path}\n{json.dumps(fields, sort_keys=True)}"
    return hashlib.sha256(text.encode()).hexdigest()


def _page_replay(record: IdempotencyRecord, body_hash: str) -> HttpResponse:
    if record.body_hash != body_hash:
        message = _("This Idempotency-Key was already used for a different request.")
        return HttpResponse(message, status=422, content_type="text/plain; charset=utf-8")
    response = HttpResponseRedirect(str(record.response.get("location") or "/"))
    response[REPLAY_HEADER] = "true"
    return response


def page_idempotent(
    request: HttpRequest, *, actor: Actor, handler: Callable[[], HttpResponse]
) -> HttpResponse:
    """A page form posted with a key (header, or the ``idempotency_key`` field) is stored once:
    its first redirect (success) is recorded with what it stored and replayed for a repeat; an
    answer that shows the form again (4xx) is not recorded, so a corrected entry may follow."""
    key = (request.headers.get(HEADER) or request.POST.get(PAGE_FIELD) or "").strip()
    if not key:
        return handler()
    if len(key) > 200:
        message = _("An Idempotency-Key has at most 200 characters.")
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    scope = idempotency_scope(actor=actor)
    body_hash = _form_hash(request)
    record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
    if record is not None:
        return _page_replay(record, body_hash)
    try:
        with transaction.atomic():
            response = handler()
            if 300 <= response.status_code < 400:
                IdempotencyRecord.objects.create(
                    key=key,
                    scope=scope,
                    method=request.method or "",
                    path=request.path[:300],
                    body_hash=body_hash,
                    status_code=response.status_code,
                    response={"location": response["Location"]},
                )
            return response
    except IntegrityError:
        record = IdempotencyRecord.objects.filter(scope=scope, key=key).first()
        if record is not None:
            return _page_replay(record, body_hash)
        raise
