from django.urls import path

from selector.leads.report import views

app_name = "reports"
urlpatterns = [
    path("<str:token>/", views.customer_pdf, name="customer"),
    path("<str:token>/web/", views.customer_web, name="customer_web"),
]
