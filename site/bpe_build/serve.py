"""Serving dist/ as a static host would: the right content types, on 127.0.0.1."""
from __future__ import annotations

import functools
import http.server
import os
import socketserver
from pathlib import Path


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
                      ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
                      ".bundle": "application/octet-stream"}

    def log_message(self, format, *args):  # quiet unless asked
        if os.environ.get("BPE_SERVE_LOG"):
            super().log_message(format, *args)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(directory: Path, port: int = 0) -> Server:
    handler = functools.partial(Handler, directory=str(directory))
    return Server(("127.0.0.1", port), handler)
