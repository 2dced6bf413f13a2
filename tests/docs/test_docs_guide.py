"""The user guide's pictures are the ones docs/make_screenshots.py makes, and its links work."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from paths_support import ROOT

DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _shots() -> set[str]:
    spec = importlib.util.spec_from_file_location("make_screenshots", DOCS / "make_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return {shot.name for shot in module.SHOTS}


def test_every_picture_is_a_generated_shot() -> None:
    guide = (DOCS / "user-guide.md").read_text(encoding="utf-8")
    pictures = {Path(p).stem for p in re.findall(r"\(images/([^)]+\.png)\)", guide)}
    shots = _shots()
    assert pictures, "the guide shows no screenshots"
    assert pictures <= shots, f"not made by make_screenshots.py: {pictures - shots}"
    for name in shots:
        assert (DOCS / "images" / f"{name}.png").stat().st_size > 10_000, name


def test_links_between_the_docs_resolve() -> None:
    for page in [*DOCS.glob("*.md"), ROOT / "README.md"]:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name}: broken link {target}"
