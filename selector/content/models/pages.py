"""What the pages say: the company profile, the article's blocks, the FAQ and the
comparison table."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from selector.domain.catalogue import Source

from .localized import Localized

WECOM_LINK_PREFIX = "https://work.weixin.qq.com/ca/"
# "用户可在获客链接后拼接customer_channel=自定义字符串，字符串不超过64字节，超过会被截断"; the
# customers added through such a link carry it back as ``state`` (企业微信开发者中心,
# 获取由获客链接添加的客户信息, https://developer.work.weixin.qq.com/document/path/101359,
# last updated 2026-02-06, read 2026-12-03).
WECOM_CHANNEL_MAX_BYTES = 64


def validate_wecom_link(value: str) -> None:
    if value and not value.startswith(WECOM_LINK_PREFIX):
        raise ValidationError(_("A WeCom customer-acquisition link starts with %(prefix)s"),
                              params={"prefix": WECOM_LINK_PREFIX}, code="wecom_link")


def wecom_link_with_channel(link: str, channel: str) -> str:
    """``link`` with ``customer_channel=<channel>`` appended (after its own query, such as
    ``comp_scene``), the channel cut to WeCom's 64 bytes of its letters, digits, - and _,
    so the sales engineer sees which report the customer came from."""
    if not link:
        return ""
    safe = "".join(c for c in channel if c.isascii() and (c.isalnum() or c in "-_"))
    safe = safe[:WECOM_CHANNEL_MAX_BYTES]
    if not safe:
        return link
    joiner = "&" if "?" in link else "?"
    return f"{link}{joiner}customer_channel={safe}"


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
    # "Talk to an engineer" on the result and thank-you pages (issue 26, finding 10).
    wecom_link = models.URLField(
        _("WeCom customer-acquisition link"), max_length=300, blank=True,
        validators=[validate_wecom_link],
        help_text=_("Created in the WeCom admin (https://work.weixin.qq.com/ca/...). "
                    "Customers open it to add an engineer; the site adds customer_channel "
                    "with the report number."))
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
        return bool(self.phone or self.email or self.wechat_name_zh or self.wechat_qr_url
                    or self.wecom_link)

    def wecom_link_for(self, channel: str) -> str:
        """The WeCom customer-acquisition link tagged with ``channel`` ("" without a link)."""
        return wecom_link_with_channel(self.wecom_link, channel)

    @property
    def phone_uri(self) -> str:
        """``tel:`` target: the digits and a leading +, nothing a browser would misdial."""
        digits = "".join(c for c in self.phone if c.isdigit() or c == "+")
        return f"tel:{digits}" if digits else ""

    @classmethod
    def current(cls) -> CompanyProfile:
        """The first profile row, or an unsaved default so pages render before data loads."""
        return cls.objects.order_by("pk").first() or cls.default()

    @classmethod
    def default(cls) -> CompanyProfile:
        """The unsaved profile shown until marketing's row exists (the company's names)."""
        return cls(
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
        TUNING = "tuning", _("Lossless tuning (PFC, ECN, adaptive routing)")
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
    """A row of the RoCE v2 / InfiniBand table. ``basis`` says whose statement it is: the
    company's article (its own voice), the company's estimate, or a public document (then
    the source title and the date it was read are required)."""

    class Basis(models.TextChoices):
        ARTICLE = "article", _("Our article")
        ESTIMATE = "estimate", _("Our estimate")
        SOURCED = "sourced", _("Public document")

    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    dimension_zh = models.CharField(_("dimension (Chinese)"), max_length=100)
    dimension_en = models.CharField(_("dimension (English)"), max_length=100, blank=True)
    roce_zh = models.CharField(_("RoCE v2 (Chinese)"), max_length=200)
    roce_en = models.CharField(_("RoCE v2 (English)"), max_length=200, blank=True)
    infiniband_zh = models.CharField(_("InfiniBand (Chinese)"), max_length=200)
    infiniband_en = models.CharField(_("InfiniBand (English)"), max_length=200, blank=True)
    basis = models.CharField(_("basis"), max_length=10, choices=Basis.choices,
                             default=Basis.ARTICLE)
    source_title = models.CharField(_("source title"), max_length=300, blank=True)
    source_title_zh = models.CharField(_("source description (Chinese)"), max_length=300,
                                       blank=True)
    source_url = models.URLField(_("source URL"), max_length=500, blank=True)
    source_date = models.DateField(_("date read"), null=True, blank=True)
    more_sources = models.JSONField(
        _("further sources"), default=list, blank=True,
        help_text=_('A list of {"title", "url", "date", "title_zh"} objects.'))
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

    def clean(self):
        super().clean()
        if self.basis == self.Basis.SOURCED and not (
                (self.source_title or "").strip() and self.source_date):
            raise ValidationError({"source_title": _(
                "A row based on a public document needs its title and the date it was read.")})

    def sources(self) -> tuple[Source, ...]:
        if not (self.source_title or "").strip():
            return ()
        first = Source(self.source_title, self.source_url,
                       self.source_date.isoformat() if self.source_date else "",
                       self.source_title_zh)
        more = self.more_sources if isinstance(self.more_sources, list) else []
        return (first, *(Source.from_dict(item) for item in more if isinstance(item, dict)))
