"""Errors as one line of rich text in a pane (the pane keeps working; no dialog)."""

from __future__ import annotations

import html

from kernelscope.core.errors import KernelscopeError


def error_html(what: str, error: BaseException) -> str:
    """``what``: the error, and its hint, escaped for a QLabel."""
    bug = not isinstance(error, KernelscopeError)  # then its type says most
    text = f"{type(error).__name__}: {error}" if bug else str(error)
    return f"{html.escape(what)}: " + html.escape(text).replace("\n", "<br>")
