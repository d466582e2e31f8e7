"""Issue 21, M3: no secret in a URL reaches a log. The password-reset link was written to
gunicorn's access log (the redaction covered /report/ and /wizard/r/ only).

The URL configuration is walked (django.urls.get_resolver): every path parameter of every
route is either declared harmless in HARMLESS (with why) or a secret, and a route with a
secret must come out of ``selector.core.logredact.redact`` without it, in every language.
A new route with a token therefore fails here until the redaction covers it (the last
test shows the walk catching one). The real gunicorn run is tests/test_gunicorn_log.py.
"""

from __future__ import annotations

import logging
import re
import sys
import types
import uuid

import pytest
from django.conf import settings
from django.core import mail
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from selector.core.logredact import REDACTED, RedactTokens, redact

# (namespace, parameter, converter): why its value is no secret.
HARMLESS = {
    ("", "public_id", "UUIDConverter"): "a lead's id; the old staff links need a log-in",
    ("staff", "public_id", "UUIDConverter"): "a lead's id; every staff page needs a log-in",
    ("staff", "flag_id", "IntConverter"): "a duplicate flag's row id, behind the log-in",
    ("staff", "pk", "IntConverter"): "a hand-over's row id, managers only, behind the log-in",
    ("wizard", "identifier", "SlugConverter"): "the name of a wizard step",
    ("quotes", "public_id", "UUIDConverter"): "a lead's id; the quote pages need a log-in",
    ("quotes", "quote_id", "UUIDConverter"): "a quote's id; the staff quote pages need a log-in",
    # The admin: every page needs a staff log-in and names rows by their ids.
    ("admin", "object_id", "PathConverter"): "a row's primary key",
    ("admin", "content_type_id", "PathConverter"): "a content type's id",
    ("admin", "id", "StringConverter"): "a user's id (the admin's password form)",
    ("admin", "pk", "IntConverter"): "a device's row id (django-otp's admin pages)",
    ("admin", "app_label", None): "an installed app's name",
    ("admin", "url", None): "the admin's catch-all for unknown pages",
}
SAMPLES = {"UUIDConverter": str(uuid.uuid4()), "IntConverter": "7", "SlugConverter": "gpus",
           "PathConverter": "7", "StringConverter": "7", None: "staff"}


def _routes(resolver=None, namespace=""):
    """(namespace, name, {parameter: converter class name or None}) of every route."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = (":".join(filter(None, [namespace, pattern.namespace]))
                     if pattern.namespace else namespace)
            yield from _routes(pattern, inner)
            continue
        assert isinstance(pattern, URLPattern)
        converters = getattr(pattern.pattern, "converters", {}) or {}
        params: dict[str, str | None] = {n: type(c).__name__ for n, c in converters.items()}
        for group in pattern.pattern.regex.groupindex:
            params.setdefault(group, None)
        yield namespace, pattern.name, params


def _secret_routes(resolver=None):
    """The routes with at least one parameter not declared harmless."""
    found = []
    for namespace, name, params in _routes(resolver):
        secret = [p for p, conv in params.items() if (namespace, p, conv) not in HARMLESS]
        if secret:
            found.append((namespace, name, params, secret))
    return found


def _leaks(resolver=None, urlconf=None) -> list[str]:
    """The URLs of secret routes that a log would show with the secret in it."""
    leaks = []
    for namespace, name, params, secret in _secret_routes(resolver):
        assert name, f"a token route without a name cannot be checked: {params}"
        kwargs = {p: (f"Zx9{p}Secret4{p[:2]}" if p in secret else SAMPLES[conv])
                  for p, conv in params.items()}
        full = f"{namespace}:{name}" if namespace else name
        for language, _label in settings.LANGUAGES:
            with translation.override(language):
                url = reverse(full, kwargs=kwargs, urlconf=urlconf)
            for line in (url, f'203.0.113.9 "GET {url}?next=/x/ HTTP/1.1" 404',
                         f"Not Found: {url}", f"Referer: https://example.cn{url}"):
                cleaned = redact(line)
                if any(kwargs[p] in cleaned for p in secret):
                    leaks.append(cleaned)
    return leaks


def test_the_walk_finds_every_known_token_route():
    names = {(ns, name) for ns, name, _params, _secret in _secret_routes()}
    assert names == {("wizard", "shared"), ("wizard", "handoff"), ("wizard", "shared_card"),
                     # The shared result's build downloads (/wizard/r/<token>/cabling.csv...)
                     ("wizard", "shared_cabling_csv"), ("wizard", "shared_cabling_xlsx"),
                     ("wizard", "shared_configs_zip"),
                     ("reports", "customer"),
                     ("reports", "customer_web"), ("staff", "password_reset_confirm"),
                     ("quotes", "customer"), ("quotes", "customer_accept"),
                     ("quotes", "customer_pdf"), ("quotes", "customer_changes")}


def test_no_token_route_leaves_its_secret_in_a_log_line():
    assert _leaks() == []


def test_redaction_keeps_the_rest_of_the_line_readable():
    assert redact("/en/staff/password-reset/MQ/cbq6z8-0a1b2c3d4e5f/") == (
        f"/en/staff/password-reset/{REDACTED}/")
    assert redact("/staff/password-reset/MQ/set-password/") == (
        f"/staff/password-reset/{REDACTED}/")
    for page in ("/staff/password-reset/", "/en/staff/password-reset/sent/",
                 "/staff/password-reset/done/", "/staff/leads/8e1c/report/"):
        assert redact(page) == page
    assert redact("/wizard/r/abc.def/continue/") == f"/wizard/r/{REDACTED}/continue/"


def _handlers_of(logger: logging.Logger) -> list[logging.Handler]:
    """The handlers a record of ``logger`` reaches (logging.Logger.callHandlers), less
    pytest's own capture handlers."""
    found: list[logging.Handler] = []
    current: logging.Logger | None = logger
    while current is not None:
        found += current.handlers
        if not current.propagate:
            break
        current = current.parent
    return [h for h in found if not type(h).__module__.startswith("_pytest")]


