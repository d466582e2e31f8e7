"""The admin: the company's quote rules (VAT rate with its source, approval threshold,
validity, terms) and the quotes read-only (they change only through the workspace)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from selector.quotes.models import Quote, QuoteEvent, QuoteLine, QuoteSettings


@admin.register(QuoteSettings)
class QuoteSettingsAdmin(admin.ModelAdmin):
    list_display = ["__str__", "vat_rate", "approval_threshold", "validity_days", "updated_at"]
    fieldsets = [
        (_("Tax and approval"), {"fields": ["vat_rate", "approval_threshold"]}),
        (_("New quotes"), {"fields": ["validity_days", "terms_zh", "terms_en"]}),
    ]

    def has_add_permission(self, request):
        return super().has_add_permission(request) and not QuoteSettings.objects.exists()


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class LineInline(ReadOnly, admin.TabularInline):
    model = QuoteLine
    fields = readonly_fields = ("position", "kind", "part_key", "description", "quantity",
                                "unit_price", "discount_percent")


class EventInline(ReadOnly, admin.TabularInline):
    model = QuoteEvent
    fields = readonly_fields = ("created_at", "kind", "actor", "ip", "data")


@admin.register(Quote)
class QuoteAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "status", "total_amount", "valid_until", "sent_at",
                    "view_count", "accepted_at"]
    list_filter = ["status"]
    search_fields = ["lead__report_number", "lead__company"]
    list_select_related = ["lead"]
    inlines = [LineInline, EventInline]
    exclude = ["lead", "based_on"]
    readonly_fields = ["version", "status", "currency", "vat_rate", "total_discount_percent",
                       "valid_until", "terms", "list_total", "subtotal", "net_amount",
                       "vat_amount", "total_amount", "discount_percent", "complete",
                       "needs_approval", "created_by", "submitted_by", "submitted_at",
                       "approved_by", "approved_at", "sent_by", "sent_at", "first_viewed_at",
                       "last_viewed_at", "view_count", "accepted_at", "accepted_name",
                       "accepted_title", "accepted_ip", "accepted_consent"]
