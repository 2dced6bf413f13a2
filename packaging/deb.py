"""Make the .deb from the PyInstaller folder: the app under /opt/kernelscope, ``kernelscope``
on PATH, and what a desktop needs to offer it: the desktop entry, the AppStream metainfo,
the icons (SVG and PNG sizes, hicolor theme) and the MIME types, so that double-clicking a
``.ncu-rep`` opens it in kernelscope. dpkg's triggers (shared-mime-info, desktop-file-utils,
the icon cache) refresh their databases when these files land, so no maintainer scripts.

    python packaging/deb.py APP_FOLDER LEFT_OUT_FILE OUT_FOLDER
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESOURCES = HERE.parent / "resources"
# The AppStream id, the metainfo's <id> (tests/packaging/test_packaging_desktop.py checks that
# they agree)
APP_ID = "io.github.kernelscope.kernelscope"
PREFIX = Path("opt/kernelscope")


def _metainfo(pattern: str) -> str:
    """What the AppStream metadata says (the summary, the homepage): written once, there."""
    text = (RESOURCES / "kernelscope.metainfo.xml").read_text(encoding="utf-8")
    return re.search(pattern, text).group(1)  # type: ignore[union-attr]


HOMEPAGE = r'<url type="homepage">(.*?)</url>'


def _metainfo_summary() -> str:
    return _metainfo(r"<summary>(.*?)</summary>")


def desktop_files(root: Path) -> list[Path]:
    """Copy the desktop integration files under ``root`` (a staging /); return them."""
    placed = {
        "usr/share/applications/kernelscope.desktop": RESOURCES / "kernelscope.desktop",
        f"usr/share/metainfo/{APP_ID}.metainfo.xml": RESOURCES / "kernelscope.metainfo.xml",
        "usr/share/mime/packages/kernelscope.xml": RESOURCES / "kernelscope-mime.xml",
        "usr/share/icons/hicolor/scalable/apps/kernelscope.svg": RESOURCES
        / "icons/kernelscope.svg",
    }
    for png in sorted((RESOURCES / "icons").glob("kernelscope-*.png")):
        size = png.stem.rsplit("-", 1)[1]
        placed[f"usr/share/icons/hicolor/{size}x{size}/apps/kernelscope.png"] = png
    out = []
    for rel, source in placed.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        target.chmod(0o644)
        out.append(target)
    return out


def control(version: str, arch: str, depends: list[str], installed_kib: int) -> str:
    return (
        "Package: kernelscope\n"
        f"Version: {version}\n"
        f"Architecture: {arch}\n"
        "Maintainer: The kernelscope developers <kernelscope@users.noreply.github.com>\n"
        f"Installed-Size: {installed_kib}\n"
        f"Depends: {', '.join(depends)}\n"
        "Suggests: nvidia-driver\n"
        "Section: devel\n"
        "Priority: optional\n"
        f"Homepage: {_metainfo(HOMEPAGE)}\n"
        f"Description: {_metainfo_summary()}\n"
        " kernelscope builds a deep-learning model with Apache TVM for an NVIDIA GPU,\n"
        " writes every generated kernel into a small CUDA file of its own, compiles it\n"
        " with line information and shows its source beside its SASS, with Nsight\n"
        " Compute's numbers on every line. TVM, nvcc and NVIDIA's report reader come\n"
        " with the package; profiling needs Nsight Compute (ncu) and a GPU.\n"
    )


def _du_kib(root: Path) -> int:
    total = sum(p.lstat().st_size for p in root.rglob("*") if not p.is_dir())
    return (total + 1023) // 1024


def build_deb(app: Path, depends: list[str], out: Path) -> Path:
    """Stage the package and run dpkg-deb; return the .deb's path."""
    version = importlib.metadata.version("kernelscope")
    arch = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=True
    ).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    deb = out / f"kernelscope_{version}_{arch}.deb"
    with tempfile.TemporaryDirectory(prefix="kernelscope-deb.", dir=out) as tmp:
        root = Path(tmp)
        shutil.copytree(app, root / PREFIX, symlinks=True)
        (root / "usr/bin").mkdir(parents=True)
        os.symlink(f"/{PREFIX}/kernelscope", root / "usr/bin/kernelscope")
        desktop_files(root)
        (root / "DEBIAN").mkdir()
        (root / "DEBIAN/control").write_text(control(version, arch, depends, _du_kib(root)))
        for path in [root, *root.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        partial = deb.with_suffix(".deb.partial")
        subprocess.run(
            ["dpkg-deb", "--root-owner-group", "-Zxz", "-z6", "--build", str(root), str(partial)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        partial.replace(deb)
    return deb


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        raise SystemExit(__doc__)
    app, left_out, out = (Path(a) for a in argv)
    sys.path.insert(0, str(HERE))
    import bundle

    depends = bundle.depends(left_out.read_text().split())
    deb = build_deb(app, depends, out)
    print(json.dumps({"deb": str(deb), "bytes": deb.stat().st_size, "depends": depends}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
