"""Content that marketing edits: the company profile, the article's blocks, the FAQ, the
comparison table and the switch catalogue. Each text exists in Simplified Chinese and
English; templates, the PDF and JSON-LD read the active language through ``Localized``.
The initial rows live in ``fixtures/content.json`` (loaded by ``manage.py load_content``).
"""

from .catalogue import Part, PriceList, SourceFields, Switch, UnitPrice
from .localized import Localized
from .pages import (
    WECOM_CHANNEL_MAX_BYTES,
    WECOM_LINK_PREFIX,
    CompanyProfile,
    ComparisonRow,
    ContentBlock,
    FaqEntry,
    validate_wecom_link,
    wecom_link_with_channel,
)

__all__ = [
    "Localized", "CompanyProfile", "ContentBlock", "FaqEntry", "ComparisonRow",
    "SourceFields", "Switch", "Part", "PriceList", "UnitPrice", "WECOM_LINK_PREFIX",
    "WECOM_CHANNEL_MAX_BYTES", "validate_wecom_link", "wecom_link_with_channel",
]