def test_every_logger_writes_through_the_redaction():
    """The filter sits on the console handler, and Django's own unfiltered handlers are
    gone, so records of django.security.*, runserver's django.server and the app's own
    loggers are redacted too, not only django.request; tracebacks as well."""
    token_url = "/en/staff/password-reset/MQ/cbq6z8-0a1b2c3d4e5f/"
    for name in ("django.security.csrf", "django.server", "django.request", "django",
                 "selector.staff.lockout", "gunicorn.error"):
        handlers = _handlers_of(logging.getLogger(name))
        assert handlers, name
        for handler in handlers:
            assert any(isinstance(f, RedactTokens) for f in handler.filters), (name, handler)
            record = logging.getLogger(name).makeRecord(
                name, logging.WARNING, __file__, 1, "Forbidden (CSRF token missing.): %s",
                (token_url,), None)
            assert handler.filter(record)
            assert "cbq6z8" not in handler.format(record)
    (console,) = _handlers_of(logging.getLogger("django.request"))
    try:
        raise ValueError(f"bad link {token_url}")
    except ValueError:
        record = logging.getLogger("django.request").makeRecord(
            "django.request", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
    console.filter(record)
    assert "cbq6z8" not in console.format(record)


def test_the_walk_would_catch_a_new_token_route():
    """A route added tomorrow with a secret the redaction does not know fails the walk."""
    from django.urls import include, path

    def view(request, **kwargs):  # pragma: no cover - never called
        raise AssertionError

    urls = types.ModuleType("tests_fake_urls")
    invite = types.ModuleType("tests_fake_invite")
    invite.app_name = "invite"
    invite.urlpatterns = [path("<str:code>/", view, name="accept")]
    urls.urlpatterns = [path("invite/", include(invite))]
    resolver = get_resolver(urls)
    leaks = _leaks(resolver, urlconf=urls)
    assert leaks and all("Zx9codeSecret4co" in line for line in leaks)


@pytest.mark.django_db
@override_settings(SITE_URL="https://selector.example.com",
                   ALLOWED_HOSTS=["selector.example.com", "evil.example"])
def test_the_reset_link_uses_site_url_not_the_host_header(client):
    from tests.staff.conftest import make_user

    make_user("sam", "sales")
    response = client.post("/en/staff/password-reset/", {"email": "sam@example.com"},
                           HTTP_HOST="evil.example")
    assert response.status_code == 302
    (message,) = mail.outbox
    links = re.findall(r"https?://[^\s\"<>]+", message.body + str(message.alternatives))
    assert links and all(link.startswith(
        "https://selector.example.com/en/staff/password-reset/") for link in links)
    assert "evil.example" not in message.body
