from django.urls import path

from selector.quotes import customer_views, staff_views

app_name = "quotes"
urlpatterns = [
    path("staff/leads/<uuid:public_id>/quotes/new/", staff_views.quote_create, name="create"),
    path("staff/quotes/<uuid:quote_id>/", staff_views.quote_editor, name="editor"),
    path("staff/quotes/<uuid:quote_id>/send/", staff_views.quote_send, name="send"),
    path("staff/quotes/<uuid:quote_id>/approve/", staff_views.quote_approve, name="approve"),
    path("staff/quotes/<uuid:quote_id>/pdf/", staff_views.quote_pdf_view, name="pdf"),
    path("staff/quotes/<uuid:quote_id>/export.xlsx", staff_views.quote_xlsx_view,
         name="xlsx"),
    path("staff/quotes/export.csv", staff_views.quote_list_export, {"fmt": "csv"},
         name="list_csv"),
    path("staff/quotes/export.xlsx", staff_views.quote_list_export, {"fmt": "xlsx"},
         name="list_xlsx"),
    # The customer's side: a signed, expiring link to one sent version.
    path("quote/<str:token>/", customer_views.quote_page, name="customer"),
    path("quote/<str:token>/accept/", customer_views.quote_accept, name="customer_accept"),
    path("quote/<str:token>/pdf/", customer_views.quote_pdf_view, name="customer_pdf"),
    path("quote/<str:token>/changes/", customer_views.quote_changes, name="customer_changes"),
]
