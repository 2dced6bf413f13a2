"""The one exception type users see: a message saying what went wrong and what to do."""

from __future__ import annotations


class KernelscopeError(Exception):
    """A failure to report to the user as text, without a traceback.

    ``hint`` says what to do about it; ``details`` carries a tool's log or similar long text
    that a GUI shows behind a "details" button and the CLI prints below the message.
    ``window_hint`` says it for the window where the action there differs (a field or a
    button instead of a command-line option); the window shows ``hint`` when it is empty.
    """

    def __init__(
        self, message: str, *, hint: str = "", details: str = "", window_hint: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details
        self.window_hint = window_hint

    def __str__(self) -> str:
        text = self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class Cancelled(KernelscopeError):
    """The user stopped the operation (Ctrl-C, Cancel); nothing was changed."""

    def __init__(self, what: str = "operation") -> None:
        super().__init__(f"{what} cancelled; nothing was changed")
