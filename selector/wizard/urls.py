from django.urls import path

from selector.wizard import views

app_name = "wizard"
urlpatterns = [
    path("", views.start, name="start"),
]
