"""The public API's rate limit per client address (issue 21: 300 requests from one address
in 5.8 s were all answered 200): counted in the shared cache, a JSON 429 with Retry-After
past the limit, the same for every app server (selector.api.throttle)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from selector.api import throttle

URL = "/api/recommend"
QUERY = {"gpus": "64", "workload": "training", "budget": "balanced", "determinism": "standard"}


@pytest.fixture
def limited(settings, content):
    settings.API_RATE_LIMIT = 5
    settings.API_RATE_WINDOW_SECONDS = 60


def _get(client, ip="203.0.113.5", url=URL, **headers):
    return client.get(url, QUERY, REMOTE_ADDR=ip, **headers)


def test_past_the_limit_an_address_gets_a_json_429_with_retry_after(client, limited):
    assert [_get(client).status_code for _ in range(5)] == [200] * 5
    refused = _get(client, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/json"
    body = refused.json()
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60 and body["retry_after"] == wait
    assert body["errors"]["rate_limit"] == [
        f"Too many requests from your address. Please wait {wait} seconds and try again."]
    assert refused["Cache-Control"] == "no-store"  # no shared cache keeps a refusal
    assert "recommendation" not in body
    # Every API URL counts towards the same limit; another address is not affected.
    assert _get(client, url="/api/openapi.json").status_code == 429
    assert _get(client, ip="203.0.113.6").status_code == 200


def test_the_refusal_is_the_documented_429(client, limited):
    from tests.api.test_openapi import DOC, _check_against_document

    for _ in range(5):
        _get(client)
    operation = DOC["paths"]["/api/recommend"]["get"]
    body = _check_against_document(operation, _get(client))
    assert operation["responses"]["429"]["headers"]["Retry-After"]
    assert body["retry_after"] >= 1


def test_the_refusal_is_in_the_visitors_language(client, limited):
    for _ in range(5):
        _get(client)
    refused = _get(client, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "请求过于频繁" in refused.json()["errors"]["rate_limit"][0]


def test_the_count_lives_in_the_shared_cache(client, limited):
    """Every app server reads the same counter: a second client (another server's view of
    the same cache) is refused once the first used the allowance."""
    for _ in range(3):
        _get(client)
    keys = [k for k in _cache_keys() if k.startswith("ratelimit:api:203.0.113.5:")]
    assert len(keys) == 1 and cache.get(keys[0]) == 3
    other_server = Client()
    assert [_get(other_server).status_code for _ in range(3)] == [200, 200, 429]


def _cache_keys() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM selector_cache")
        return [row[0].split(":", 2)[-1] for row in cursor.fetchall()]


def test_a_forged_forwarded_for_does_not_dodge_the_limit(client, limited):
    statuses = [_get(client, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
                for i in range(7)]
    assert statuses == [200] * 5 + [429] * 2


def test_the_window_turns(client, limited, monkeypatch):
    now = [1_000_000_040.0]  # 20 s into a minute
    monkeypatch.setattr(throttle, "_now", lambda: now[0])
    for _ in range(5):
        _get(client)
    refused = _get(client)
    assert refused.status_code == 429 and refused["Retry-After"] == "40"
    now[0] += 40
    assert _get(client).status_code == 200


def test_zero_turns_it_off(client, limited, settings):
    settings.API_RATE_LIMIT = 0
    assert {_get(client).status_code for _ in range(8)} == {200}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent connections")
@pytest.mark.django_db(transaction=True)
def test_a_burst_gets_exactly_the_limit(settings):
    from django.core.management import call_command

    call_command("load_content", force=True, verbosity=0)
    settings.API_RATE_LIMIT = 5
    settings.API_RATE_WINDOW_SECONDS = 3600
    n, statuses, errors = 30, [], []
    barrier = threading.Barrier(n)

    def one():
        try:
            browser = Client()
            barrier.wait(timeout=30)
            statuses.append(_get(browser, ip="203.0.113.50").status_code)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[:3]
    assert (statuses.count(200), statuses.count(429)) == (5, 25)
