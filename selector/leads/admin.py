"""Leads in the Django admin: read-only for everyone but superusers, and even a superuser's
edit leaves a trace on the lead's timeline (status and owner changes as the same events
the workspace writes, other fields as "edited in the admin" with the field names). The
owner drop-down offers sales-role users only. Deletion happens in /staff/ only."""

from django.contrib import admin
from django.contrib.auth import get_user_model

from selector.leads.models import CalendarDay, DuplicateFlag, Lead, LeadEvent, RoutingRule

SALES_ROLES = ("sales", "managers")  # the role groups (selector.staff.permissions)


class LeadEventInline(admin.TabularInline):
    model = LeadEvent
    extra = 0
    fields = ("created_at", "kind", "actor", "data")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Lead)
class LeadAdmin(admin.ModelAdmin):
    list_display = ("report_number", "company", "score", "status", "recommendation",
                    "language", "owner", "created_at")
    list_filter = ("status", "score", "recommendation", "language", "utm_source")
    search_fields = ("report_number", "company", "email", "phone")
    readonly_fields = ("public_id", "report_number", "wizard_session", "answers",
                       "recommendation", "rule", "engine_version", "frozen_recommendation",
                       "consent_given_at", "consent_notice_version", "consent_user_agent",
                       "created_at", "updated_at", "merged_into", "first_contact_at",
                       "first_contact_by", "sla_due", "last_activity_at")
    inlines = [LeadEventInline]

    def has_change_permission(self, request, obj=None):
        # Managers and staff editors may look; changes go through /staff/ (services with
        # role checks and timeline events). Only a superuser may correct a row here.
        return request.user.is_active and request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        # A lead is deleted only on the customer's request, in /staff/ (managers):
        # selector.staff.services.lead_delete_on_request removes the report and keeps the
        # anonymous LeadDeletion record, which a plain admin delete would skip.
        return False

    def has_add_permission(self, request):
        return False

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "owner":
            kwargs["queryset"] = get_user_model().objects.filter(
                is_active=True, groups__name__in=SALES_ROLES).distinct().order_by("username")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if change and form.changed_data:
            obj.version += 1  # a workspace tab opened before this correction is stale
        super().save_model(request, obj, form, change)
        if not change:
            return
        changed = list(form.changed_data)
        initial = form.initial
        if "status" in changed:
            LeadEvent.objects.create(lead=obj, kind=LeadEvent.Kind.STATUS_CHANGED,
                                     actor=request.user,
                                     data={"from": initial.get("status"), "to": obj.status,
                                           "via": "admin"})
            changed.remove("status")
        if "owner" in changed:
            User = get_user_model()
            old = User.objects.filter(pk=initial.get("owner")).first()
            LeadEvent.objects.create(lead=obj, kind=LeadEvent.Kind.OWNER_CHANGED,
                                     actor=request.user,
                                     data={"from": old.get_username() if old else None,
                                           "to": obj.owner.get_username() if obj.owner
                                           else None, "via": "admin"})
            changed.remove("owner")
        if changed:
            LeadEvent.objects.create(lead=obj, kind=LeadEvent.Kind.EDITED, actor=request.user,
                                     data={"fields": sorted(changed)})


@admin.register(DuplicateFlag)
class DuplicateFlagAdmin(admin.ModelAdmin):
    list_display = ("lead", "other", "reasons", "similarity", "dismissed_at", "created_at")
    readonly_fields = ("lead", "other", "reasons", "similarity", "dismissed_at",
                       "dismissed_by", "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(CalendarDay)
class CalendarDayAdmin(admin.ModelAdmin):
    """The sales team's working calendar: the year's public holidays and make-up working
    days (调休), as the State Council's notice on the holiday arrangements lists them. The
    SLA deadlines, SLA messages and daily digests follow it from the next minute on."""

    list_display = ("day", "kind", "name")
    list_filter = ("kind",)
    date_hierarchy = "day"
    search_fields = ("name",)


@admin.register(RoutingRule)
class RoutingRuleAdmin(admin.ModelAdmin):
    """Lead routing, set by the managers: new leads round robin over a team of active reps,
    or into the pool (公海); one rule active at a time; how long an untouched lead stays
    with its owner before it returns to the pool. Read-only for everyone else."""

    list_display = ("name", "mode", "active", "return_after_hours", "updated_at")
    filter_horizontal = ("team",)

    def _manager(self, request) -> bool:
        user = request.user
        return user.is_active and (user.is_superuser
                                   or user.groups.filter(name="managers").exists())

    def has_view_permission(self, request, obj=None):
        return self._manager(request) or super().has_view_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._manager(request)

    def has_add_permission(self, request):
        return self._manager(request)

    def has_delete_permission(self, request, obj=None):
        return self._manager(request)

    def has_module_permission(self, request):
        return self._manager(request) or super().has_module_permission(request)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "team":
            kwargs["queryset"] = get_user_model().objects.filter(
                is_active=True, groups__name__in=SALES_ROLES).distinct().order_by("username")
        return super().formfield_for_manytomany(db_field, request, **kwargs)
