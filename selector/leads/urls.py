from django.urls import path

from selector.leads import views

app_name = "leads"
urlpatterns = [
    path("contact/", views.contact, name="contact"),
    path("contact/thanks/", views.thanks, name="thanks"),
    path("privacy/", views.privacy, name="privacy"),
]
