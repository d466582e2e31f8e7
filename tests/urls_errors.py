"""Test-only URLconf: the real one plus views that fail, to exercise the error pages."""

from django.conf.urls.i18n import i18n_patterns
from django.db import OperationalError
from django.urls import path

from selector.urls import *  # noqa: F403
from selector.urls import urlpatterns as real_patterns


def boom(request):
    raise RuntimeError("secret internal detail /etc/passwd")


def db_down(request):
    raise OperationalError("connection to server at 10.0.0.5 refused")


urlpatterns = [
    *real_patterns,
    *i18n_patterns(path("boom/", boom), path("db-down/", db_down),
                   prefix_default_language=False),
]
