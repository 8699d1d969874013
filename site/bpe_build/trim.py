"""What the browser is never sent: files of the start-up packages and of the stdlib the page never reads.

A test (tests/browser/test_site_shipping.py) checks that the live page imported none of them.
"""
from __future__ import annotations

#: Codecs the page keeps. It decodes and encodes UTF-8 only (bpe.textio); Python itself and the
#: libraries it loads ask for these few by name. The other ~100 are legacy charsets (cp*, mac_*,
#: iso8859_*, the CJK ones).
KEPT_CODECS = frozenset({
    "__init__", "aliases", "ascii", "latin_1", "charmap", "utf_8", "utf_8_sig", "utf_16", "utf_16_be",
    "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_7", "unicode_escape", "raw_unicode_escape",
    "idna", "punycode", "base64_codec", "hex_codec", "zlib_codec", "undefined",
})
#: Clients and servers of network protocols: a page has no sockets to run them on.
NETWORK_MODULES = ("xmlrpc", "wsgiref", "imaplib", "smtplib", "nntplib", "ftplib", "poplib", "telnetlib",
                   "mailbox", "cgi", "cgitb", "socketserver")


def never_loaded(name: str) -> bool:
    """Files of the start-up packages the app never reads: a dist-info's RECORD (only
    importlib.metadata.files() reads it) and numpy.f2py (numpy imports it only when asked for).

    >>> never_loaded("numpy/f2py/crackfortran.pyc"), never_loaded("numpy/linalg/linalg.pyc")
    (True, False)
    """
    return name.endswith(".dist-info/RECORD") or name.startswith("numpy/f2py/")


def stdlib_left_out(name: str) -> bool:
    """A file of python_stdlib.zip the page does without.

    >>> [stdlib_left_out(n) for n in ("encodings/cp1252.pyc", "encodings/utf_8.pyc", "xmlrpc/client.pyc", "json/__init__.pyc")]
    [True, False, True, False]
    """
    top, _, rest = name.partition("/")
    if top == "encodings" and rest:
        return rest.split(".")[0] not in KEPT_CODECS and "/" not in rest
    return top.split(".")[0] in NETWORK_MODULES
