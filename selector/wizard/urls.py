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
    path("<slug:identifier>/", views.step, name="step"),
]
