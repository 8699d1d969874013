"""Servers the browser tests start as processes of their own (JupyterLab, `bpe serve`), on free ports."""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(command: list[str], ready_url: str, log, env: dict | None = None, cwd=None, timeout: float = 120):
    """Run `command` until the block ends, once `ready_url` answers 200; its output goes to `log`."""
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
                               cwd=cwd, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{command[0]} stopped ({process.returncode}) before it answered")
            try:
                with urllib.request.urlopen(ready_url, timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"{ready_url} did not answer within {timeout:.0f} s")
            time.sleep(0.3)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 15)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
