"""Secrets in URLs never reach a log. Each route whose path carries one is listed in
SECRET_PATHS, in any language prefix:

- the customer's signed report link, /report/<token>/ and /report/<token>/web/ (a working
  download of their report for 30 days);
- the result share link and its hand-off, /wizard/r/<token>/ and /wizard/r/<token>/continue/;
- the customer's signed quote link, /quote/<token>/ (and its accept/, changes/, pdf/);
- the password-reset link, /staff/password-reset/<uidb64>/<token>/, and the
  /staff/password-reset/<uidb64>/set-password/ page Django moves it to (issue 21, M3:
  whoever read the access log could take an account whose owner had not used the link).

tests/security/test_log_redaction.py walks the URL configuration: a route with a path
parameter that is neither redacted here nor declared harmless there fails it, so a future
token route cannot be forgotten.

Used by Django's logging (``RedactTokens`` on the console handler, settings.LOGGING, so every
logger's records: django.request, django.security.*, the app's own) and by gunicorn's
access log (``GunicornLogger``, deploy/gunicorn.conf.py), which writes the request line of
every request whatever Django logs. Staff lead paths (/staff/leads/<public_id>/...) need a
log-in and stay readable for debugging.
"""

from __future__ import annotations

import logging
import re
from collections.abc import MutableMapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from gunicorn.glogging import Logger

if TYPE_CHECKING:  # stubs only (types-gunicorn)
    from gunicorn.glogging import _AtomsDict
    from gunicorn.http import Request
    from gunicorn.http.wsgi import Response

REDACTED = "[redacted]"
_SEGMENT = r"[^/?#\s\"'<>]+"
# (prefix, secret): the part matched by ``secret`` right after ``prefix`` is redacted.
SECRET_PATHS = (
    (r"/report/", _SEGMENT),
    (r"/wizard/r/", _SEGMENT),
    # The customer's signed quote link, /quote/<token>/ and its accept, changes and PDF.
    (r"/quote/", _SEGMENT),
    # <uidb64>/<token>, or <uidb64>/set-password; not the form's own sent/ and done/ pages.
    (r"/password-reset/", rf"(?!(?:sent|done)(?:/|$)){_SEGMENT}(?:/{_SEGMENT})?"),
)
_TOKEN_PATH = re.compile("|".join(f"(?:({prefix}){secret})" for prefix, secret in SECRET_PATHS))
# gunicorn atoms that can carry a path: the request line, the path, the query string (a
# "next" parameter) and the referer.
_PATH_ATOMS = ("r", "U", "q", "f")


def redact(text: str) -> str:
    return _TOKEN_PATH.sub(lambda m: next(g for g in m.groups() if g is not None) + REDACTED,
                           text)


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """On a handler: every record it writes, its message, arguments and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(_clean(v) for v in record.args)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


class GunicornLogger(Logger):
    """gunicorn's logger with the token paths redacted in every access-log atom that can
    hold a URL (request headers such as {referer}i included)."""

    def atoms(self, resp: Response, req: Request, environ: MutableMapping[str, Any],
              request_time: timedelta) -> _AtomsDict:
        atoms = super().atoms(resp, req, environ, request_time)
        # A plain dict at run time; the stubs' TypedDict leaves out the {header}i keys.
        values = cast(dict[str, object], atoms)
        for key, value in values.items():
            if key in _PATH_ATOMS or key.endswith("}i"):
                values[key] = _clean(value)
        return atoms
