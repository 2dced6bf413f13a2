"""The files a desktop install needs: the desktop entry, AppStream metainfo, MIME types and
icons pass the freedesktop validators, agree with each other, and work (Qt's MIME database
recognises a report; the window gets the icon)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from paths_support import H200_REPORT, ROOT

RES = ROOT / "resources"
DESKTOP = RES / "kernelscope.desktop"
METAINFO = RES / "kernelscope.metainfo.xml"
MIME = RES / "kernelscope-mime.xml"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP, encoding="utf-8")
    return parser["Desktop Entry"]


def _our_mime_types() -> set[str]:
    return {m.get("type") for m in ET.parse(MIME).getroot().iter(f"{MIME_NS}mime-type")}


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils")
def test_the_desktop_entry_validates() -> None:
    proc = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_the_desktop_entry_opens_what_kernelscope_defines() -> None:
    entry = _desktop_entry()
    assert entry["Icon"] == "kernelscope" and (RES / "icons/kernelscope.svg").is_file()
    assert entry["Exec"].startswith("kernelscope gui ") and entry["Exec"].endswith("%f")
    mime_types = {t for t in entry["MimeType"].split(";") if t}
    assert "application/x-ncu-report" in mime_types
    assert mime_types <= _our_mime_types()
    assert "Development" in entry["Categories"].split(";")


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="needs appstream")
def test_the_metainfo_validates() -> None:
    proc = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--explain", str(METAINFO)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_metainfo_has_screenshots_and_this_release() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("launchable") == DESKTOP.name
    shots = root.findall("screenshots/screenshot/image")
    assert shots and all(s.text.startswith("https://") for s in shots)
    # every screenshot it points at is one docs/make_screenshots.py makes
    for shot in shots:
        assert (ROOT / "docs/images" / Path(shot.text).name).is_file(), shot.text
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    releases = [r.get("version") for r in root.findall("releases/release")]
    assert version in releases, f'add a <release version="{version}"> to {METAINFO.name}'
    provided = {m.text for m in root.findall("provides/mediatype")}
    assert provided == _our_mime_types()


@pytest.mark.skipif(shutil.which("update-mime-database") is None, reason="shared-mime-info")
def test_a_report_is_recognised_by_name_and_by_content(tmp_path: Path) -> None:
    """Installed like the .deb installs it, Qt's MIME database (what file dialogs and
    desktops use) takes a .ncu-rep, and a renamed one by its magic, for our type."""
    share = tmp_path / "share"
    (share / "mime/packages").mkdir(parents=True)
    shutil.copy(MIME, share / "mime/packages/kernelscope.xml")
    proc = subprocess.run(
        ["update-mime-database", str(share / "mime")], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    report = H200_REPORT
    renamed = tmp_path / "report-without-extension"
    renamed.write_bytes(report.read_bytes()[:4096])
    not_a_report = tmp_path / "notes.txt"
    not_a_report.write_text("hello\n")
    probe = (
        "import sys\n"
        "from PySide6.QtCore import QMimeDatabase\n"
        "db = QMimeDatabase()\n"
        "for p in sys.argv[1:]: print(db.mimeTypeForFile(p).name())\n"
    )
    env = {**os.environ, "XDG_DATA_DIRS": f"{share}:/usr/share", "XDG_DATA_HOME": str(share)}
    out = subprocess.run(
        [sys.executable, "-c", probe, str(report), str(renamed), str(not_a_report)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "application/x-ncu-report",
        "application/x-ncu-report",
        "text/plain",
    ]


def test_the_icons_are_the_svg_rendered() -> None:
    """Every PNG size exists, has its size, and is the SVG as it is now (rerun
    resources/icons/render_pngs.py after editing the SVG)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    from kernelscope.viewer.app import application

    application()
    renderer = QSvgRenderer(str(RES / "icons/kernelscope.svg"))
    assert renderer.isValid()
    for size in ICON_SIZES:
        png = QImage(str(RES / f"icons/kernelscope-{size}.png"))
        assert (png.width(), png.height()) == (size, size)
        if size in (48, 128):
            fresh = QImage(size, size, QImage.Format.Format_ARGB32)
            fresh.fill(Qt.GlobalColor.transparent)
            painter = QPainter(fresh)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            renderer.render(painter)
            painter.end()
            png = png.convertToFormat(QImage.Format.Format_ARGB32)
            differ = sum(
                png.pixel(x, y) != fresh.pixel(x, y) for x in range(size) for y in range(size)
            )
            assert differ < size * size // 50, f"kernelscope-{size}.png is not the SVG"


def test_the_window_has_the_icon() -> None:
    from kernelscope.viewer.app import application

    icon = application().windowIcon()
    assert not icon.isNull()
    sizes = {s.width() for s in icon.availableSizes()}
    assert {16, 32, 48, 256} <= sizes


def test_the_project_addresses_agree_everywhere() -> None:
    """The AppStream id, the metainfo's URLs and screenshots, the .deb's Homepage and what
    Help > About shows all name one repository (pyproject.toml's [project.urls])."""
    sys.path.insert(0, str(ROOT / "packaging"))
    import deb

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    home = urls["Homepage"]
    owner, repo = home.removeprefix("https://github.com/").split("/")
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == deb.APP_ID == f"io.github.{owner}.{repo}"
    assert root.find("developer").get("id") == f"io.github.{owner}"
    assert root.findtext("url[@type='homepage']") == home
    assert root.findtext("url[@type='bugtracker']") == urls["Issues"]
    raw = f"https://raw.githubusercontent.com/{owner}/{repo}/"
    assert all(s.text.startswith(raw) for s in root.findall("screenshots/screenshot/image"))
    assert f"Homepage: {home}\n" in deb.control("0", "amd64", [], 0)
    from kernelscope.core.environment.facts import project_urls

    assert project_urls() == urls, "reinstall kernelscope (pip install -e .): stale metadata"


def test_every_package_folder_is_shipped() -> None:
    """The wheel and the .deb take only the packages pyproject.toml lists: a folder of modules
    left off that list imports here (from the checkout) and fails where kernelscope is
    installed (core.ncu.rep and core.tuning once were)."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setup["packages"])
    for name, folder in setup["package-dir"].items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            sub = init.parent.relative_to(ROOT / folder).parts
            package = ".".join((name, *sub))
            assert package in listed, f"add {package!r} to [tool.setuptools] packages"
