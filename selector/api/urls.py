from django.urls import path

from selector.api import views

urlpatterns = [
    path("recommend", views.recommend, name="api-recommend"),
    path("fabric", views.fabric, name="api-fabric"),
    path("acceptance.txt", views.acceptance, name="api-acceptance"),
    path("cabling.csv", views.cabling_csv, name="api-cabling-csv"),
    path("cabling.xlsx", views.cabling_xlsx, name="api-cabling-xlsx"),
    path("configs.zip", views.configs_zip, name="api-configs-zip"),
    path("openapi.json", views.openapi, name="api-openapi"),
]
