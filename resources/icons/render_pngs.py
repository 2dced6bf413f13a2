"""Render kernelscope.svg into the PNG sizes desktops use (run after editing the SVG):

QT_QPA_PLATFORM=offscreen python resources/icons/render_pngs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
HERE = Path(__file__).resolve().parent


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - fonts and image plugins need one
    renderer = QSvgRenderer(str(HERE / "kernelscope.svg"))
    if not renderer.isValid():
        raise SystemExit("kernelscope.svg is not a valid SVG")
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        out = HERE / f"kernelscope-{size}.png"
        if not image.save(str(out)):
            raise SystemExit(f"could not write {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
