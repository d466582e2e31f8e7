"""URLs that must live at the site root in every language: robots.txt and sitemap.xml."""

from django.contrib.sitemaps.views import sitemap
from django.urls import path
from django.views.decorators.cache import cache_control

from selector.public import views
from selector.public.sitemaps import PublicSitemap

urlpatterns = [
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path(
        "sitemap.xml",
        cache_control(max_age=3600)(sitemap),
        {"sitemaps": {"public": PublicSitemap}},
        name="sitemap_xml",
    ),
]
