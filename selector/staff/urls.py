from django.urls import path

from selector.staff import accounts
from selector.staff.views import auth, dashboards, exports, lead_list, lead_page, my_day, security

app_name = "staff"
urlpatterns = [
    path("login/", auth.login, name="login"),
    path("login/verify/", auth.mfa_verify, name="mfa_verify"),
    path("mfa/setup/", auth.mfa_setup, name="mfa_setup"),
    path("mfa/", auth.mfa_page, name="mfa"),
    path("logout/", auth.logout, name="logout"),
    path("account/", accounts.account, name="account"),
    path("account/password/", accounts.password_change, name="password_change"),
    path("password-reset/", accounts.password_reset, name="password_reset"),
    path("password-reset/sent/", accounts.password_reset_done, name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", accounts.password_reset_confirm,
         name="password_reset_confirm"),
    path("password-reset/done/", accounts.password_reset_complete,
         name="password_reset_complete"),
    path("", my_day.my_day, name="my_day"),
    path("leads/", lead_list.lead_list, name="lead_list"),
    path("leads/bulk/", lead_list.lead_bulk, name="lead_bulk"),
    path("leads/export.csv", exports.export_csv, name="export_csv"),
    path("leads/export.xlsx", exports.export_xlsx, name="export_xlsx"),
    path("leads/<uuid:public_id>/", lead_page.lead_detail, name="lead_detail"),
    path("leads/<uuid:public_id>/status/", lead_page.lead_status, name="lead_status"),
    path("leads/<uuid:public_id>/notes/", lead_page.lead_note, name="lead_note"),
    path("leads/<uuid:public_id>/activities/", lead_page.lead_activity, name="lead_activity"),
    path("leads/<uuid:public_id>/next-action/", lead_page.lead_next_action,
         name="lead_next_action"),
    path("leads/<uuid:public_id>/take/", lead_page.lead_take, name="lead_take"),
    path("leads/<uuid:public_id>/owner/", lead_page.lead_assign, name="lead_assign"),
    path("leads/<uuid:public_id>/merge/", lead_page.lead_merge, name="lead_merge"),
    path("leads/<uuid:public_id>/duplicates/<int:flag_id>/dismiss/",
         lead_page.duplicate_dismiss, name="duplicate_dismiss"),
    path("leads/<uuid:public_id>/delete/", lead_page.lead_delete, name="lead_delete"),
    path("leads/<uuid:public_id>/report/", lead_page.lead_report, name="lead_report"),
    path("leads/<uuid:public_id>/report/web/", lead_page.lead_report_web, name="lead_report_web"),
    path("dashboard/", dashboards.dashboard, name="dashboard"),
    path("security/", security.security, name="security"),
    path("pipeline/", dashboards.manager, name="manager"),
    path("audit/", dashboards.audit, name="audit"),
]
