"""The recommendation report: one template, rendered as a web page and as an A4 PDF.

``ReportData`` is pure data (no lead, no request), so the renderer can be tested and
benchmarked on its own. Everything engineering comes from the recommendation it carries
(a lead's frozen snapshot, or a fresh one for samples) through the one presenter
(``selector.planner.presenter``), so the report shows exactly what the staff page and the
JSON-LD show for that lead, whatever the engine or the catalogue became since.

The PDF itself is made by ``selector.documents`` (WeasyPrint through its public API, the
report fonts, the fetcher that reads only the project's static files).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from selector.content import queries, snapshot
from selector.core.i18n import lang_tag, language_code
from selector.core.jsonld import dumps
from selector.core.sharing import share_token
from selector.core.siteurl import site_url
from selector.core.templatetags import site_extras
from selector.documents import document
from selector.documents.document import FileAttachment, RenderedPdf
from selector.documents.fetcher import StaticOnlyFetcher, asset_url, generated_url
from selector.domain import ENGINE_VERSION, Answers, Recommendation
from selector.planner.presenter import FabricView, ViewModel, present
from selector.planner.services import fresh, snapshot_digest
from selector.planner.words import watts
from selector.wizard.presenters import build_downloads

# Bump when the template, the CSS or the context change in a way that alters the PDF:
# it is part of every cache key, so old cached PDFs stop being served.
REPORT_VERSION = "2026-12-04.1"
TEMPLATE = "reports/report.html"
CSS_PATH = "css/report.css"
LOGO_PATH = "img/logo.svg"
PDF_CONTENT_TYPE = "application/pdf"
JSONLD_NAME = "report.jsonld"
# The JSON-LD travels in the PDF/A-3u (selector.documents) as an associated file, with the
# relationship Data: the machine-readable data the pages show.
JSONLD_RELATIONSHIP = "Data"

LANGUAGES = ("zh-hans", "en")

@dataclass(frozen=True)
class ReportData:
    """Everything a report needs that is specific to one customer."""

    report_number: str
    created: datetime
    language: str  # "zh-hans" or "en"
    customer_name: str
    customer_company: str
    answers: Answers
    # The frozen recommendation (a lead's snapshot); None: made fresh at render (samples).
    recommendation: Recommendation | None = field(default=None, compare=False)

    def rec(self) -> Recommendation:
        return self.recommendation if self.recommendation is not None else fresh(self.answers)

    @property
    def lang_tag(self) -> str:
        return lang_tag(self.language)

    @property
    def language_code(self) -> str:
        return language_code(self.language)


# ---------------------------------------------------------------------------------------
# Context


def _safe_json(value: dict) -> SafeString:
    """JSON for the web version's <script type="application/ld+json"> element."""
    return mark_safe(dumps(value))  # noqa: S308 - selector.core.jsonld escapes < > &


def created_at(data: ReportData) -> datetime:
    value = data.created
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        return value.replace(microsecond=0)
    if isinstance(value, date):
        return datetime.combine(value, time(9, 0))
    raise TypeError("created must be a date or datetime")


def report_jsonld(data: ReportData, vm: ViewModel) -> dict:
    """schema.org ``Report`` for the report: the recommendation, the answers, the plan's
    totals and the tuning values as ``PropertyValue``s, the company as publisher. No
    personal data: the customer's name and company are on the cover, not in metadata."""
    org = vm.organization
    decision = vm.decision
    return {
        "@context": "https://schema.org",
        "@type": "Report",
        "name": _("AI cluster network recommendation"),
        "reportNumber": data.report_number,
        "inLanguage": data.lang_tag,
        "dateCreated": created_at(data).isoformat(),
        "about": {
            "@type": "Thing",
            "name": vm.recommendation_label,
            "description": vm.rule_title,
        },
        "abstract": " ".join(vm.reasons),
        "keywords": ["RoCE v2", "InfiniBand", _("lossless Ethernet"), _("AI cluster network")],
        "publisher": org,
        "author": {"@id": org["@id"]},
        "additionalProperty": vm.property_values(),
        "version": f"{vm.engine_version}/{vm.catalogue_version}",
        "identifier": decision.rule,
        "url": result_url(data),
    }


def _absolute_in(language: str, name: str) -> str:
    with translation.override(language):
        return site_url() + reverse(name)


def result_url(data: ReportData) -> str:
    """The online result this report reproduces: the wizard's signed share link (the
    answers only, no personal data), absolute, in the report's language."""
    with translation.override(data.language_code):
        return site_url() + reverse("wizard:shared", args=[share_token(data.answers)])


