"""Syntax highlighting with pygments: coloured spans per line.

A line is lexed when it is first painted, and kept. What the line continues from the lines
before it (a ``/* ... */`` comment, a string with an escaped newline, a preprocessor
directive continued with ``\\``) comes from one pass over the whole file
(``continuations``), and the line is lexed with that opening in front of it, so its colours
are those of the whole file lexed at once.

Why not lex each file whole once and slice it, as KDAB Hotspot does: pygments needs ~0.4 ms
a line (0.7 s for a 1,700-line TVM kernel, measured), and run on a worker it still takes the
GIL from the painting thread (the first paint took 3x longer). The one regex pass over a
file takes a few milliseconds, and painting lexes only the rows on screen.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token, _TokenType
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from kernelscope.core.errors import Cancelled
from kernelscope.core.tasks import Cancel

if TYPE_CHECKING:
    from pygments.lexer import Lexer

Span = tuple[str, QColor | None]

# (light, dark) colours; anything not listed is drawn in the palette's text colour
_COLOURS: dict[_TokenType, tuple[str, str]] = {
    Keyword: ("#0033b3", "#cc7832"),
    Keyword.Type: ("#7a3e9d", "#c792ea"),
    Name.Function: ("#00627a", "#ffc66d"),
    Name.Builtin: ("#7a3e9d", "#c792ea"),
    Name.Variable: ("#871094", "#9876aa"),
    Name.Constant: ("#8c6c00", "#e6b450"),
    Name.Label: ("#b00040", "#ff6e6e"),
    Number: ("#1750eb", "#6897bb"),
    String: ("#067d17", "#6a8759"),
    Comment: ("#8c8c8c", "#808080"),
    Comment.Preproc: ("#9e880d", "#bbb529"),
    Operator: ("#505050", "#a9b7c6"),
}

# What can run over the end of a C/CUDA line. Line comments and character literals are
# matched too, so that a "/*" inside them opens nothing.
_SPANNING = re.compile(
    r"""
      //[^\n]*
    | /\*[\s\S]*?(?:\*/|\Z)
    | "(?:\\[\s\S]|[^"\\\n])*"?
    | '(?:\\.|[^'\\\n])*'?
    | ^[ \t]*\#(?:\\\n|[^\n])*
    """,
    re.VERBOSE | re.MULTILINE,
)
_OPENING = {"/": "/*", '"': '"', "#": "#"}  # first character of a match -> what to lex first


def continuations(lines: list[str]) -> list[str]:
    """Per line, the opening it continues ("/*", a quote, "#" for a directive) or ""."""
    out = [""] * len(lines)
    text = "\n".join(lines)
    line, position = 0, 0
    for match in _SPANNING.finditer(text):
        chunk = match.group()
        breaks = chunk.count("\n")
        if not breaks:
            continue
        line += text.count("\n", position, match.start())
        position = match.start()
        opening = _OPENING.get(chunk.lstrip()[0], "")
        for k in range(line + 1, min(line + breaks + 1, len(out))):
            out[k] = opening
    return out


def is_dark() -> bool:
    palette = QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


class Highlighter:
    """Coloured spans for one language, in the palette's light or dark colours.

    The lexer is made when the first line is lexed: a pygments lexer compiles its rules
    when its class is first used (60 ms for the three languages), which the window's start
    does not need."""

    def __init__(self, lexer: Callable[[], Lexer]) -> None:
        self._make_lexer = lexer
        self._lexer_made: Lexer | None = None
        self._making = threading.Lock()  # lexed on the GUI thread and on workers
        self._dark = is_dark()  # read here, on the GUI thread
        self._colours: dict[_TokenType, QColor | None] = {}
        self._lines: dict[str, list[Span]] = {}

    def set_dark(self, dark: bool) -> None:
        """The dark colours, or the light ones (on the GUI thread, when View > Palette
        switched the palette): lines are coloured again when next drawn."""
        if dark != self._dark:
            self._dark = dark
            self._colours, self._lines = {}, {}

    def line(self, text: str, opening: str = "") -> list[Span]:
        """One line, lexed as if ``opening`` (``continuations``) came right before it."""
        key = opening + text
        cached = self._lines.get(key)
        if cached is None:
            cached = self._lines[key] = _drop(self._lex(key), len(opening))
        return cached

    def text(self, lines: list[str], cancel: Cancel | None = None) -> list[list[Span]]:
        """Spans of every line of a file (a worker's job: it lexes them all); ``cancel`` stops
        it between lines (``Cancelled``)."""
        out = []
        for text, opening in zip(lines, continuations(lines), strict=True):
            if cancel is not None and cancel.is_set():
                raise Cancelled("highlighting")
            out.append(self.line(text, opening))
        return out

    def _lex(self, text: str) -> list[Span]:
        spans: list[Span] = []
        for token, value in self._lexer().get_tokens(text):
            value = value.rstrip("\n")
            if not value:
                continue
            colour = self._colour(token)
            if spans and spans[-1][1] is colour:
                spans[-1] = (spans[-1][0] + value, colour)
            else:
                spans.append((value, colour))
        return spans

    def _lexer(self) -> Lexer:
        with self._making:
            if self._lexer_made is None:
                self._lexer_made = self._make_lexer()
            return self._lexer_made

    def _colour(self, token: _TokenType) -> QColor | None:
        if token in self._colours:
            return self._colours[token]
        colour = None
        t: _TokenType | None = token
        while t is not None and t is not Token:
            if t in _COLOURS:
                light, dark = _COLOURS[t]
                colour = QColor(dark if self._dark else light)
                break
            t = t.parent
        self._colours[token] = colour
        return colour


def _drop(spans: list[Span], count: int) -> list[Span]:
    """``spans`` without their first ``count`` characters."""
    while count and spans:
        text, colour = spans[0]
        if len(text) > count:
            return [(text[count:], colour), *spans[1:]]
        count -= len(text)
        spans = spans[1:]
    return spans


def cuda_highlighter() -> Highlighter:
    def lexer() -> Lexer:
        from pygments.lexers.c_like import CudaLexer

        return CudaLexer(stripnl=False, ensurenl=False)

    return Highlighter(lexer)


def sass_highlighter() -> Highlighter:
    def lexer() -> Lexer:
        from .sass_lexer import SassLexer

        return SassLexer(stripnl=False, ensurenl=False)

    return Highlighter(lexer)


def ptx_highlighter() -> Highlighter:
    def lexer() -> Lexer:
        from pygments.lexers.ptx import PtxLexer

        return PtxLexer(stripnl=False, ensurenl=False)

    return Highlighter(lexer)
