"""About 70 MB of real English documentation from Debian's packages, for benchmarks/core.py.

    python3 benchmarks/debian_docs.py      # fetch and unpack once (apt-get download; root or a working apt)

The packages, and what becomes a document (one file = one document, UTF-8, in sorted
path order; files that are not UTF-8 are skipped):
- `python3.11-doc`: `html/_sources/**/*.rst.txt` (the same 11 MB benchmarks/core.py uses);
- `linux-doc-6.1`: every gzipped text file of the kernel's documentation outside `html/`
  (`*.rst`, `*.txt`, `*.yaml` device-tree bindings, ...);
- `perl-doc`: every `*.pod` under `usr/share/perl/`;
- `python-django-doc`: every HTML page as text (tags, scripts and styles dropped).

The text is written once into `benchmarks/data/debian-docs/` (git-ignored), one file per
document, so every trainer reads the same files.
"""
from __future__ import annotations

import gzip
import html.parser
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
FOLDER = DATA / "debian-docs"
DONE = FOLDER / ".complete"
PACKAGES = ("python3.11-doc", "linux-doc-6.1", "perl-doc", "python-django-doc")


class _Text(html.parser.HTMLParser):
    """An HTML page's text, without scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return "".join(parser.parts)


def _documents(root: Path):
    """(name, text) for every document of the unpacked packages."""
    share = root / "usr" / "share"
    for path in sorted((share / "doc" / "python3.11" / "html" / "_sources").rglob("*.rst.txt")):
        yield f"python/{path.relative_to(share)}", path.read_bytes()
    kernel = share / "doc" / "linux-doc-6.1"
    for path in sorted(kernel.rglob("*.gz")):
        if "html" not in path.relative_to(kernel).parts:
            yield f"linux/{path.relative_to(kernel)}", gzip.decompress(path.read_bytes())
    for path in sorted((share / "perl").rglob("*.pod")):
        yield f"perl/{path.relative_to(share)}", path.read_bytes()
    for path in sorted((share / "doc" / "python-django-doc" / "html").rglob("*.html")):
        yield f"django/{path.relative_to(share)}", html_text(path.read_text(encoding="utf-8")).encode()


def unpack(packages, work: Path) -> list[Path]:
    """`apt-get download` the packages into `work` (running `apt-get update` once if that fails)
    and unpack each into `work/x`; returns the .deb files. Shared with benchmarks/core.py."""
    quiet = {"cwd": work, "stdout": sys.stderr}
    if subprocess.run(["apt-get", "download", *packages], **quiet).returncode != 0:
        subprocess.run(["apt-get", "update"], check=True, stdout=sys.stderr)
        subprocess.run(["apt-get", "download", *packages], check=True, **quiet)
    debs = sorted(work.glob("*.deb"))
    for deb in debs:
        subprocess.run(["dpkg", "-x", str(deb), str(work / "x")], check=True)
    return debs


def fetch() -> None:
    """Download the packages and write their documents, once."""
    if DONE.exists():
        return
    DATA.mkdir(parents=True, exist_ok=True)
    print(f"fetching {', '.join(PACKAGES)} into {FOLDER} ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(dir=DATA) as tmp:
        work = Path(tmp)
        debs = unpack(PACKAGES, work)
        staging = work / "docs"
        for number, (name, data) in enumerate(_documents(work / "x")):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            target = staging / f"{number:05d}-{name.replace('/', '__')}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        versions = sorted(deb.name.removesuffix(".deb") for deb in debs)
        (staging / ".versions").write_text("\n".join(versions) + "\n")
        if FOLDER.exists():
            shutil.rmtree(FOLDER)
        staging.rename(FOLDER)
        DONE.write_text("")


def paths() -> list[Path]:
    fetch()
    return sorted(FOLDER.glob("*.txt"))


def versions() -> list[str]:
    return (FOLDER / ".versions").read_text().split()


def documents() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in paths()]


def kernel_text(size_bytes: int) -> list[str]:
    """The kernel documentation's first documents, about `size_bytes` of UTF-8."""
    out, total = [], 0
    for path in paths():
        if "-linux__" not in path.name:
            continue
        text = path.read_text(encoding="utf-8")
        out.append(text)
        total += len(text.encode())
        if total >= size_bytes:
            break
    return out


if __name__ == "__main__":
    fetch()
    files = paths()
    print(f"{len(files)} documents, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB in {FOLDER}")