def build_context(data: ReportData, *, web: bool = False, links: dict | None = None) -> dict:
    """The template context; call with ``data.language`` active (``render_html`` does)."""
    rec = data.rec()
    company = queries.company()
    vm = present(rec, company=company, id_prefix="report")
    jsonld = report_jsonld(data, vm)
    created = created_at(data)
    online = jsonld["url"]
    # QR codes in the PDF are PNGs served by the report's URL fetcher (site_extras.qr).
    qr_image_url = None if web else generated_url
    return {
        "result_url": online,
        "result_qr": site_extras.qr({"qr_image_url": qr_image_url}, online,
                                    _("Scan to open your result online"), "qr result-qr"),
        "qr_image_url": qr_image_url,
        "web": web,
        "links": links or {},
        "data": data,
        "vm": vm,
        "lang_tag": data.lang_tag,
        "created": created,
        "created_iso": created.isoformat(),
        "company": company,
        "rule_id": vm.rule_id,
        "rows": queries.comparison_rows(),
        "highlight": vm.highlight,
        "is_roce": vm.is_roce,
        "tuning": vm.tuning,
        "tuning_config": config_markup(vm.tuning.config, web=web) if vm.tuning else "",
        "parts_power": power_parts(vm.shown_fabric) if vm.shown_fabric else ("", ""),
        "tuning_rows": _numbered_citations(vm),
        "determinism_rows": _numbered_citations(vm, vm.determinism.rows if vm.determinism
                                                else []),
        "tuning_blocks": queries.blocks("tuning"),
        "faq": queries.faq_entries(topics=rec.faq_topics),
        "faq_url": _absolute_in(data.language_code, "public:faq"),
        "build_downloads": _absolute_downloads(build_downloads(rec)),
        "jsonld": jsonld,
        "jsonld_script": _safe_json(jsonld),
        "css_url": static(CSS_PATH) if web else "",
        "web_css_url": static("css/report-web.css") if web else "",
        "logo_url": static(LOGO_PATH) if web else asset_url(LOGO_PATH),
        "keywords": ", ".join(jsonld["keywords"]),
    }


def _absolute_downloads(context: dict | None) -> dict | None:
    """The build downloads of the result page (its signed share-link URLs), absolute: the
    PDF's appendix links to them."""
    if context is None:
        return None
    base = site_url()
    return {**context, **{key: base + context[key] for key in ("csv_url", "xlsx_url",
                                                                 "configs_url") if context[key]}}


# A comma not followed by white space: in the middle of a port list ("swp1s0-1,swp2s0-1").
_LIST_COMMA = re.compile(r",(?=\S)")


def config_markup(config: Iterable[tuple[str, object]], *, web: bool = False) -> SafeString:
    """The configuration snippet's lines (``(text, citation)`` pairs), one per line, with a
    line-break opportunity after each comma inside a token. By Unicode line breaking
    (UAX #14) a comma followed by a letter is none, so a long port list could only wrap
    inside a port name ("sw" | "p15s0-1", from ``overflow-wrap``). Neither adds a
    character to the text a reader copies: on the web page a ``<wbr />``; in the PDF a
    ZERO WIDTH SPACE, which WeasyPrint lays out as a break and writes no glyph for (a
    ``<wbr>`` element there costs ~60 ms CPU for the ~100 commas of the sample report)."""
    mark = ",<wbr />" if web else ",\u200b"
    lines = (_LIST_COMMA.sub(mark, str(escape(text))) for text, _cit in config)
    return mark_safe("\n".join(lines))  # noqa: S308 - every line escaped above


def power_parts(view: FabricView) -> tuple[str, str]:
    """The fabric's power as ``(figure, qualifier)``: "8,530 kW" and "(optics only)", so the
    parts table prints the figure on one line and the qualifier, which may wrap, under it
    (a narrow power column, not one as wide as the longest qualifier). ``("", text)``
    when the translation does not start with the figure."""
    figure, text = watts(view.power_w), view.power_text
    if text == figure:
        return figure, ""
    if text.startswith(figure):
        return figure, text[len(figure):].strip()
    return "", text


def _numbered_citations(vm: ViewModel, rows: list | None = None) -> list[tuple]:
    """The checklist's rows (or ``rows``) with each citation as ``(n, remark)``, n being the
    source's number in the report's numbered source list (vm.sources): the title is printed
    once there, not in every row (shorter, and faster to lay out)."""
    if rows is None:
        rows = vm.tuning.rows if vm.tuning else []
    if not rows:
        return []
    numbers = {src.original: n for n, src in enumerate(vm.sources, start=1)}
    return [(row, [(numbers.get(cit.source.original, "?"), cit.remark)
                   for cit in row.citations]) for row in rows]


