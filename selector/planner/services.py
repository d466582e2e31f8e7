"""The recommendation as the site makes and keeps it: a fresh one from the live catalogue
and price list (wizard, API, a new lead), or a lead's frozen snapshot (staff page, PDF,
JSON-LD). Both are the same ``selector.domain.Recommendation``, shown by the one presenter.
"""

from __future__ import annotations

import hashlib
import json

from selector.content.snapshot import current
from selector.domain import (
    ENGINE_VERSION,
    SNAPSHOT_VERSION,
    Answers,
    Recommendation,
    decision,
    recommend,
)


def fresh(answers: Answers) -> Recommendation:
    """A recommendation made now, with today's engine, catalogue and prices. A pure function
    of those, so the process keeps the last few hundred (the wizard shows one many times)."""
    content = current()
    catalogue, prices = content.catalogue, content.prices
    price_key = None if prices is None else (
        prices.currency, prices.as_of, prices.note, prices.note_zh, prices.is_example,
        tuple(sorted(prices.unit.items())))
    key = (tuple(answers.to_dict().items()), catalogue.version, price_key,
           decision.ENGINE_VERSION)
    rec = _FRESH.get(key)
    if rec is None:
        if len(_FRESH) >= _FRESH_MAX:
            _FRESH.pop(next(iter(_FRESH)))
        rec = _FRESH[key] = recommend(answers, catalogue, prices)
    return rec


_FRESH: dict[tuple, Recommendation] = {}
_FRESH_MAX = 256


def freeze(rec: Recommendation) -> dict:
    """The JSON snapshot a lead keeps (``Recommendation.from_dict`` gives it back)."""
    return rec.to_dict()


def thaw(snapshot: object) -> Recommendation | None:
    """The frozen recommendation, or None when ``snapshot`` is not one (a lead created
    before snapshots existed kept only a sizing summary)."""
    if not isinstance(snapshot, dict) or not snapshot.get("snapshot_version"):
        return None
    try:
        return Recommendation.from_dict(snapshot)
    except (KeyError, TypeError, ValueError):
        return None


def is_snapshot(snapshot: object) -> bool:
    return thaw(snapshot) is not None


def snapshot_digest(snapshot: dict) -> str:
    """A short digest of a snapshot (part of the report cache key)."""
    payload = json.dumps(snapshot, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


__all__ = ["ENGINE_VERSION", "SNAPSHOT_VERSION", "fresh", "freeze", "thaw", "is_snapshot",
           "snapshot_digest"]
