"""The recommendation report: one template, rendered as a web page and as an A4 PDF.

``ReportData`` is pure data (no lead, no request), so the renderer can be tested and
benchmarked on its own. Everything engineering comes from ``compute_result`` and the
words from ``selector.core.explain`` and the content tables, so the report shows exactly
what the wizard and the API show.

Speed: WeasyPrint is slow to start, so the font configuration, the parsed print CSS, the
URL fetcher and the image cache are built once per process and reused.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from selector.content import queries
from selector.content.models import (
    CompanyProfile,
    ComparisonRow,
    ContentBlock,
    FaqEntry,
    Switch,
)
from selector.core import explain
from selector.core.jsonld import dumps
from selector.core.results import FabricOption, Result, compute_result
from selector.core.siteurl import site_url
from selector.domain import Answers, Fabric
from selector.reports import fonts
from selector.reports.diagram import fabric_svg
from selector.reports.fetcher import (
    ASSET_BASE_URL,
    FontFileFetcher,
    StaticOnlyFetcher,
    asset_url,
)

# Bump when the template, the CSS or the context change in a way that alters the PDF:
# it is part of every cache key, so old cached PDFs stop being served.
REPORT_VERSION = "2026-11-30.4"
TEMPLATE = "reports/report.html"
CSS_PATH = "css/report.css"
LOGO_PATH = "img/logo.svg"
PDF_CONTENT_TYPE = "application/pdf"
JSONLD_NAME = "report.jsonld"

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
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def lang_tag(self) -> str:
        return "en" if self.language.startswith("en") else "zh-Hans"

    @property
    def language_code(self) -> str:
        return "en" if self.language.startswith("en") else "zh-hans"


def normalise_language(code: str | None) -> str:
    return "en" if (code or "").lower().startswith("en") else "zh-hans"


# ---------------------------------------------------------------------------------------
# Context


def _bytes(n: int) -> str:
    """Exact where it matters: round decimal units (150 KB, 1.5 MB) or whole bytes."""
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g} MB"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000:,} KB"
    return f"{n:,} B"


def _option_context(option: FabricOption) -> dict:
    ctx = {
        "fabric": option.fabric.value,
        "label": explain.fabric_label(option.fabric),
        "short": str(explain.FABRIC_SHORT[option.fabric]),
        "plan": option.plan,
        "size": option.plan.size if option.plan else None,
        "switch": option.plan.switch if option.plan else None,
        "diagram": fabric_svg(option.plan.size) if option.plan else "",
        "note": "",
    }
    if option.plan is None:
        if option.fabric == Fabric.STANDARD:
            ctx["note"] = _("A conventional Ethernet network carries this traffic: there is "
                            "no lossless back-end fabric to size.")
        elif option.error == "too_large":
            ctx["note"] = _("Too many GPUs for a three-tier fabric of the catalogue switch "
                            "(at most %(max)s GPUs).") % {"max": f"{option.max_gpus or 0:,}"}
        else:
            ctx["note"] = _("No switch in our catalogue fits this fabric yet; our engineers "
                            "will size it with you.")
    return ctx


def _split_top_level(text: str) -> list[str]:
    """Split a citation at "; " outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and text.startswith("; ", i):
            parts.append(text[start:i])
            start = i + 2
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _tuning_rows(result: Result) -> tuple[list[dict], list[str]]:
    """Checklist rows and their numbered references. Each value's source (domain.md
    section 4) is split into the citation (its longest part, shared by several values and
    listed once) and the remark specific to the value."""
    t = result.tuning
    if t is None:
        return [], []
    src = t.sources
    rows = [
        (_("PFC (IEEE 802.1Qbb) enabled on priority"), str(t.pfc_priority), "pfc_priority"),
        (_("RoCE traffic: DSCP to priority"), f"DSCP {t.roce_dscp} → {t.pfc_priority}",
         "roce_dscp"),
        (_("CNP: DSCP to priority (strict priority)"), f"DSCP {t.cnp_dscp} → {t.cnp_priority}",
         "cnp_dscp"),
        (_("RoCE v2 UDP destination port"), str(t.roce_udp_port), "roce_udp_port"),
        (_("ECN minimum threshold (RoCE queue)"), _bytes(t.ecn_min_bytes), "ecn_min_bytes"),
        (_("ECN maximum threshold (RoCE queue)"), _bytes(t.ecn_max_bytes), "ecn_max_bytes"),
        (_("ECN marking probability"), f"{t.ecn_probability_pct} %", "ecn_probability_pct"),
        (_("Bandwidth-delay product at %(rtt)s round trip, %(speed)sG")
         % {"rtt": f"{t.rtt_us:g} µs", "speed": t.speed_gbps}, _bytes(t.bdp_bytes),
         "bdp_bytes"),
        (_("ECN maximum threshold, rule of thumb (2-3 x BDP)"),
         f"{_bytes(t.ecn_max_rule_of_thumb_bytes[0])} – "
         f"{_bytes(t.ecn_max_rule_of_thumb_bytes[1])}", "ecn_max_rule_of_thumb_bytes"),
        (_("PFC headroom per port and priority (%(cable)s m cable, MTU %(mtu)s)")
         % {"cable": t.cable_m, "mtu": t.mtu}, _bytes(t.pfc_headroom_bytes),
         "pfc_headroom_bytes"),
        (_("PFC watchdog"), _("On") if t.pfc_watchdog else _("Off"), "pfc_watchdog"),
        (_("Adaptive routing (RoCE unicast)"), _("On") if t.adaptive_routing else _("Off"),
         "adaptive_routing"),
    ]
    refs: list[str] = []
    out = []
    for label, value, key in rows:
        parts = _split_top_level(src[key])
        citation = max(parts, key=len)
        if citation not in refs:
            refs.append(citation)
        remark = "; ".join(explain.tuning_remark(p) for p in parts if p is not citation)
        out.append({"label": label, "value": value, "ref": refs.index(citation) + 1,
                    "remark": remark})
    return out, refs


