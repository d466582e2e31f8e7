from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry, Switch


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
                       "address_zh", "address_en"]}),
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
    list_display = ["key", "vendor", "model", "technology", "speed_gbps", "radix", "is_active"]
    list_filter = ["technology", "speed_gbps", "is_active"]
