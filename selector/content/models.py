"""Content that marketing edits: the company profile, the article's blocks, the FAQ, the
comparison table and the switch catalogue. Each text exists in Simplified Chinese and
English; templates, the PDF and JSON-LD read the active language through ``Localized``.
The initial rows live in ``fixtures/content.json`` (loaded by ``manage.py load_content``).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from selector.domain.catalogue import SwitchSpec


def active_language_suffix() -> str:
    return "en" if (get_language() or "zh-hans").startswith("en") else "zh"


class Localized:
    """``question = Localized("question")`` reads ``question_zh`` or ``question_en`` by the
    active language, falling back to Chinese (the source language) when English is blank."""

    def __init__(self, base: str):
        self.base = base

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = getattr(obj, f"{self.base}_{active_language_suffix()}")
        return value or getattr(obj, f"{self.base}_zh")


class CompanyProfile(models.Model):
    name_zh = models.CharField(_("name (Chinese)"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200)
    short_name_zh = models.CharField(_("short name (Chinese)"), max_length=50)
    short_name_en = models.CharField(_("short name (English)"), max_length=50)
    tagline_zh = models.CharField(_("tagline (Chinese)"), max_length=200)
    tagline_en = models.CharField(_("tagline (English)"), max_length=200)
    years_of_service = models.PositiveSmallIntegerField(_("years of IT service"))
    clients = models.CharField(_("enterprise clients"), max_length=20, help_text="2000+")
    support_hours = models.CharField(_("support hours"), max_length=20, help_text="7x24")
    # Contact channels, shown in every page footer, on the thanks, 429 and error pages, in
    # the customer's e-mail and in the PDF. Company data: empty until the company fills
    # them in the admin (an empty channel is simply not shown).
    phone = models.CharField(
        _("hotline"), max_length=40, blank=True,
        help_text=_("As customers dial it, e.g. 400-xxx-xxxx or +86 755 xxxx xxxx."))
    email = models.EmailField(_("sales e-mail"), blank=True)
    wechat_name_zh = models.CharField(
        _("WeChat official account or WeCom (Chinese)"), max_length=100, blank=True,
        help_text=_("The name customers search for in WeChat."))
    wechat_name_en = models.CharField(
        _("WeChat official account or WeCom (English)"), max_length=100, blank=True)
    wechat_qr_url = models.URLField(
        _("WeChat QR code link"), max_length=300, blank=True,
        help_text=_("The link the official account's or WeCom contact's QR code opens "
                    "(https://weixin.qq.com/... or https://work.weixin.qq.com/...). The QR "
                    "code is drawn from it on our server."))
    website = models.URLField(_("website"), blank=True)
    address_zh = models.CharField(_("office address (Chinese)"), max_length=300, blank=True)
    address_en = models.CharField(_("office address (English)"), max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    name = Localized("name")
    short_name = Localized("short_name")
    tagline = Localized("tagline")
    address = Localized("address")
    wechat_name = Localized("wechat_name")

    class Meta:
        verbose_name = _("company profile")
        verbose_name_plural = _("company profile")

    def __str__(self) -> str:
        return self.name_zh

    @property
    def has_channels(self) -> bool:
        """True when customers have a way to reach a person (phone, e-mail or WeChat)."""
        return bool(self.phone or self.email or self.wechat_name_zh or self.wechat_qr_url)

    @property
    def phone_uri(self) -> str:
        """``tel:`` target: the digits and a leading +, nothing a browser would misdial."""
        digits = "".join(c for c in self.phone if c.isdigit() or c == "+")
        return f"tel:{digits}" if digits else ""

    @classmethod
    def current(cls) -> CompanyProfile:
        """The first profile row, or an unsaved default so pages render before data loads."""
        return cls.objects.order_by("pk").first() or cls(
            name_zh="广东深华天成智能工程有限公司",
            name_en="Guangdong Shenhua Tiancheng Intelligent Engineering Co., Ltd.",
            short_name_zh="深华天成",
            short_name_en="Shenhua Tiancheng",
            tagline_zh="深圳AI算力与数据中心集成服务商",
            tagline_en="AI compute and data-centre integrator in Shenzhen",
            years_of_service=14,
            clients="2000+",
            support_hours="7x24",
        )


class ContentBlock(models.Model):
    class Section(models.TextChoices):
        ARTICLE = "article", _("Article (headline and description)")
        INTRO = "intro", _("Introduction")
        TUNING = "tuning", _("Lossless tuning three-piece set")
        DECISION = "decision", _("Decision tree line")
        KEY_POINT = "keypoint", _("Key point")
        CTA = "cta", _("Call to action")

    key = models.SlugField(_("key"), max_length=60, unique=True)
    section = models.CharField(_("section"), max_length=20, choices=Section.choices)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    title_zh = models.CharField(_("title (Chinese)"), max_length=200, blank=True)
    title_en = models.CharField(_("title (English)"), max_length=200, blank=True)
    body_zh = models.TextField(_("text (Chinese)"), max_length=4000, blank=True)
    body_en = models.TextField(_("text (English)"), max_length=4000, blank=True)
    # Only the "article" block uses it: schema.org Article.datePublished. dateModified is the
    # newest updated_at of the content the page shows, so it needs no field of its own.
    published_at = models.DateTimeField(
        _("first published"), null=True, blank=True,
        help_text=_("Article only: the publication date shown to search engines."),
    )
    updated_at = models.DateTimeField(auto_now=True)

    title = Localized("title")
    body = Localized("body")

    class Meta:
        ordering = ["section", "order", "key"]
        verbose_name = _("content block")
        verbose_name_plural = _("content blocks")

    def __str__(self) -> str:
        return f"{self.section}: {self.title_zh or self.key}"


class FaqEntry(models.Model):
    """One FAQ question. ``topics`` ties it to the wizard steps and results it explains
    (scale, workload, budget, determinism, speed, lossless, compare)."""

    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    question_zh = models.CharField(_("question (Chinese)"), max_length=300)
    question_en = models.CharField(_("question (English)"), max_length=300, blank=True)
    answer_zh = models.TextField(_("answer (Chinese)"), max_length=4000)
    answer_en = models.TextField(_("answer (English)"), max_length=4000, blank=True)
    topics = models.CharField(
        _("topics"), max_length=200, blank=True,
        help_text=_("Comma-separated: scale, workload, budget, determinism, speed, lossless, "
                    "compare"),
    )
    is_published = models.BooleanField(_("published"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    question = Localized("question")
    answer = Localized("answer")

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")

    def __str__(self) -> str:
        return self.question_zh

    @property
    def topic_list(self) -> list[str]:
        return [t.strip() for t in self.topics.split(",") if t.strip()]


class ComparisonRow(models.Model):
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    dimension_zh = models.CharField(_("dimension (Chinese)"), max_length=100)
    dimension_en = models.CharField(_("dimension (English)"), max_length=100, blank=True)
    roce_zh = models.CharField(_("RoCE v2 (Chinese)"), max_length=200)
    roce_en = models.CharField(_("RoCE v2 (English)"), max_length=200, blank=True)
    infiniband_zh = models.CharField(_("InfiniBand (Chinese)"), max_length=200)
    infiniband_en = models.CharField(_("InfiniBand (English)"), max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    dimension = Localized("dimension")
    roce = Localized("roce")
    infiniband = Localized("infiniband")

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("comparison row")
        verbose_name_plural = _("comparison table")

    def __str__(self) -> str:
        return self.dimension_zh


class Switch(models.Model):
    """A switch port configuration in the catalogue (one row per model and port speed)."""

    class Technology(models.TextChoices):
        ETHERNET = "ethernet", _("Ethernet")
        INFINIBAND = "infiniband", _("InfiniBand")

    key = models.SlugField(_("key"), max_length=60, unique=True)
    vendor = models.CharField(_("vendor"), max_length=60)
    model = models.CharField(_("model"), max_length=100)
    technology = models.CharField(_("technology"), max_length=20, choices=Technology.choices)
    speed_gbps = models.PositiveIntegerField(_("port speed (Gb/s)"))
    radix = models.PositiveIntegerField(_("ports at that speed"))
    source = models.CharField(_("source"), max_length=500)
    is_active = models.BooleanField(_("offered"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["technology", "speed_gbps", "key"]
        verbose_name = _("switch")
        verbose_name_plural = _("switch catalogue")

    def __str__(self) -> str:
        return f"{self.vendor} {self.model} ({self.radix} x {self.speed_gbps}G)"

    def to_spec(self) -> SwitchSpec:
        return SwitchSpec(
            key=self.key, vendor=self.vendor, model=self.model, technology=self.technology,
            speed_gbps=self.speed_gbps, radix=self.radix, source=self.source,
        )

    @classmethod
    def catalogue(cls) -> tuple[SwitchSpec, ...]:
        return tuple(s.to_spec() for s in cls.objects.filter(is_active=True))
