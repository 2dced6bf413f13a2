"""The shared page as one HTML file: the style sheet and script of this package inline, the
data as JSON in a ``<script type="application/json">`` block, the roofline as inline SVG.

Nothing on the page loads anything: a Content-Security-Policy of ``default-src 'none'`` keeps it
so, and lets only the page's own script run (by its hash), even for text that slipped through.
The JSON has ``<``, ``>``, ``&`` and U+2028/U+2029 written as ``\\uXXXX``, so that no kernel name
or source line can close its block (``</script>``) or open a comment; the script puts every
value into the page as text. The only markup written from data is the SVG and the header, both
escaped here.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import KernelscopeError
from .collect import PageData

_JSON_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def _policy(script: str) -> str:
    """The page's Content-Security-Policy: nothing loads from anywhere; the one script that
    runs is the page's own (by its SHA-256: no other inline script or event handler, should
    markup ever get in); styles inline (the SVG's colours)."""
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    return f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{digest}'"


def json_for_script(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escaped in _JSON_ESCAPES:  # str.replace: ten times str.translate's speed
        text = text.replace(char, escaped)
    return text


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def render_page(page: PageData, *, generator: str = "kernelscope") -> str:
    """The whole page as text."""
    from ..roofline import render_svg

    data = page.data
    e = html.escape
    title = data["title"] or "kernelscope"
    meta = [x for x in (data["source"], data["device"]) if x and x != title]
    if data["total"]:
        meta.append(f"{data['total']} µs in {len(data['kernels'])} kernels")
    roof_svg = ""
    roof_note = ""
    if page.roofline is not None:
        try:
            roof_svg = render_svg(page.roofline)
        except KernelscopeError as exc:
            roof_note = exc.message
    notes = "".join(f'<p class="note">{e(n)}</p>' for n in data["notes"])
    script = "\n" + _asset("page.js")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_policy(script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{e(generator)}">
<title>{e(title)} — kernelscope</title>
<style>
{_asset("page.css")}</style>
</head>
<body>
<header><h1>{e(title)}</h1><div class="meta">{e(" · ".join(meta))}</div>{notes}</header>
<main>
<section id="kernels"><h2>Kernels</h2><p id="kernels-note" class="note"></p>
<div id="kernel-list" class="scroll list"></div></section>
<section id="compare"><h2>Against the baseline</h2><div id="compare-body"></div></section>
<section id="code"><h2>Source and SASS</h2>
<div class="toolbar"><label>Kernel <select id="kernel"></select></label>
<label>File <select id="file"></select></label>
<label>Metric <select id="metric"></select></label><span id="where" class="note"></span></div>
<div class="panes"><div id="source" class="pane scroll"></div>
<div id="sass" class="pane scroll"></div></div>
<div id="stalls" class="stalls"></div>
<div id="line-deltas"></div>
<h2>Details</h2><div id="details"></div></section>
<section id="hot"><h2>Hot lines of the model</h2>
<div id="hot-list" class="scroll list"></div></section>
{_roofline_section(roof_svg, roof_note)}
</main>
<footer>Made by {e(generator)}: a self-contained page, nothing on it loads from anywhere.
</footer>
<script type="application/json" id="ks-data">{json_for_script(data)}</script>
<script>{script}</script>
</body>
</html>
"""


def _roofline_section(svg: str, note: str) -> str:
    if not svg and not note:
        return ""
    body = svg or f'<p class="note">{html.escape(note)}</p>'
    return f'<section id="roofline" class="roof"><h2>Roofline</h2>{body}</section>'


def write_page(page: PageData, path: str | os.PathLike[str], *, generator: str) -> Path:
    """Write the page to ``path`` at once (a temporary file renamed over it: a page that was
    there stays whole until the new one is complete)."""
    out = Path(path)
    if out.is_dir():
        raise KernelscopeError(f"{out} is a folder", hint="give a file name: -o page.html")
    if not out.parent.is_dir():
        raise KernelscopeError(f"{out.parent} does not exist", hint="create the folder first")
    text = render_page(page, generator=generator)
    tmp = out.parent / f".{out.name}.{os.getpid()}.part"
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return out
