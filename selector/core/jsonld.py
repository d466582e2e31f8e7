"""JSON for <script type="application/ld+json"> blocks, shared by the public pages and the
report's web version.

<, > and & become \\u escapes so "</script>" and "<!--" never reach the HTML parser;
U+2028/2029 are line terminators in older JavaScript parsers. The JSON value is unchanged.
"""

import json

from django.core.serializers.json import DjangoJSONEncoder

_ESCAPES = {
    ord("<"): "\\u003C",
    ord(">"): "\\u003E",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def dumps(data: object) -> str:
    """JSON text that is safe inside a <script> element."""
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_ESCAPES)
