"""The version of the code that draws the pages, for cache keys.

A fragment cached in the shared cache outlives a deploy (it is kept for a day, and the
cache is shared by every process, old and new). Its key therefore carries a digest of
everything that shapes the markup: the templates, the Python code of the project, the
compiled translations and the pinned requirements (the libraries' versions). A deploy
that changes any of them changes every fragment key, with nothing to bump by hand; a
deploy that changes none keeps the cache warm.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from django.conf import settings

# What the markup is made of, relative to the project's root. The pinned requirements stand
# for the installed libraries: a new Django or django-htmx can change a widget's markup or
# the htmx script's hashed static name, and a fragment kept from before must not outlive it.
PATTERNS = ("templates/**/*", "selector/**/*.py", "selector/**/*.mo", "requirements*.txt")


def digest_files(root: Path, patterns: Iterable[str] = PATTERNS) -> str:
    """A short digest of the names and bytes of the files under ``root`` that match."""
    files = sorted({p for pattern in patterns for p in root.glob(pattern) if p.is_file()})
    digest = hashlib.blake2b(digest_size=8)
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def code_version() -> str:
    """This process's code version (computed once: the code does not change under a
    running process; a deploy starts new ones)."""
    return digest_files(Path(settings.BASE_DIR))
