from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from selector.content.models import (
    CompanyProfile,
    ComparisonRow,
    ContentBlock,
    FaqEntry,
    Part,
    PriceList,
    Switch,
    UnitPrice,
)


@admin.register(CompanyProfile)
class CompanyProfileAdmin(admin.ModelAdmin):
    list_display = ["name_zh", "name_en", "phone", "email", "wechat_name_zh"]
    fieldsets = [
        (None, {"fields": ["name_zh", "name_en", "short_name_zh", "short_name_en",
                           "tagline_zh", "tagline_en", "years_of_service", "clients",
                           "support_hours", "website"]}),
        (_("Contact channels (shown to customers)"), {
            "description": _("Shown in the page footer, on the thank-you, 429 and error "
                             "pages, in the report e-mail and in the PDF. Leave a channel "
                             "empty to hide it; never enter a number or address the team "
                             "does not answer."),
            "fields": ["phone", "email", "wechat_name_zh", "wechat_name_en", "wechat_qr_url",
                       "wecom_link", "address_zh", "address_en"]}),
    ]


@admin.register(ContentBlock)
class ContentBlockAdmin(admin.ModelAdmin):
    list_display = ["key", "section", "order", "title_zh", "updated_at"]
    list_filter = ["section"]
    list_editable = ["order"]
    search_fields = ["key", "title_zh", "title_en", "body_zh", "body_en"]


@admin.register(FaqEntry)
class FaqEntryAdmin(admin.ModelAdmin):
    list_display = ["question_zh", "question_en", "order", "topics", "is_published"]
    list_editable = ["order", "is_published"]
    search_fields = ["question_zh", "question_en", "answer_zh", "answer_en"]


@admin.register(ComparisonRow)
class ComparisonRowAdmin(admin.ModelAdmin):
    list_display = ["dimension_zh", "roce_zh", "infiniband_zh", "order"]
    list_editable = ["order"]


@admin.register(Switch)
class SwitchAdmin(admin.ModelAdmin):
    list_display = ["key", "vendor", "model", "technology", "ports", "port_speed_gbps",
                    "breakout", "power_w", "rack_units", "priority", "source_date", "is_active"]
    list_filter = ["technology", "vendor", "is_active"]
    search_fields = ["key", "vendor", "model", "asic", "source_title"]


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = ["key", "vendor", "model", "kind", "end", "medium", "link_gbps", "links",
                    "reach_m", "power_w", "source_date", "is_active"]
    list_filter = ["kind", "medium", "is_active"]
    search_fields = ["key", "vendor", "model", "source_title"]


class UnitPriceInline(admin.TabularInline):
    model = UnitPrice
    extra = 3


@admin.register(PriceList)
class PriceListAdmin(admin.ModelAdmin):
    list_display = ["currency", "as_of", "is_example", "is_active", "updated_at"]
    list_filter = ["is_active", "is_example"]
    inlines = [UnitPriceInline]
