"""Small typed readers for environment variables.

Each raises ImproperlyConfigured with the variable's name when the value cannot be
parsed, so a typo in a deployment fails at start-up instead of at the first request.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, overload
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


@overload
def env_str(name: str, default: str) -> str: ...
@overload
def env_str(name: str, default: None = None) -> str | None: ...
def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {value!r}")


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be <= {maximum}, got {number}")
    return number


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def parse_database_url(url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn ``postgres://user:pass@host:port/name?opt=v`` or ``sqlite:///path`` into
    a Django DATABASES entry."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///relative/path or sqlite:////absolute/path
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        if not path:
            raise ImproperlyConfigured("DATABASE_URL: sqlite URL needs a file path")
        if not os.path.isabs(path):
            path = str(base_dir / path)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": path}
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured("DATABASE_URL: a PostgreSQL URL needs a database name")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured("DATABASE_URL: the port is not a number") from None
        options = dict(parse_qsl(parts.query))
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL: unsupported scheme {scheme!r} (use postgres:// or sqlite:///)"
    )
