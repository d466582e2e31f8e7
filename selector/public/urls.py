from django.urls import path

from selector.public import views

app_name = "public"
urlpatterns = [
    path("faq/", views.faq, name="faq"),
    path("compare/", views.comparison, name="comparison"),
]
