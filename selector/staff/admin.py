"""The workspace's own records in the admin: login throttles, read-only audit trails
(deletions on request, exports) and the staff profiles (mobile number for @mentions,
language)."""

from django.contrib import admin

from selector.staff.models import ExportLog, LeadDeletion, LoginThrottle, StaffProfile


@admin.register(LoginThrottle)
class LoginThrottleAdmin(admin.ModelAdmin):
    """Failed log-ins per (username, address, known browser). Deleting rows lifts the
    throttle (the same as "Unlock" on the workspace's security page)."""

    list_display = ("username", "ip", "device", "failures", "first_failed_at",
                    "last_failed_at")
    search_fields = ("username", "ip")
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(LeadDeletion)
class LeadDeletionAdmin(_ReadOnly):
    list_display = ("deleted_at", "actor", "lead_created_on", "recommendation", "score",
                    "status", "utm_source", "reason")
    list_filter = ("recommendation", "score", "status")


@admin.register(ExportLog)
class ExportLogAdmin(_ReadOnly):
    list_display = ("created_at", "actor", "format", "filters", "row_count", "finished")
    list_filter = ("format",)


@admin.register(StaffProfile)
class StaffProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "mobile", "language")
    search_fields = ("user__username", "mobile")
    readonly_fields = ("digest_sent_on",)
