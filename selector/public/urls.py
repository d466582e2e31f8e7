from django.urls import path

from selector.content.httpcache import cacheable
from selector.leads import contact
from selector.public import views

# Mounted inside i18n_patterns (Chinese at /, English under /en/). The landing page is the
# project's "home" URL (selector/urls.py points it at views.landing).
app_name = "public"
urlpatterns = [
    path("faq/", views.faq, name="faq"),
    path("compare/", views.comparison, name="comparison"),
    path("contact/", contact.contact, name="contact"),
    path("contact/thanks/", contact.thanks, name="thanks"),
    path("contact/thanks/callback/", contact.callback_request, name="callback"),
    # The privacy notice has no form: the same page for everyone (selector.content.httpcache).
    path("privacy/", cacheable(contact.privacy), name="privacy"),
]