def render_html(data: ReportData, *, web: bool = True, links: dict | None = None) -> str:
    with translation.override(data.language_code):
        return render_to_string(TEMPLATE, build_context(data, web=web, links=links))


def _jsonld_file(doc: dict) -> bytes:
    return json.dumps(doc, ensure_ascii=False, indent=2).encode()


def pdf_sources(data: ReportData) -> tuple[str, bytes]:
    """The print HTML and the ``report.jsonld`` attachment, from one context (one
    computation of the result, one round of content queries)."""
    with translation.override(data.language_code):
        context = build_context(data, web=False)
        return render_to_string(TEMPLATE, context), _jsonld_file(context["jsonld"])


# ---------------------------------------------------------------------------------------
# The PDF (selector.documents: WeasyPrint through its public API)


def stylesheet():
    """The parsed print CSS; parsed again only when the file changes."""
    return document.static_stylesheet(CSS_PATH)


def page_css_text(language: str) -> str:
    """"Page x of y" in the footer, in the report's language."""
    with translation.override(language_code(language)):
        pattern = _("Page %(page)s of %(pages)s")
    tokens = []
    for part in re.split(r"(%\((?:page|pages)\)s)", pattern):
        if part == "%(page)s":
            tokens.append("counter(page)")
        elif part == "%(pages)s":
            tokens.append("counter(pages)")
        elif part:
            tokens.append('"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"')
    content = " ".join(tokens)
    return ("@page { @bottom-right { content: " + content + "; width: 40%; "
            "text-align: right; font-size: 7pt; color: #5b6b7f; vertical-align: top; "
            "padding-top: 3mm; } } @page :first { @bottom-right { content: none; } }")


def page_css(language: str):
    """The footer's stylesheet, parsed once per language."""
    return document.string_stylesheet(page_css_text(language))


def stylesheets(language: str) -> list:
    """The report's print stylesheets (after the report fonts, which documents adds)."""
    return [stylesheet(), page_css(language)]


def html_to_pdf(html: str, *, attachment: bytes, created: datetime, language: str,
                fetcher: StaticOnlyFetcher | None = None) -> RenderedPdf:
    """The report's print HTML as a PDF/A-3u carrying its JSON-LD (no database: safe to run
    in a worker thread)."""
    return document.html_to_pdf(
        html, stylesheets=stylesheets(language), created=created, fetcher=fetcher,
        attachments=[FileAttachment(content=attachment, name=JSONLD_NAME,
                                    description="schema.org Report (JSON-LD)",
                                    relationship=JSONLD_RELATIONSHIP)])


def render_pdf_document(data: ReportData, fetcher: StaticOnlyFetcher | None = None
                        ) -> RenderedPdf:
    html, attachment = pdf_sources(data)
    return html_to_pdf(html, attachment=attachment, created=created_at(data),
                       language=data.language_code, fetcher=fetcher)


# ---------------------------------------------------------------------------------------
# Names and versions


def ascii_filename(data: ReportData) -> str:
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-"
                   for c in data.report_number).strip("-") or "report"
    return f"network-report-{safe}.pdf"


def display_filename(data: ReportData) -> str:
    with translation.override(data.language_code):
        return _("Network recommendation report %(number)s.pdf") % {
            "number": data.report_number}


def content_version() -> str:
    """Changes whenever any content changes (selector.content.snapshot's stamp), however it
    was edited: the admin, load_content, a queryset update() that leaves updated_at alone,
    or SQL by hand."""
    return hashlib.sha256(snapshot.current().stamp.encode()).hexdigest()[:32]


def report_version(data: ReportData, content: str | None = None) -> str:
    """A hash of everything that shapes the PDF: the frozen recommendation (or the answers),
    the customer's words on the cover, the content tables, REPORT_VERSION and the engine
    version that renders it (a new engine re-renders cached PDFs)."""
    rec = data.recommendation
    payload = json.dumps({
        "v": REPORT_VERSION,
        "engine": ENGINE_VERSION,
        "snapshot": snapshot_digest(rec.to_dict()) if rec is not None else None,
        "answers": data.answers.to_dict(),
        "number": data.report_number,
        "created": created_at(data).isoformat(),
        "name": data.customer_name,
        "company": data.customer_company,
        "content": content if content is not None else content_version(),
        "site": site_url(),  # the link and QR code to the online result
    }, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]
