"""A small pygments lexer for NVIDIA SASS as nvdisasm prints it (one instruction a line)."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    Text,
    Whitespace,
)


class SassLexer(RegexLexer):
    name = "SASS"
    aliases = ["sass-nv"]
    filenames = ["*.sass"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"/\*.*?\*/", Comment),
            (r"//.*$", Comment),
            (r"@!?U?P[T0-9]+", Keyword),  # guard predicate
            (r"[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*", Name.Function, "operands"),
        ],
        "operands": [
            (r"\s+", Whitespace),
            (r";", Punctuation, "#pop"),
            (r"(`\()([^)]*)(\))", bygroups(Punctuation, Name.Label, Punctuation)),
            (r"\b(?:c|cx)\[", Name.Constant, "bank"),
            (r"\bdesc\[", Name.Builtin, "bank"),
            (r"\b(?:SR_[A-Z0-9_.]+|SRZ)\b", Name.Builtin),
            (r"!?\b(?:U?R(?:[0-9]+|Z)|U?P(?:[0-9]+|T)|B[0-9]+)(?:\.[A-Za-z0-9_]+)*", Name.Variable),
            (r"[-+]?0x[0-9a-fA-F]+", Number.Hex),
            (r"[-+]?(?:[0-9]+\.[0-9]*(?:e[-+]?[0-9]+)?|INF|QNAN)", Number.Float),
            (r"[-+]?[0-9]+", Number.Integer),
            (r"[\[\]]", Punctuation),
            (r"[-+|~!,]", Operator),
            (r"[A-Za-z_.][A-Za-z0-9_.]*", Keyword),  # operand modifiers and names
            (r".", Text),
        ],
        "bank": [
            (r"\]", Punctuation, "#pop"),
            (r"0x[0-9a-fA-F]+|[0-9]+", Number.Hex),
            (r"U?R(?:[0-9]+|Z)", Name.Variable),
            (r".", Punctuation),
        ],
    }
