from django.urls import path

from selector.reports import views

app_name = "reports"
urlpatterns = [
    path("staff/<uuid:public_id>/", views.staff_pdf, name="staff"),
    path("staff/<uuid:public_id>/web/", views.staff_web, name="staff_web"),
    path("<str:token>/", views.customer_pdf, name="customer"),
    path("<str:token>/web/", views.customer_web, name="customer_web"),
]
