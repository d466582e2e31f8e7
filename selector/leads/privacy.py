"""The privacy notice shown next to the consent checkbox (PIPL Art. 17).

Bump PRIVACY_NOTICE_VERSION whenever templates/leads/privacy_notice.html changes in
substance: every lead stores the version its visitor agreed to.
"""

PRIVACY_NOTICE_VERSION = "2026-12-01"