def _answer_rows(answers: Answers) -> list[tuple[str, str]]:
    data = answers.to_dict()
    rows = [
        (str(explain.FIELD_LABELS["gpus"]), f"{answers.gpus:,}"),
        (str(explain.FIELD_LABELS["gpus_per_server"]), str(answers.gpus_per_server)),
        (_("Servers"), f"{answers.servers:,}"),
    ]
    for name in ("workload", "budget", "determinism", "throughput_limited", "nic_speed"):
        rows.append((str(explain.FIELD_LABELS[name]), explain.value_label(name, data[name])))
    return rows


def faq_topics(result: Result) -> set[str]:
    return result.faq_topics


def _highlight(fabric: Fabric) -> str:
    if fabric in (Fabric.ROCE_400, Fabric.ROCE_800):
        return "roce"
    if fabric == Fabric.INFINIBAND:
        return "infiniband"
    return ""


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


def report_jsonld(data: ReportData, company: CompanyProfile, result: Result) -> dict:
    """schema.org ``Report`` for the report. No personal data: the customer's name and
    company are on the cover, not in machine-readable metadata."""
    site = site_url()
    org = {
        "@type": "Organization",
        "@id": f"{site}/#organization",
        "name": company.name,
        "alternateName": company.short_name,
        "slogan": company.tagline,
        "url": company.website or f"{site}/",
    }
    if company.address:
        org["address"] = company.address
    if company.phone:
        org["telephone"] = company.phone
    if company.email:
        org["email"] = company.email
    decision = result.decision
    return {
        "@context": "https://schema.org",
        "@type": "Report",
        "name": _("AI cluster network recommendation"),
        "reportNumber": data.report_number,
        "inLanguage": data.lang_tag,
        "dateCreated": created_at(data).isoformat(),
        "about": {
            "@type": "Thing",
            "name": explain.fabric_label(decision.recommendation),
            "description": str(explain.RULE_TITLES[decision.rule]),
        },
        "abstract": " ".join(explain.reason_text(r) for r in decision.reasons),
        "keywords": ["RoCE v2", "InfiniBand", _("lossless Ethernet"), _("AI cluster network")],
        "publisher": org,
        "author": {"@id": org["@id"]},
    }


def build_context(data: ReportData, *, web: bool = False, links: dict | None = None) -> dict:
    """The template context; call with ``data.language`` active (``render_html`` does)."""
    result = compute_result(data.answers, Switch.catalogue())
    company = queries.company()
    decision = result.decision
    jsonld = report_jsonld(data, company, result)
    created = created_at(data)
    tuning_rows, tuning_refs = _tuning_rows(result)
    return {
        "web": web,
        "links": links or {},
        "data": data,
        "lang_tag": data.lang_tag,
        "created": created,
        "created_iso": created.isoformat(),
        "company": company,
        "result": result,
        "decision": decision,
        "texts": explain.decision_texts(decision),
        "rule_id": decision.rule,
        "answer_rows": _answer_rows(data.answers),
        "rows": queries.comparison_rows(),
        "highlight": _highlight(decision.recommendation),
        "options": [_option_context(result.recommended), _option_context(result.runner_up)],
        "recommended": _option_context(result.recommended),
        "is_roce": result.is_roce,
        "tuning": result.tuning,
        "tuning_rows": tuning_rows,
        "tuning_refs": tuning_refs,
        "tuning_blocks": queries.blocks("tuning"),
        "faq": queries.faq_entries(topics=faq_topics(result)),
        "jsonld": jsonld,
        "jsonld_script": _safe_json(jsonld),
        "css_url": static(CSS_PATH) if web else "",
        "web_css_url": static("css/report-web.css") if web else "",
        "logo_url": static(LOGO_PATH) if web else asset_url(LOGO_PATH),
        "keywords": ", ".join(jsonld["keywords"]),
    }


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
# WeasyPrint, built once per process

_lock = threading.Lock()
_image_cache: dict = {}
# WeasyPrint logs every layout step at INFO; keep the application log readable.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)


@lru_cache(maxsize=1)
def font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@lru_cache(maxsize=1)
def default_fetcher() -> StaticOnlyFetcher:
    return StaticOnlyFetcher()


