"""Serving dist/ as a static host would: the right content types, on 127.0.0.1."""
from __future__ import annotations

import functools
import http.server
import os
import re
import socketserver
from pathlib import Path


HASHED = re.compile(r"\.[0-9a-f]{16}\.[a-z]+$")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
                      ".bundle": "application/octet-stream", ".gzip": "application/octet-stream",
                      ".brotli": "application/octet-stream"}

    def end_headers(self):
        # As a well-configured static host does: a content-hashed name (ship.py) never changes, so
        # it may be kept for good; anything else (index.html above all) is checked each visit, so
        # that a new build is seen at once. The page works either way.
        if HASHED.search(self.path.split("?")[0]):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # quiet unless asked
        if os.environ.get("BPE_SERVE_LOG"):
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(directory: Path, port: int = 0) -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    return Server(("127.0.0.1", port), handler)
