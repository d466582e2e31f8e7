"""Read helpers for the marketing content, shared by the pages, the wizard, the PDF and
the JSON-LD so they all show the same rows in the same order. They read the process's
snapshot of the content (selector.content.snapshot): one query a request checks that it is
current. The rows are shared: read them, never change them."""

from __future__ import annotations

from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry
from selector.content.snapshot import current


def company() -> CompanyProfile:
    return current().company


def comparison_rows() -> list[ComparisonRow]:
    return list(current().comparison_rows)


def faq_entries(topics: set[str] | frozenset[str] | None = None) -> list[FaqEntry]:
    """Published FAQ entries; with ``topics``, only those tagged with at least one of them."""
    entries = list(current().faq)
    if topics is not None:
        entries = [e for e in entries if topics.intersection(e.topic_list)]
    return entries


def blocks(section: str) -> list[ContentBlock]:
    return [b for b in current().blocks if b.section == section]


def block(key: str) -> ContentBlock | None:
    return current().block(key)
