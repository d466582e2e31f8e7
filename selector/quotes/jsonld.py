"""The quote as schema.org JSON-LD: an ``Offer`` (the total with VAT as its price, valid
until ``priceValidUntil``) with two ``PriceSpecification``s (before and with VAT,
``valueAddedTaxIncluded``) and one ``UnitPriceSpecification`` per line, its product or
service and quantity. Vocabulary: https://schema.org/Offer, https://schema.org/PriceSpecification,
https://schema.org/valueAddedTaxIncluded (read 2026-12-02). The quote page embeds it;
the PDF carries the same document as its associated file."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe

from selector.content.queries import company
from selector.core.jsonld import dumps
from selector.quotes.models import LineKind, Quote
from selector.quotes.money import Totals

SERVICES = {LineKind.SERVICE, LineKind.SUPPORT}


def offer(quote: Quote, totals: Totals, url: str) -> dict[str, Any]:
    seller = company()
    lines = list(quote.lines.all())
    return {
        "@context": "https://schema.org",
        "@type": "Offer",
        "@id": url,
        "url": url,
        "name": quote.number,
        "identifier": quote.number,
        "seller": {"@type": "Organization", "name": seller.name_zh,
                   "alternateName": seller.name_en},
        "price": str(totals.total),
        "priceCurrency": quote.currency,
        "priceValidUntil": quote.valid_until.isoformat(),
        "priceSpecification": [
            {"@type": "PriceSpecification", "price": str(totals.net),
             "priceCurrency": quote.currency, "valueAddedTaxIncluded": False,
             "validThrough": quote.valid_until.isoformat()},
            {"@type": "PriceSpecification", "price": str(totals.total),
             "priceCurrency": quote.currency, "valueAddedTaxIncluded": True,
             "validThrough": quote.valid_until.isoformat()},
            *({"@type": "UnitPriceSpecification", "name": line.description,
               "price": str(line.unit_price), "priceCurrency": quote.currency,
               "valueAddedTaxIncluded": False,
               "referenceQuantity": {"@type": "QuantitativeValue", "value": line.quantity}}
              for line in lines if line.unit_price is not None),
        ],
        "itemOffered": [
            {"@type": "Service" if line.kind in SERVICES else "Product",
             "name": line.description, **({"sku": line.part_key} if line.part_key else {})}
            for line in lines],
    }


def script(data: dict[str, Any]) -> SafeString:
    """The JSON-LD for a <script type="application/ld+json"> element."""
    return mark_safe(dumps(data))  # noqa: S308 - selector.core.jsonld escapes < > &
