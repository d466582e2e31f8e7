"""A rate limit per client address for the public API (issue 21: 300 requests from one
address in 5.8 s were all answered).

API_RATE_LIMIT requests per fixed window of API_RATE_WINDOW_SECONDS per address
(selector.core.request.client_ip, which believes X-Forwarded-For only from TRUSTED_PROXIES),
counted in the shared cache every app server uses (Redis, or the database cache), with the
cache's atomic incr. Past the limit the answer is 429 Too Many Requests (RFC 6585 section
4) with Retry-After in seconds until the window turns, a JSON body in the API's error shape
(``{"errors": {"rate_limit": [message]}, "retry_after": seconds}``) and ``Cache-Control:
no-store`` (the API's answers are otherwise public for minutes: a shared cache must not
keep a refusal). The defaults allow one request a second on average with bursts, far more
than a person at the wizard or a planning script needs, far less than a scraper wants.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from selector.core.ratelimit import count_hit
from selector.core.request import client_ip


def _now() -> float:
    return time.time()


def _count(request: HttpRequest) -> tuple[int, int]:
    """This request counted: (requests in the window so far, seconds until it turns)."""
    window = settings.API_RATE_WINDOW_SECONDS
    now = _now()
    key = f"ratelimit:api:{client_ip(request)}:{int(now // window)}"
    count = count_hit(key, window + 5)
    return count, max(1, int(window - now % window + 0.999))


def rate_limited(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
        if settings.API_RATE_LIMIT > 0:
            count, retry_after = _count(request)
            if count > settings.API_RATE_LIMIT:
                response = JsonResponse({
                    "errors": {"rate_limit": [_(
                        "Too many requests from your address. Please wait %(seconds)s "
                        "seconds and try again.") % {"seconds": retry_after}]},
                    "retry_after": retry_after}, status=429,
                    json_dumps_params={"ensure_ascii": False})
                response["Retry-After"] = str(retry_after)
                response["Cache-Control"] = "no-store"
                return response
        return view(request, *args, **kwargs)
    return wrapper
