"""Counting hits in a fixed window of the shared cache: the one counter behind the API rate
limit, the lead submission brake and the staff password-reset throttle."""

from __future__ import annotations

from django.core.cache import cache


def count_hit(key: str, timeout: int) -> int:
    """Count one hit under ``key`` (kept ``timeout`` seconds from its first hit) and return
    the hits so far. ``incr`` is atomic in the shared cache, so concurrent processes never
    lose a hit; a key that expires between ``add`` and ``incr`` starts again at one."""
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1
