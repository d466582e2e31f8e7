from django.urls import path

from selector.api import views

urlpatterns = [
    path("recommend", views.recommend, name="api-recommend"),
    path("fabric", views.fabric, name="api-fabric"),
    path("acceptance.txt", views.acceptance, name="api-acceptance"),
    path("openapi.json", views.openapi, name="api-openapi"),
]
