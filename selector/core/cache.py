"""The shared cache: what production requires of it, and the database backend used when
there is no Redis.

Rate limits, the login throttle, sessions' companions and the pre-rendered PDFs live in
the cache, so with several gunicorn workers (or machines) the cache must be one that every
process sees. ``process_local_caches`` names the configured caches that are not;
``selector.core.apps`` refuses to start with DEBUG off while there is one.
"""

from __future__ import annotations

import base64
import logging
import pickle
from datetime import datetime
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.db import BaseDatabaseCache
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.core.cache.backends.memcached import BaseMemcachedCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.module_loading import import_string
from django.utils.timezone import now as tz_now
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
# What redis-py raises when the server is gone, refuses, or does not answer in time.
REDIS_DOWN = (RedisConnectionError, RedisTimeoutError)

SHARED_BACKENDS: tuple[type[BaseCache], ...] = (RedisCache, BaseDatabaseCache,
                                                 BaseMemcachedCache)


def process_local_caches(caches: dict[str, dict[str, Any]]) -> list[str]:
    """Aliases in ``caches`` (settings.CACHES) whose backend is not shared between
    processes: local memory, dummy (no cache at all) or files on one machine."""
    local = []
    for alias, config in caches.items():
        backend = import_string(config["BACKEND"])
        if not (isinstance(backend, type) and issubclass(backend, SHARED_BACKENDS)):
            local.append(alias)
    return local


class DatabaseCache(DjangoDatabaseCache):
    """Django's database cache with an atomic ``incr``.

    Django's generic ``incr`` is a get and a set: two processes counting at once lose a
    hit, and the set resets the entry's expiry to the default timeout (300 s), which would
    turn an hourly rate-limit window into a five-minute one. Here the row is locked
    (SELECT ... FOR UPDATE on PostgreSQL) while it is read and rewritten, and its expiry
    is kept, as Redis's INCR does."""

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table, k, v, e = (quote_name(n) for n in (
            self.cache_model_class._meta.db_table, "cache_key", "value", "expires"))
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(f"SELECT {v}, {e} FROM {table} WHERE {k} = %s{lock}", [key])  # noqa: S608
            row = cursor.fetchone()
            if row is None or self._expired(connection, row[1]):
                raise ValueError(f"Key '{key}' not found")
            stored = connection.ops.process_clob(row[0])
            value: int = pickle.loads(base64.b64decode(stored.encode(), validate=True)) + delta  # noqa: S301
            encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {v} = %s WHERE {k} = %s", [encoded, key])  # noqa: S608
        return value

    @staticmethod
    def _expired(connection: BaseDatabaseWrapper, stored: object) -> bool:
        expression = models.Expression(output_field=models.DateTimeField())
        for converter in (connection.ops.get_db_converters(expression)
                          + expression.get_db_converters(connection)):
            stored = converter(stored, expression, connection)
        assert isinstance(stored, datetime)
        return stored < tz_now()


class ResilientRedisCache(RedisCache):
    """Django's Redis cache, with Redis being down a cache miss rather than an error.

    Reads (``get``, ``get_many``, ``has_key``) answer the miss, writes (``set``,
    ``set_many``, ``delete``, ``delete_many``, ``touch``) do nothing, each logged, so a page
    that only caches (the result page's fragments, the dashboards) keeps working while
    Redis is away. Counters and claims (``add``, ``incr``, ``decr``) still raise: whoever
    counts decides whether to go on without (selector.leads.abuse lets a lead through; the
    error pages answer 503 otherwise). OPTIONS ``socket_connect_timeout`` and
    ``socket_timeout`` (settings: REDIS_TIMEOUT) keep a Redis that hangs from holding a
    request."""

    def _down(self, operation: str, exc: Exception) -> None:
        logger.warning("cache unavailable: %s on %s (%s)", type(exc).__name__, operation,
                       "miss" if operation.startswith(("get", "has")) else "skipped")

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except REDIS_DOWN as exc:
            self._down("get", exc)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            found: dict[Any, Any] = super().get_many(keys, version)
            return found
        except REDIS_DOWN as exc:
            self._down("get_many", exc)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except REDIS_DOWN as exc:
            self._down("has_key", exc)
            return False

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except REDIS_DOWN as exc:
            self._down("set", exc)

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT,
                 version: int | None = None) -> list[Any]:
        try:
            failed: list[Any] = super().set_many(data, timeout, version)
            return failed
        except REDIS_DOWN as exc:
            self._down("set_many", exc)
            return list(data)

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except REDIS_DOWN as exc:
            self._down("delete", exc)
            return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        try:
            super().delete_many(keys, version)
        except REDIS_DOWN as exc:
            self._down("delete_many", exc)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT,
              version: int | None = None) -> bool:
        try:
            return bool(super().touch(key, timeout, version))
        except REDIS_DOWN as exc:
            self._down("touch", exc)
            return False
