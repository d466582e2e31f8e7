"""Floors (issue 26, "compressed and cacheable" and "a faster step"): the landing page's
requests per second against a hello-world view, and a wizard step's time against its floor
(a bare view that returns the same bytes), each pair through the same middleware stack in
the same run, interleaved round by round (these machines are noisy).

In process (Django's test client, one thread): this measures the site's own cost per
request; the issue's gunicorn figure (requests/s per core through gunicorn) is not this
module's (bench/load.py runs gunicorn).

Budgets (issue 26): landing_vs_hello_ratio >= 0.40; wizard_step_vs_floor_ratio <= 3."""

from __future__ import annotations

import statistics
import time

from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import path

from selector import urls as site_urls

ROUNDS = 10
PER_ROUND = 30
_FLOOR_BODY: dict[str, bytes] = {}


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"hello", content_type="text/plain")


def floor(request: HttpRequest) -> HttpResponse:
    """The step page's bytes, as they were rendered, with nothing else done."""
    return HttpResponse(_FLOOR_BODY["step"], content_type="text/html; charset=utf-8")


# This module is also the URLconf of the run: the site's URLs plus the two bare views.
urlpatterns = [
    path("bench-floor/hello/", hello),
    path("bench-floor/step/", floor),
    *site_urls.urlpatterns,
]
handler400, handler403 = site_urls.handler400, site_urls.handler403
handler404, handler500 = site_urls.handler404, site_urls.handler500


def _per_second(client: Client, url: str, n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    return n / (time.perf_counter() - started)


def _ms(client: Client, url: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return out


def run():
    with override_settings(ROOT_URLCONF=__name__):
        anonymous = Client()
        visitor = Client()
        visitor.get("/wizard/")  # a wizard session, as a visitor on step 1 has
        _FLOOR_BODY["step"] = visitor.get("/wizard/scale/").content
        for client, url in ((anonymous, "/"), (anonymous, "/bench-floor/hello/"),
                            (visitor, "/wizard/scale/"), (visitor, "/bench-floor/step/")):
            _per_second(client, url, 5)  # warm up
        landing, hello_rate, step, step_floor = [], [], [], []
        for _ in range(ROUNDS):
            landing.append(_per_second(anonymous, "/", PER_ROUND))
            hello_rate.append(_per_second(anonymous, "/bench-floor/hello/", PER_ROUND))
            step += _ms(visitor, "/wizard/scale/", PER_ROUND)
            step_floor += _ms(visitor, "/bench-floor/step/", PER_ROUND)
    landing_rps, hello_rps = statistics.median(landing), statistics.median(hello_rate)
    step_ms, floor_ms = statistics.median(step), statistics.median(step_floor)
    yield ("landing_inproc_rps", landing_rps, "req/s")
    yield ("hello_inproc_rps", hello_rps, "req/s")
    yield ("landing_vs_hello_ratio", landing_rps / hello_rps, "(budget >= 0.40)")
    yield ("wizard_step_inproc_p50", step_ms, "ms")
    yield ("wizard_step_floor_p50", floor_ms, "ms")
    yield ("wizard_step_vs_floor_ratio", step_ms / floor_ms, "x (budget <= 3)")
