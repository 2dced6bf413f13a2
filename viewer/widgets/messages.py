"""Errors as one line of rich text in a pane (the pane keeps working; no dialog)."""

from __future__ import annotations

import html

from kernelscope.core.errors import KernelscopeError


def what_to_do(error: KernelscopeError) -> str:
    """The error's hint as the window says it (a field or a button, not a CLI option)."""
    return error.window_hint or error.hint


def error_html(what: str, error: BaseException) -> str:
    """``what``: the error, and what to do about it, escaped for a QLabel."""
    if not isinstance(error, KernelscopeError):  # a bug: its type says most
        text = f"{type(error).__name__}: {error}"
    else:
        hint = what_to_do(error)
        text = error.message + (f"\nWhat to do: {hint}" if hint else "")
    return f"{html.escape(what)}: " + html.escape(text).replace("\n", "<br>")
