"""Read helpers for the marketing content, shared by the pages, the wizard, the PDF and
the JSON-LD so they all show the same rows in the same order."""

from __future__ import annotations

from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry


def company() -> CompanyProfile:
    return CompanyProfile.current()


def comparison_rows() -> list[ComparisonRow]:
    return list(ComparisonRow.objects.all())


def faq_entries(topics: set[str] | None = None) -> list[FaqEntry]:
    """Published FAQ entries; with ``topics``, only those tagged with at least one of them."""
    entries = list(FaqEntry.objects.filter(is_published=True))
    if topics is not None:
        entries = [e for e in entries if topics.intersection(e.topic_list)]
    return entries


def blocks(section: str) -> list[ContentBlock]:
    return list(ContentBlock.objects.filter(section=section))


def block(key: str) -> ContentBlock | None:
    return ContentBlock.objects.filter(key=key).first()