@lru_cache(maxsize=4)
def _stylesheet(path: str, mtime: float):
    from weasyprint import CSS

    return CSS(filename=path, base_url=ASSET_BASE_URL + "css/", font_config=font_config(),
               url_fetcher=default_fetcher())


@lru_cache(maxsize=1)
def fonts_stylesheet():
    """@font-face rules for the cut-down report fonts (empty without them)."""
    from weasyprint import CSS

    paths = fonts.available_fonts()
    return CSS(string=fonts.font_face_css(), font_config=font_config(),
                url_fetcher=FontFileFetcher(paths.values()))


def stylesheet():
    """The parsed print CSS; parsed again only when the file changes."""
    import os

    path = finders.find(CSS_PATH)
    return _stylesheet(path, os.stat(path).st_mtime)


@lru_cache(maxsize=8)
def _page_css(pattern: str):
    from weasyprint import CSS

    tokens = []
    for part in re.split(r"(%\((?:page|pages)\)s)", pattern):
        if part == "%(page)s":
            tokens.append("counter(page)")
        elif part == "%(pages)s":
            tokens.append("counter(pages)")
        elif part:
            tokens.append('"' + part.replace("\\", "\\\\").replace('"', '\\"') + '"')
    content = " ".join(tokens)
    css = (
        "@page { @bottom-right { content: " + content + "; width: 40%; text-align: right; "
        "font-size: 7pt; color: #5b6b7f; vertical-align: top; padding-top: 3mm; } } "
        "@page :first { @bottom-right { content: none; } }"
    )
    return CSS(string=css, font_config=font_config(), url_fetcher=default_fetcher())


def page_css(language: str):
    """"Page x of y" in the footer, in the report's language (parsed once per language)."""
    with translation.override(normalise_language(language)):
        return _page_css(_("Page %(page)s of %(pages)s"))


@contextmanager
def _cyclic_gc_paused():
    """A render builds some 100,000 objects that live until it ends, and the cyclic garbage
    collector would scan them again at every collection it triggers: measured on the
    sample report, 12 ms of the median and ~90 ms of the 95th percentile (full
    collections). Reference counting still frees everything meanwhile; what the render
    leaves in cycles goes at the next collection after it. Renders run one at a time
    (``_lock``), so the pause lasts one render; bench/pdf_soak.py checks that memory stays
    flat over 500 renders."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass(frozen=True)
class RenderedPdf:
    content: bytes
    pages: int


def html_to_pdf(html: str, *, attachment: bytes, created: datetime, language: str,
                fetcher: StaticOnlyFetcher | None = None) -> RenderedPdf:
    """WeasyPrint only (no database): safe to run in a worker thread."""
    from weasyprint import Attachment

    from selector.reports.document import ReportHTML

    fetcher = fetcher or default_fetcher()
    stylesheets = [fonts_stylesheet(), stylesheet(), page_css(language)]
    with _lock, _cyclic_gc_paused():  # one render at a time: WeasyPrint shares the font map
        document = ReportHTML(html, base_url=ASSET_BASE_URL, url_fetcher=fetcher).render(
            font_config=font_config(), stylesheets=stylesheets, cache=_image_cache)
        # Attachments come only from us: drop anything a <link rel=attachment> declared.
        document.metadata.attachments = []
        naive = created.replace(tzinfo=None)
        pdf = document.write_pdf(attachments=[Attachment(
            string=attachment, name=JSONLD_NAME, url_fetcher=fetcher,
            description="schema.org Report (JSON-LD)", created=naive, modified=naive,
            relationship="Data")])
    return RenderedPdf(pdf, len(document.pages))


def render_pdf_document(data: ReportData, fetcher: StaticOnlyFetcher | None = None
                        ) -> RenderedPdf:
    html, attachment = pdf_sources(data)
    return html_to_pdf(html, attachment=attachment, created=created_at(data),
                       language=data.language_code, fetcher=fetcher)


def render_pdf(data: ReportData, fetcher: StaticOnlyFetcher | None = None) -> bytes:
    return render_pdf_document(data, fetcher).content


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
    """Changes whenever marketing edits any content the report shows."""
    from django.db.models import Count, Max

    parts = []
    for model in (CompanyProfile, ComparisonRow, ContentBlock, FaqEntry, Switch):
        agg = model.objects.aggregate(m=Max("updated_at"), n=Count("pk"))
        parts.append(f"{model.__name__}:{agg['m'] and agg['m'].isoformat()}:{agg['n']}")
    return "|".join(parts)


def report_version(data: ReportData, content: str | None = None) -> str:
    """A hash of everything that shapes the PDF: answers, the customer's words on the
    cover, the content tables and REPORT_VERSION."""
    payload = json.dumps({
        "v": REPORT_VERSION,
        "answers": data.answers.to_dict(),
        "number": data.report_number,
        "created": created_at(data).isoformat(),
        "name": data.customer_name,
        "company": data.customer_company,
        "content": content if content is not None else content_version(),
    }, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]
