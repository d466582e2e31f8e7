from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from selector.core import views as core_views

urlpatterns = [
    path("healthz", core_views.healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/", include("selector.api.urls")),
]

# Pages in both languages: Chinese at /, English under /en/.
urlpatterns += i18n_patterns(
    path("", core_views.home, name="home"),
    path("", include("selector.public.urls")),
    path("wizard/", include("selector.wizard.urls")),
    path("", include("selector.leads.urls")),
    path("report/", include("selector.reports.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)
