"""Set-up: the .venv with what the build and the tests need, and Debian's Chromium."""
from __future__ import annotations

import os
import venv

from .fetch import fetch_npm, node_modules
from .paths import CHROMIUM, PYTHON, ROOT, VENV
from .util import pins, run, sha256_bytes, step


def ensure_venv() -> None:
    """Create .venv with pip once; later calls reuse it."""
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)


def pip_install(*requirements: str) -> None:
    # Not --quiet: pip's "Collecting ..." and "Installing collected packages" lines are the progress
    # of the longest silent minute a fresh set-up had.
    with step(f"pip install into .venv: {' '.join(r for r in requirements if r != '-e')}"):
        run(PYTHON, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off", *requirements)


def pip_install_once(requirements: list[str], also_covers: tuple[str, ...] = ()) -> None:
    """pip install, skipped when the same requirements (and pyproject.toml) were installed before."""
    def marker_text(reqs) -> str:
        return "\n".join(reqs) + "\n" + (ROOT / "pyproject.toml").read_text()

    marker = VENV / f".installed-{sha256_bytes(marker_text(requirements).encode())[:16]}"
    if marker.exists():
        return
    pip_install(*requirements)
    marker.touch()
    for covered in also_covers:
        (VENV / f".installed-{sha256_bytes(marker_text(covered).encode())[:16]}").touch()


def build_requirements() -> list[str]:
    return [*pins()["build_requirements"], "-e", str(ROOT)]


def setup_build() -> None:
    """What `build` needs: the venv with Panel + Bokeh (the converter), Playwright and bpe itself,
    and Debian's Chromium, which draws the still page (still.py)."""
    ensure_venv()
    pip_install_once(build_requirements())
    ensure_chromium()


#: The npm packages whose own encoders give the ids the real tokenizers' tests expect.
REAL_IDS_PACKAGES = ("js_tiktoken", "base64_js", "tiktoken_npm", "anthropic_tokenizer")


def setup_tests() -> None:
    ensure_venv()
    pip_install_once([*pins()["build_requirements"], *pins()["test_requirements"], "-e", f"{ROOT}[test,notebook]"],
                     also_covers=(build_requirements(),))
    ensure_chromium()
    fetch_npm("axe_core")  # the accessibility test injects it into the page
    node_modules(list(REAL_IDS_PACKAGES))  # the real tokenizers' own packages give the ids tests expect


def ensure_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0:
        raise SystemExit("Debian's chromium is missing and we are not root: apt-get install -y chromium")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    with step("installing Debian's chromium (apt-get)"):
        run("apt-get", "update", "-q", env=env)
        # Without the desktop's recommends (printing, power, notifications, GL drivers: a headless
        # browser that runs with --disable-gpu uses none), but with the fonts the page is drawn in.
        run("apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium", "fonts-liberation", env=env)
