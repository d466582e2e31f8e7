"""The switch and optics catalogue as admin-editable rows (generated from the domain
catalogue, ``selector.domain.catalogue.data``) and the company's price lists."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from selector.domain.bom import Prices
from selector.domain.catalogue import PartSpec, Source, SwitchSpec

from .localized import Localized


class SourceFields(models.Model):
    """Where a catalogue row's figures come from: the document's title as published, its
    public URL and the date we read it. A row without a title and date does not ship
    (``clean`` and tests/content/test_catalogue.py)."""

    source_title = models.CharField(_("source title"), max_length=300)
    source_title_zh = models.CharField(
        _("source description (Chinese)"), max_length=300, blank=True,
        help_text=_("Our Chinese description of an English-only document (not its title)."))
    source_url = models.URLField(_("source URL"), max_length=500, blank=True)
    source_date = models.DateField(_("date read"))
    more_sources = models.JSONField(
        _("further sources"), default=list, blank=True,
        help_text=_('A list of {"title", "url", "date", "title_zh"} objects.'))

    class Meta:
        abstract = True

    def set_sources(self, sources: tuple[Source, ...]) -> None:
        """The inverse of ``source_list``: the first source in the columns, the rest in
        ``more_sources``."""
        first = sources[0]
        self.source_title, self.source_title_zh = first.title, first.title_zh
        self.source_url = first.url
        self.source_date = datetime.date.fromisoformat(first.date)
        self.more_sources = [src.to_dict() for src in sources[1:]]

    def source_list(self) -> tuple[Source, ...]:
        first = Source(self.source_title, self.source_url,
                       self.source_date.isoformat() if self.source_date else "",
                       self.source_title_zh)
        more = self.more_sources if isinstance(self.more_sources, list) else []
        return (first, *(Source.from_dict(item) for item in more if isinstance(item, dict)))

    def clean(self):
        super().clean()
        if not (self.source_title or "").strip():
            raise ValidationError({"source_title": _("Every catalogue row needs a source.")})
        for item in self.more_sources or []:
            if not isinstance(item, dict) or not str(item.get("title", "")).strip():
                raise ValidationError({"more_sources": _("Each source needs a title.")})


class Switch(SourceFields):
    """A switch you can order (one row per model; breakouts give the lower port speeds)."""

    class Technology(models.TextChoices):
        ETHERNET = "ethernet", _("Ethernet")
        INFINIBAND = "infiniband", _("InfiniBand")

    key = models.SlugField(_("key"), max_length=60, unique=True)
    vendor = models.CharField(_("vendor"), max_length=60)
    vendor_key = models.CharField(
        _("vendor preference key"), max_length=20,
        help_text=_("The value of the wizard's and the API's vendor choice."))
    model = models.CharField(_("model"), max_length=100)
    asic = models.CharField(_("ASIC"), max_length=100, blank=True)
    technology = models.CharField(_("technology"), max_length=20, choices=Technology.choices)
    family = models.CharField(_("tuning family"), max_length=40, blank=True,
                              help_text=_("nvidia-spectrum, sonic, nvidia-quantum"))
    ports = models.PositiveIntegerField(_("native ports"))
    port_speed_gbps = models.PositiveIntegerField(_("native port speed (Gb/s)"))
    breakout = models.CharField(_("breakout speeds (Gb/s)"), max_length=40, blank=True,
                                help_text=_("Comma-separated, e.g. 400,200"))
    cages = models.PositiveIntegerField(_("cages"), default=0)
    power_w = models.PositiveIntegerField(_("maximum power (W)"), null=True, blank=True)
    rack_units = models.PositiveSmallIntegerField(
        _("rack units"), null=True, blank=True,
        help_text=_("Height from the switch's own documents; empty where none gives it."))
    priority = models.PositiveSmallIntegerField(
        _("priority"), default=100,
        help_text=_("Breaks ties in the vendor-neutral pick (lower first)."))
    is_active = models.BooleanField(_("offered"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["technology", "priority", "key"]
        verbose_name = _("switch")
        verbose_name_plural = _("switch catalogue")

    def __str__(self) -> str:
        return f"{self.vendor} {self.model} ({self.ports} x {self.port_speed_gbps}G)"

    @classmethod
    def from_spec(cls, spec: SwitchSpec) -> Switch:
        """An unsaved row holding ``spec``: ``to_spec`` gives ``spec`` back (the fixture is
        generated this way, ``manage.py catalogue_fixture``)."""
        row = cls(key=spec.key, vendor=spec.vendor, vendor_key=spec.vendor_key,
                  model=spec.model, asic=spec.asic, technology=spec.technology,
                  family=spec.family, ports=spec.ports, port_speed_gbps=spec.port_speed_gbps,
                  breakout=",".join(str(b) for b in spec.breakout), cages=spec.cages,
                  power_w=spec.power_w, rack_units=spec.rack_units, priority=spec.priority)
        row.set_sources(spec.sources)
        return row

    def to_spec(self) -> SwitchSpec:
        return SwitchSpec(
            key=self.key, vendor=self.vendor, model=self.model, technology=self.technology,
            ports=self.ports, port_speed_gbps=self.port_speed_gbps,
            sources=self.source_list(),
            breakout=tuple(int(x) for x in self.breakout.replace(" ", "").split(",") if x),
            asic=self.asic, family=self.family, vendor_key=self.vendor_key,
            cages=self.cages, power_w=self.power_w, priority=self.priority,
            rack_units=self.rack_units,
        )


class Part(SourceFields):
    """An optical module or a cable the bill of materials counts."""

    class Kind(models.TextChoices):
        MODULE = "module", _("Optical module")
        CABLE = "cable", _("Cable")

    key = models.SlugField(_("key"), max_length=60, unique=True)
    vendor = models.CharField(_("vendor"), max_length=60)
    model = models.CharField(_("part number"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    end = models.CharField(_("where it goes"), max_length=20,
                           help_text=_("switch, nic, fibre, switch-nic or switch-switch"))
    medium = models.CharField(_("medium"), max_length=10,
                              help_text=_("dac, acc, mmf, smf or smf-lc"))
    link_gbps = models.PositiveIntegerField(_("link speed (Gb/s)"))
    links = models.PositiveSmallIntegerField(_("links carried"))
    reach_m = models.PositiveIntegerField(_("reach (m)"))
    power_w = models.DecimalField(_("maximum power (W)"), max_digits=6, decimal_places=2,
                                  null=True, blank=True)
    technology = models.CharField(_("technology"), max_length=20, default="any")
    nic = models.CharField(_("NIC port"), max_length=20, blank=True)
    fits_vendor = models.CharField(_("fits switches of vendor"), max_length=20, blank=True)
    description_en = models.CharField(_("description (English)"), max_length=200, blank=True)
    description_zh = models.CharField(_("description (Chinese)"), max_length=200, blank=True)
    is_active = models.BooleanField(_("offered"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    description = Localized("description")

    class Meta:
        ordering = ["kind", "key"]
        verbose_name = _("optic or cable")
        verbose_name_plural = _("optics and cables")

    def __str__(self) -> str:
        return f"{self.vendor} {self.model}"

    @classmethod
    def from_spec(cls, spec: PartSpec) -> Part:
        """An unsaved row holding ``spec`` (the inverse of ``to_spec``)."""
        power = None if spec.power_w is None else Decimal(str(spec.power_w)).quantize(
            Decimal("0.01"))
        row = cls(key=spec.key, vendor=spec.vendor, model=spec.model, kind=spec.kind,
                  end=spec.end, medium=spec.medium, link_gbps=spec.link_gbps,
                  links=spec.links, reach_m=spec.reach_m, power_w=power,
                  technology=spec.technology, nic=spec.nic, fits_vendor=spec.fits_vendor,
                  description_en=spec.description, description_zh=spec.description_zh)
        row.set_sources(spec.sources)
        return row

    def to_spec(self) -> PartSpec:
        return PartSpec(
            key=self.key, vendor=self.vendor, model=self.model, kind=self.kind, end=self.end,
            medium=self.medium, link_gbps=self.link_gbps, links=self.links,
            reach_m=self.reach_m, sources=self.source_list(),
            description=self.description_en, description_zh=self.description_zh,
            power_w=None if self.power_w is None else float(self.power_w),
            technology=self.technology, nic=self.nic, fits_vendor=self.fits_vendor,
        )


class PriceList(models.Model):
    """The company's unit prices for switches, optics and cables. Without an active price
    list every page says "Price on request"; prices are never invented."""

    currency = models.CharField(_("currency"), max_length=3, default="CNY")
    as_of = models.DateField(_("prices as of"))
    note_zh = models.CharField(_("note (Chinese)"), max_length=300, blank=True)
    note_en = models.CharField(_("note (English)"), max_length=300, blank=True)
    is_example = models.BooleanField(
        _("example prices"), default=False,
        help_text=_("Demo data: pages label the estimate as an example."))
    is_active = models.BooleanField(_("in use"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    note = Localized("note")

    class Meta:
        ordering = ["-as_of", "-pk"]
        verbose_name = _("price list")
        verbose_name_plural = _("price lists")

    def __str__(self) -> str:
        return f"{self.currency} {self.as_of}"

    def to_prices(self) -> Prices:
        return Prices(
            currency=self.currency, as_of=self.as_of.isoformat(),
            unit={p.item_key: p.amount for p in self.prices.all()},
            note=self.note_en, note_zh=self.note_zh, is_example=self.is_example,
        )

    @classmethod
    def current(cls) -> Prices | None:
        """The active price list, read now (pages read it through selector.content.snapshot)."""
        price_list = cls.objects.filter(is_active=True).prefetch_related("prices").first()
        return price_list.to_prices() if price_list else None


class UnitPrice(models.Model):
    price_list = models.ForeignKey(PriceList, on_delete=models.CASCADE, related_name="prices",
                                   verbose_name=_("price list"))
    item_key = models.SlugField(_("switch or part key"), max_length=60)
    amount = models.DecimalField(_("unit price"), max_digits=14, decimal_places=2)

    class Meta:
        ordering = ["item_key"]
        verbose_name = _("unit price")
        verbose_name_plural = _("unit prices")
        constraints = [models.UniqueConstraint(fields=["price_list", "item_key"],
                                               name="unitprice_one_per_item")]

    def __str__(self) -> str:
        return f"{self.item_key}: {self.amount}"
