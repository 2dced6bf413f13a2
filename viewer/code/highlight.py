"""Syntax highlighting by lines: pygments tokens -> [(text, colour)] per line, on demand.

Only the rows a view paints are ever highlighted, and each is kept once done, so opening a
kernel costs nothing here and scrolling costs one small lexer call per new row.
"""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers.c_like import CudaLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from .sass_lexer import SassLexer

Span = tuple[str, QColor | None]

# (light, dark) colours; anything not listed is drawn in the palette's text colour
_COLOURS: dict[object, tuple[str, str]] = {
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


def is_dark() -> bool:
    palette = QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


class LineHighlighter:
    """Turns lines of one language into coloured spans, caching each line's result."""

    def __init__(self, lexer: Lexer) -> None:
        self._lexer = lexer
        self._cache: dict[str, list[Span]] = {}
        self._colours: dict[object, QColor | None] = {}
        self._dark = is_dark()

    def spans(self, line: str) -> list[Span]:
        cached = self._cache.get(line)
        if cached is None:
            cached = self._cache[line] = self._lex(line)
        return cached

    def _lex(self, line: str) -> list[Span]:
        spans: list[Span] = []
        for token, text in self._lexer.get_tokens(line):
            text = text.rstrip("\n")
            if not text:
                continue
            colour = self._colour(token)
            if spans and spans[-1][1] is colour:
                spans[-1] = (spans[-1][0] + text, colour)
            else:
                spans.append((text, colour))
        return spans

    def _colour(self, token: object) -> QColor | None:
        if token in self._colours:
            return self._colours[token]
        colour = None
        t = token
        while t is not Token and t is not None:
            if t in _COLOURS:
                light, dark = _COLOURS[t]
                colour = QColor(dark if self._dark else light)
                break
            t = t.parent  # type: ignore[attr-defined]
        self._colours[token] = colour
        return colour


def cuda_highlighter() -> LineHighlighter:
    return LineHighlighter(CudaLexer(stripnl=False, ensurenl=False))


def sass_highlighter() -> LineHighlighter:
    return LineHighlighter(SassLexer(stripnl=False, ensurenl=False))
