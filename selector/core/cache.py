"""The shared cache: what production requires of it, and the database backend used when
there is no Redis.

Rate limits, the login throttle, sessions' companions and the pre-rendered PDFs live in
the cache, so with several gunicorn workers (or machines) the cache must be one that every
process sees. ``process_local_caches`` names the configured caches that are not;
``selector.core.apps`` refuses to start with DEBUG off while there is one.
"""

from __future__ import annotations

import base64
import pickle
from datetime import datetime
from typing import Any

from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.db import BaseDatabaseCache
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.core.cache.backends.memcached import BaseMemcachedCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.module_loading import import_string
from django.utils.timezone import now as tz_now

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
