from django.contrib import admin

from selector.staff.models import LoginThrottle


@admin.register(LoginThrottle)
class LoginThrottleAdmin(admin.ModelAdmin):
    """Failed log-ins per (username, address). Deleting rows lifts the throttle (the same
    as "Unlock" on the workspace's security page)."""

    list_display = ("username", "ip", "failures", "first_failed_at", "last_failed_at")
    search_fields = ("username", "ip")
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
