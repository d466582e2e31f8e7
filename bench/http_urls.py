"""The site's URLs plus two bench views: ``/__hello__`` (bench/http_settings.py) and
``/__floor__``, which returns the bytes last put in FLOOR as they are, so a page can be
timed against its floor: the same bytes through the same middleware, with nothing of the
page's own work (bench/bench_wizard.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from selector.urls import urlpatterns as site_urlpatterns

FLOOR = {"body": b"", "content_type": "text/html; charset=utf-8"}


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"hello", content_type="text/plain")


def floor(request: HttpRequest) -> HttpResponse:
    return HttpResponse(FLOOR["body"], content_type=FLOOR["content_type"])


urlpatterns = [path("__hello__", hello), path("__floor__", floor), *site_urlpatterns]
