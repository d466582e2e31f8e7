"""Bearer tokens never reach a log: the customer's signed report link (/report/<token>/,
a working download of their report for 30 days) and the result share link
(/wizard/r/<token>/), in any language prefix.

Used by Django's loggers (``RedactTokens``, settings.LOGGING) and by gunicorn's access log
(``GunicornLogger``, deploy/gunicorn.conf.py), which writes the request line of every
request whatever Django logs. Staff report paths (/staff/leads/<public_id>/report/) need
a log-in and stay readable for debugging.
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
_TOKEN_PATH = re.compile(r"(/report/|/wizard/r/)[^/?#\s\"'<>]+")
# gunicorn atoms that can carry a path: the request line, the path, the query string (a
# "next" parameter) and the referer.
_PATH_ATOMS = ("r", "U", "q", "f")


def redact(text: str) -> str:
    return _TOKEN_PATH.sub(lambda m: m.group(1) + REDACTED, text)


def _clean(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(_clean(v) for v in record.args)
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
