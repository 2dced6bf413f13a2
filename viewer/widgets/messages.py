"""Errors as one line of rich text in a pane (the pane keeps working; no dialog); a bug's
traceback is in the window's log (``log_file``), which the line says (not its path: a long
path cannot wrap in a narrow pane; Help > About and the error box name it)."""

from __future__ import annotations

import html

from kernelscope.core.errors import KernelscopeError

from .. import log_file

BUG_IN_LOG = (
    "This is a bug in kernelscope; its traceback is in the window's log file "
    "(Help > About names it)"
)


def what_to_do(error: KernelscopeError) -> str:
    """The error's hint as the window says it (a field or a button, not a CLI option)."""
    return error.window_hint or error.hint


def error_html(what: str, error: BaseException) -> str:
    """``what``: the error, and what to do about it, escaped for a QLabel."""
    if not isinstance(error, KernelscopeError):  # a bug: its type says most, the log the rest
        text = f"{type(error).__name__}: {error}"
        if log_file.current() is not None:
            text += f"\n{BUG_IN_LOG}"
    else:
        hint = what_to_do(error)
        text = error.message + (f"\nWhat to do: {hint}" if hint else "")
    return f"{html.escape(what)}: " + html.escape(text).replace("\n", "<br>")
