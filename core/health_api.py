"""The health state through the API (same content as /healthz)."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.selectors import health_status


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    class OutputSerializer(serializers.Serializer[dict[str, object]]):
        status = serializers.ChoiceField(choices=["ok", "degraded"])
        database = serializers.DictField()
        broker = serializers.DictField()
        workers = serializers.DictField()
        beat = serializers.DictField()

    @extend_schema(responses={200: OutputSerializer, 503: OutputSerializer})
    def get(self, request: Request) -> Response:
        status = health_status()
        return Response(status, status=200 if status["status"] == "ok" else 503)


urlpatterns = [path("health/", HealthApi.as_view(), name="api-health")]
