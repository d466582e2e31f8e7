"""The quote as a PDF (报价单): a tagged PDF/A-3u through selector.documents, as the report
is made, in the quote's language or the other, with the company's details, the lines and
totals, the validity date and terms, a short plan summary, a QR code back to the online
quote and the same Offer JSON-LD as the page as its associated file (quote.jsonld)."""

from __future__ import annotations

import json
from datetime import datetime

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone, translation

from selector.content.queries import company
from selector.core.templatetags import site_extras
from selector.documents import document
from selector.documents.document import FileAttachment, RenderedPdf
from selector.documents.fetcher import asset_url, generated_url
from selector.leads.snapshots import lead_recommendation
from selector.planner.presenter import present
from selector.quotes import jsonld
from selector.quotes.links import quote_url
from selector.quotes.models import Quote

CSS_PATH = "css/quote-print.css"
LOGO_PATH = "img/logo.svg"
JSONLD_NAME = "quote.jsonld"
LANGUAGES = {"zh-hans", "en"}


def language_of(quote: Quote, requested: str | None = None) -> str:
    if requested in LANGUAGES:
        return requested
    return "en" if quote.language.startswith("en") else "zh-hans"


def _created(quote: Quote) -> datetime:
    return timezone.localtime(quote.sent_at or quote.updated_at or timezone.now())


def pdf_sources(quote: Quote, language: str) -> tuple[str, bytes]:
    """The print HTML and the JSON-LD attachment, in ``language``."""
    with translation.override(language):
        seller = company()
        lines = list(quote.lines.all())
        totals = quote.totals(lines)
        online = quote_url(quote) if quote.sent_at else ""
        offer = jsonld.offer(quote, totals, online or quote.number)
        vm = present(lead_recommendation(quote.lead), company=company(), id_prefix="quote")
        html = render_to_string("quotes/pdf.html", {
            "quote": quote, "company": company(), "lines": list(zip(lines, totals.lines,
                                                                     strict=True)),
            "totals": totals, "online": online, "lang_tag": "en" if language == "en"
            else "zh-Hans",
            "qr": site_extras.qr({"qr_image_url": generated_url}, online,
                                 translation.gettext("Scan to open this quote online"),
                                 "qr") if online else "",
            "plan_label": vm.recommendation_label, "plan_switches": vm.summary.switches_text,
            "gpus": quote.lead.gpus, "logo_url": asset_url(LOGO_PATH),
            "created": _created(quote),
            "contact": " · ".join(x for x in (seller.address, seller.phone, seller.email,
                                               seller.website) if x),
        })
    return html, json.dumps(offer, ensure_ascii=False, indent=2).encode()


def stylesheets() -> list:
    return [document.static_stylesheet(CSS_PATH)]


def quote_pdf(quote: Quote, language: str) -> RenderedPdf:
    html, attachment = pdf_sources(quote, language)
    return document.html_to_pdf(
        html, stylesheets=stylesheets(), created=_created(quote),
        attachments=[FileAttachment(content=attachment, name=JSONLD_NAME,
                                    description="schema.org Offer (JSON-LD)",
                                    relationship="Data")])


def filename(quote: Quote, language: str) -> str:
    return f"quote-{quote.number}-{'en' if language == 'en' else 'zh'}.pdf"


def pdf_response(quote: Quote, requested: str | None) -> HttpResponse:
    if requested is not None and requested not in LANGUAGES:
        raise Http404
    language = language_of(quote, requested)
    rendered = quote_pdf(quote, language)
    response = HttpResponse(rendered.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename(quote, language)}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
