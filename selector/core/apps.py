from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from selector.core.cache import process_local_caches


class CoreConfig(AppConfig):
    name = "selector.core"
    label = "core"

    def ready(self) -> None:
        # Every process (gunicorn workers, the task worker, manage.py) refuses to start in
        # production on a cache that other processes cannot see: rate limits, the login
        # throttle and the PDF cache would silently become per-worker.
        local = [] if settings.DEBUG else process_local_caches(settings.CACHES)
        if local:
            raise ImproperlyConfigured(
                f"CACHES[{local[0]!r}] uses {settings.CACHES[local[0]]['BACKEND']}, which "
                "each process keeps to itself. With DEBUG off the cache must be shared by "
                "every worker and machine: set REDIS_URL (redis://host:6379/0), or leave it "
                "unset to use the database cache (the selector_cache table, created by "
                "`manage.py migrate`).")
