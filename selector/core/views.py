import logging
from functools import lru_cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 ``ok`` after a database round-trip, 503 when the database does not answer."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("healthz: database unavailable (%s)", type(exc).__name__)
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")



@lru_cache(maxsize=1)
def _favicon_bytes() -> bytes:
    path = finders.find("favicon.ico")
    if path is None:  # static/favicon.ico is part of the repository
        raise FileNotFoundError("static/favicon.ico is missing")
    return Path(path).read_bytes()


@require_safe
@cache_control(max_age=7 * 24 * 3600, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for at the site root: the logo at 16-64 px
    (static/favicon.ico, rendered from static/img/logo.svg)."""
    return HttpResponse(_favicon_bytes(), content_type="image/x-icon")
