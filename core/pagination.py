"""One pagination for every API list: ``limit`` and ``offset``, answered as
``{count, next, previous, results}``.

A list view sets ``pagination_class = Pagination`` (so the OpenAPI schema documents the envelope
and the two parameters) and answers with :func:`paginate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView


class Pagination(LimitOffsetPagination):
    """``?limit=`` (default 100, at most 500) and ``?offset=`` (default 0).

    A limit or offset that is not a number, or is negative, is ignored (the default applies);
    a limit above 500 is taken as 500.
    """

    default_limit = 100
    max_limit = 500


def paginate(
    request: Request,
    view: APIView,
    items: QuerySet[Any] | Sequence[Any],
    serializer: type[BaseSerializer[Any]],
    *,
    context: dict[str, Any] | None = None,
) -> Response:
    """One page of ``items`` serialized with ``serializer``, in the paginated envelope."""
    paginator = Pagination()
    page: Any = paginator.paginate_queryset(items, request, view=view)
    data = serializer(page, many=True, context=context or {"request": request}).data
    return paginator.get_paginated_response(data)
