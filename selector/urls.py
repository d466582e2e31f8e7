from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from selector.core import views as core_views
from selector.public import views as public_views
from selector.staff.views import auth as staff_auth

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("api/", include("selector.api.urls")),
    path("", include("selector.public.root_urls")),  # robots.txt, sitemap.xml
]

# Pages in both languages: Chinese at /, English under /en/.
urlpatterns += i18n_patterns(
    path("", public_views.landing, name="home"),
    path("", include("selector.public.urls")),
    path("wizard/", include("selector.wizard.urls")),
    # Sales' bookmarks and old notification links of the staff report (moved to the
    # workspace in issue 16): a permanent redirect; the workspace view checks access.
    path("report/staff/<uuid:public_id>/",
         RedirectView.as_view(pattern_name="staff:lead_report", permanent=True),
         name="old_staff_report"),
    path("report/staff/<uuid:public_id>/web/",
         RedirectView.as_view(pattern_name="staff:lead_report_web", permanent=True),
         name="old_staff_report_web"),
    path("report/", include("selector.leads.report.urls")),
    path("staff/", include("selector.staff.urls")),
    path("", include("selector.quotes.urls")),  # staff/quotes/... and the customer's quote/...
    # The admin logs in through the staff login view (throttle, messages, MFA).
    path("admin/login/", staff_auth.login, name="admin_login"),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)

handler400 = "selector.public.errors.bad_request"
handler403 = "selector.public.errors.permission_denied"
handler404 = "selector.public.errors.page_not_found"
handler500 = "selector.public.errors.server_error"
