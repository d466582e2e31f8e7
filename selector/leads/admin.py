from django.contrib import admin

from selector.leads.models import Lead, LeadEvent


class LeadEventInline(admin.TabularInline):
    model = LeadEvent
    extra = 0
    fields = ("created_at", "kind", "actor", "data")
    readonly_fields = fields
    can_delete = False


@admin.register(Lead)
class LeadAdmin(admin.ModelAdmin):
    list_display = ("report_number", "company", "score", "status", "recommendation",
                    "language", "owner", "created_at")
    list_filter = ("status", "score", "recommendation", "language", "utm_source")
    search_fields = ("report_number", "company", "email", "phone")
    readonly_fields = ("public_id", "report_number", "wizard_session", "answers",
                       "recommendation", "rule", "engine_version", "sizing",
                       "consent_given_at", "consent_notice_version", "consent_user_agent",
                       "created_at", "updated_at")
    inlines = [LeadEventInline]

    def has_delete_permission(self, request, obj=None):
        # A lead is deleted only on the customer's request, in /staff/ (managers):
        # selector.staff.services.lead_delete_on_request removes the report and keeps the
        # anonymous LeadDeletion record, which a plain admin delete would skip.
        return False
