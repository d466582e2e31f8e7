from django.urls import path

from selector.staff import accounts, views

app_name = "staff"
urlpatterns = [
    path("login/", views.login, name="login"),
    path("logout/", views.logout, name="logout"),
    path("account/", accounts.account, name="account"),
    path("account/password/", accounts.password_change, name="password_change"),
    path("password-reset/", accounts.password_reset, name="password_reset"),
    path("password-reset/sent/", accounts.password_reset_done, name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", accounts.password_reset_confirm,
         name="password_reset_confirm"),
    path("password-reset/done/", accounts.password_reset_complete,
         name="password_reset_complete"),
    path("", views.my_day, name="my_day"),
    path("leads/", views.lead_list, name="lead_list"),
    path("leads/bulk/", views.lead_bulk, name="lead_bulk"),
    path("leads/export.csv", views.export_csv, name="export_csv"),
    path("leads/export.xlsx", views.export_xlsx, name="export_xlsx"),
    path("leads/<uuid:public_id>/", views.lead_detail, name="lead_detail"),
    path("leads/<uuid:public_id>/status/", views.lead_status, name="lead_status"),
    path("leads/<uuid:public_id>/notes/", views.lead_note, name="lead_note"),
    path("leads/<uuid:public_id>/activities/", views.lead_activity, name="lead_activity"),
    path("leads/<uuid:public_id>/next-action/", views.lead_next_action,
         name="lead_next_action"),
    path("leads/<uuid:public_id>/take/", views.lead_take, name="lead_take"),
    path("leads/<uuid:public_id>/owner/", views.lead_assign, name="lead_assign"),
    path("leads/<uuid:public_id>/merge/", views.lead_merge, name="lead_merge"),
    path("leads/<uuid:public_id>/duplicates/<int:flag_id>/dismiss/",
         views.duplicate_dismiss, name="duplicate_dismiss"),
    path("leads/<uuid:public_id>/delete/", views.lead_delete, name="lead_delete"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("security/", views.security, name="security"),
    path("pipeline/", views.manager, name="manager"),
    path("audit/", views.audit, name="audit"),
]
