from django.db import models


class CacheEntry(models.Model):
    """The table behind the database cache (settings.CACHES without REDIS_URL), in the
    exact shape ``manage.py createcachetable`` gives it. Declared as a model so a migration
    creates it on every deployment and test database, and test flushes empty it. Read and
    written only through Django's cache API (selector.core.cache.DatabaseCache)."""

    cache_key = models.CharField(max_length=255, primary_key=True)
    value = models.TextField()
    expires = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "selector_cache"
        verbose_name = "cache entry"
        verbose_name_plural = "cache entries"

    def __str__(self) -> str:
        return self.cache_key


def column_max_length(model: type[models.Model], name: str) -> int | None:
    """The ``max_length`` of ``model``'s column ``name`` (None: unbounded), for code that
    fits outside text to a column before saving it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{name} is a relation, not a column"
    return field.max_length
