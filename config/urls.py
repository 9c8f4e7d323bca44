"""URL routes: pages, the REST API with its OpenAPI schema, health, admin."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    # Django's set_language, its CSRF check kept for visitors with a session (core.views).
    path("i18n/setlang/", core_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file, not inline: CSP allows it.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    # ReDoc parses the schema in a Web Worker it builds from a blob: allowed on this page only.
    path(
        "api/redoc/",
        csp_update({"worker-src": ["'self'", "blob:"]})(
            SpectacularRedocView.as_view(url_name="api-schema")
        ),
        name="api-redoc",
    ),
    path("api/", include("core.api_urls")),
    path("", include("clubs.page_urls")),
    path("", include("entries.page_urls")),
    path("", include("tournaments.page_urls")),
    path("", include("printing.page_urls")),
    path("", include("passes.page_urls")),
    path("", include("scoring.page_urls")),
]

# JSON under /api/, Django's pages elsewhere; a lost database connection is a 503.
handler400 = "core.error_views.bad_request"
handler403 = "core.error_views.permission_denied"
handler404 = "core.error_views.page_not_found"
handler500 = "core.error_views.server_error"
