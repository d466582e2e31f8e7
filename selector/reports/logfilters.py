"""A logging filter that keeps signed report links out of the logs.

Django's request logger writes the path of every 404/410/503 response ("Not Found:
/report/<token>/"); the token is a working download link to a customer's report until it
expires. The filter rewrites the token segment of /report/<token>/ and
/en/report/<token>/ paths (any language prefix) in the message and its arguments. Staff
paths (/report/staff/<public_id>/) need a login and are kept for debugging.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
_TOKEN_PATH = re.compile(r"(/report/)(?!staff/)[^/?#\s\"'<>]+")


def redact(text: str) -> str:
    return _TOKEN_PATH.sub(lambda m: m.group(1) + REDACTED, text)


def _clean(value):
    return redact(value) if isinstance(value, str) else value


class RedactReportTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(_clean(v) for v in record.args)
        return True
