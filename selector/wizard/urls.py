from django.urls import path

from selector.wizard import views

app_name = "wizard"
urlpatterns = [
    path("", views.start, name="start"),
    path("result/", views.result, name="result"),
    path("result/what-if/", views.what_if, name="what_if"),
    path("r/<str:token>/", views.shared, name="shared"),
    path("r/<str:token>/card.png", views.shared_card, name="shared_card"),
    path("r/<str:token>/continue/", views.handoff, name="handoff"),
    # The build downloads of the shared result's plan (selector.planner.downloads).
    path("r/<str:token>/cabling.csv", views.shared_download, {"kind": "cabling.csv"},
         name="shared_cabling_csv"),
    path("r/<str:token>/cabling.xlsx", views.shared_download, {"kind": "cabling.xlsx"},
         name="shared_cabling_xlsx"),
    path("r/<str:token>/configs.zip", views.shared_download, {"kind": "configs.zip"},
         name="shared_configs_zip"),
    path("<slug:identifier>/", views.step, name="step"),
]
