"""Reading one TVM-generated CUDA kernel the way NNFusion's block fusion needs it.

NNFusion's own helper (``cuparse.py``, a ply grammar) only understands the CUDA that old TVM
printed: no ``__launch_bounds__``, ``__shared__`` without ``alignas``, ``float*`` parameters,
and it counts ``__syncthreads()`` by running an instrumented copy on a GPU. This module is a
small hand-written scanner instead, because kernelscope must work without a GPU and the
questions asked of the source are narrow:

* cut the one ``__global__`` definition out of a per-kernel file (signature and body);
* find the static ``__shared__`` arrays (block fusion moves them into a shared buffer);
* count the ``__syncthreads()`` every thread executes, *statically*: exact only when each
  barrier sits in straight-line code or in ``for`` loops with constant bounds, with no
  ``return``/``break``/``continue``/``goto`` anywhere. Anything else is reported as not
  countable, with the line that makes it so, and the caller withholds the block-fusion tag;
* find what the body borrows from TVM's prelude header, which NNFusion does not include,
  inlining the parameterless helpers (the ``cp.async`` commit/wait ones) into the body.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

# Element types NNFusion can size when it places a shared array in its block-fusion buffer
# (``size_of_str_type`` in cuda_emitter.cpp); a few C spellings map onto them.
SHARED_DTYPES = {
    "char",
    "float",
    "double",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
}
_SHARED_ALIASES = {
    "int": "int32_t",
    "unsigned int": "uint32_t",
    "uint": "uint32_t",
    "signed char": "int8_t",
    "unsigned char": "uint8_t",
    "uchar": "uint8_t",
    "short": "int16_t",
    "unsigned short": "uint16_t",
    "ushort": "uint16_t",
    "long long": "int64_t",
    "unsigned long long": "uint64_t",
}
# CUDA vector types TVM declares shared arrays of (a GEMV's staged operand: ``float4 x[512]``):
# NNFusion cannot size them, so such an array is handed to it as its scalar elements and the
# body reaches it through a pointer of the vector type.
_SHARED_VECTORS = {
    f"{base}{n}": (nnf, n)
    for base, nnf in (("float", "float"), ("double", "double"), ("int", "int32_t"),
                      ("uint", "uint32_t"), ("char", "int8_t"), ("uchar", "uint8_t"))
    for n in (2, 3, 4)
}  # fmt: skip
# Macros of TVM's prelude that are plain type names; expanded in the body NNFusion gets.
PRELUDE_TYPE_MACROS = {"uint": "unsigned int", "uchar": "unsigned char", "ushort": "unsigned short"}
# Prelude definitions that do not change what a body means on sm_70+ with a current nvcc.
_HARMLESS_PRELUDE = {
    "__shfl_sync",
    "__shfl_down_sync",
    "__shfl_up_sync",
    "__asm__",
    "__volatile__",
    *PRELUDE_TYPE_MACROS,
    # <cstdint> names the prelude re-exports for NVRTC/Windows; NNFusion's code has them too.
    *(f"{s}int{n}_t" for s in ("", "u") for n in (8, 16, 32, 64)),
}

_QUALIFIERS = {"__restrict__", "const", "volatile", "__volatile__", "__restrict"}


class KernelSourceError(ValueError):
    """The text does not contain exactly one recognisable ``__global__`` definition."""


@dataclass
class KernelParam:
    name: str
    ctype: str  # without qualifiers, e.g. "float*"
    declared: str  # as written, e.g. "float* __restrict__"


@dataclass
class KernelSource:
    name: str
    params: list[KernelParam]
    body: str  # from the opening "{" to the closing "}", as generated
    launch_bounds: int | None


@dataclass
class SharedArray:
    symbol: str
    dtype: str  # NNFusion spelling (int32_t, float...)
    size: int
    declared: str  # the declaration as written


@dataclass
class SharedScan:
    arrays: list[SharedArray]
    # the body with the recognised declarations' lines removed (and, before it, the pointer
    # of each vector-typed array into its scalar elements)
    body_without: str
    problems: list[str] = field(default_factory=list)
    dropped_alignment: bool = False


@dataclass
class SyncCount:
    count: int | None  # None: cannot be established statically
    reason: str = ""  # why not, with the line


_GLOBAL_RE = re.compile(
    r'(?:extern\s+"C"\s+)?__global__\s+void\s+'
    r"(?:__launch_bounds__\s*\(\s*(?P<lb>\d+)[^)]*\)\s*)?"
    r"(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^)]*)\)\s*(?P<body>\{.*\})\s*\Z",
    re.DOTALL,
)


def parse_kernel(text: str) -> KernelSource:
    """Split a per-kernel file (or a bare definition) into name, parameters and body."""
    defs = [m.start() for m in re.finditer(r"__global__", text)]
    if len(defs) != 1:
        raise KernelSourceError(f"expected one __global__ function, found {len(defs)}")
    m = _GLOBAL_RE.search(text)
    if m is None:
        raise KernelSourceError("could not read the __global__ signature and body")
    params = [_param(p) for p in m.group("params").split(",") if p.strip()]
    lb = m.group("lb")
    return KernelSource(
        name=m.group("name"),
        params=params,
        body=m.group("body"),
        launch_bounds=int(lb) if lb else None,
    )


def _param(text: str) -> KernelParam:
    declared = " ".join(text.split())
    m = re.match(r"(?P<type>.*?)(?P<name>[A-Za-z_]\w*)\s*$", declared)
    if m is None:
        raise KernelSourceError(f"unreadable kernel parameter {text!r}")
    words = m.group("type").replace("*", " * ").split()
    base = " ".join(w for w in words if w not in _QUALIFIERS and w != "*")
    stars = "*" * words.count("*")
    return KernelParam(name=m.group("name"), ctype=base + stars, declared=m.group("type").strip())


_SHARED_DECL_RE = re.compile(
    r"^[ \t]*__shared__\s+(?P<align>alignas\s*\(\s*\d+\s*\)\s+)?"
    r"(?P<type>(?:(?:unsigned|signed)\s+)?(?:long\s+long|[A-Za-z_]\w*))\s+"
    r"(?P<name>[A-Za-z_]\w*)\s*\[\s*(?P<size>\d+)\s*\]\s*;[ \t]*\n?",
    re.MULTILINE,
)


def scan_shared(body: str) -> SharedScan:
    """Static ``__shared__`` arrays, and the body with their declarations removed. An array
    of a vector type (``float4``) is declared to NNFusion as its scalars (``float``, four
    times as many, under the name ``NAME_float``) and the body gets ``float4* NAME =
    (float4*)NAME_float;`` first."""
    arrays: list[SharedArray] = []
    problems: list[str] = []
    views: list[str] = []
    vectors: set[str] = set()  # the scalar arrays standing for vector ones
    aligned = False
    for m in _SHARED_DECL_RE.finditer(body):
        ctype = " ".join(m.group("type").split())
        dtype = _SHARED_ALIASES.get(ctype, ctype)
        name, size = m.group("name"), int(m.group("size"))
        if ctype in _SHARED_VECTORS:
            dtype, lanes = _SHARED_VECTORS[ctype]
            scalars = f"{name}_{dtype}"
            views.append(f"{ctype}* {name} = ({ctype}*){scalars};\n")
            name, size = scalars, size * lanes
            vectors.add(name)
        elif dtype not in SHARED_DTYPES:
            problems.append(
                f"shared array {name} has element type {ctype}, which NNFusion's block fusion "
                "cannot size (it knows char, float, double, (u)intN_t and their vectors)"
            )
        aligned = aligned or bool(m.group("align"))
        arrays.append(SharedArray(name, dtype, size, m.group(0).strip()))
    remaining = _SHARED_DECL_RE.sub("", body)
    names = [a.symbol for a in arrays]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"shared array {dup} is declared twice (in different scopes)")
    text = _strip_comments(remaining)
    for m in re.finditer(r"\b__shared__\b", text):
        line = text[
            text.rfind("\n", 0, m.start()) + 1 : text.find("\n", m.start()) % (len(text) + 1)
        ]
        line = line.strip()
        if line.startswith("extern") or "extern __shared__" in line:
            problems.append(f"dynamic shared memory ({line}); NNFusion launches with 0 bytes")
        else:
            problems.append(f"shared declaration NNFusion cannot move: {line}")
    # the vector arrays first: at the start of the buffer NNFusion lays the arrays out in,
    # where their vector loads find the alignment they need (each is a whole number of
    # vectors long, so the arrays after them keep theirs)
    arrays.sort(key=lambda a: a.symbol not in vectors)
    return SharedScan(arrays, "".join(views) + remaining, problems, aligned)


# --- __syncthreads() counting ------------------------------------------------------------

# Only what decides how often a statement runs; everything else is skipped by the regex
# engine, which keeps a 2,000-line kernel well under 10 ms.
_STRUCT_RE = re.compile(
    r"""//[^\n]*|/\*.*?\*/|\#[^\n]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'
      | \b(?:for|if|else|while|do|switch|return|break|continue|goto|__syncthreads\w*)\b
      | [{}();]""",
    re.VERBOSE | re.DOTALL,
)
_TOKEN_RE = re.compile(
    r"""(?P<ws>\s+)
      | (?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<num>0[xX][0-9a-fA-F]*(?:\.[0-9a-fA-F]*)?(?:[pP][+-]?\d+)?[fFlLuU]*
               |(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFlLuU]*)
      | (?P<id>[A-Za-z_]\w*)
      | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\S)
    """,
    re.VERBOSE | re.DOTALL,
)
_INT_TYPES = {
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "size_t",
}
_EXITS = {"return", "break", "continue", "goto"}


@dataclass
class _Tok:
    text: str
    pos: int


def _struct_tokens(body: str) -> list[_Tok]:
    return [
        _Tok(m.group(0), m.start())
        for m in _STRUCT_RE.finditer(body)
        if m.group(0)[0] not in "/#\"'" or len(m.group(0)) == 1
    ]


def _header_tokens(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN_RE.finditer(text) if m.lastgroup not in ("ws", "comment")]


class _Counter:
    """A statement walker over the token list; see count_syncthreads."""

    def __init__(self, body: str, toks: list[_Tok]) -> None:
        self.body = body
        self.toks = toks
        self.count = 0
        self.problem = ""
        self.exit_line = 0

    def line(self, tok: _Tok) -> int:
        return self.body.count("\n", 0, tok.pos) + 1

    def _uncountable(self, why: str) -> None:
        if not self.problem:
            self.problem = why

    def _match(self, i: int, open_: str, close: str) -> int:
        """Index just after the bracket that closes toks[i] (an ``open_``)."""
        depth = 0
        for j in range(i, len(self.toks)):
            t = self.toks[j].text
            if t == open_:
                depth += 1
            elif t == close:
                depth -= 1
                if depth == 0:
                    return j + 1
        raise KernelSourceError(f"unbalanced {open_}{close} in kernel body")

    def block(self, i: int, mult: int | None) -> int:
        """toks[i] is "{"; returns the index after its "}"."""
        i += 1
        while self.toks[i].text != "}":
            i = self.statement(i, mult)
        return i + 1

    def statement(self, i: int, mult: int | None) -> int:
        t = self.toks[i].text
        if t == "{":
            return self.block(i, mult)
        if t == "for":
            end = self._match(i + 1, "(", ")")
            header = self.body[self.toks[i + 1].pos + 1 : self.toks[end - 1].pos]
            trips = _trip_count(_header_tokens(header))
            inner = None if mult is None or trips is None else mult * trips
            return self.statement(end, inner)
        if t in ("if", "while", "switch"):
            j = self.statement(self._match(i + 1, "(", ")"), None)
            if t == "if" and j < len(self.toks) and self.toks[j].text == "else":
                j = self.statement(j + 1, None)
            return j
        if t == "do":
            return self._simple(self.statement(i + 1, None), mult)  # the "while (...);"
        return self._simple(i, mult)

    def _simple(self, i: int, mult: int | None) -> int:
        depth = 0
        while True:
            tok = self.toks[i]
            t = tok.text
            if t in "([{" and len(t) == 1:
                depth += 1
            elif t in ")]}" and len(t) == 1:
                depth -= 1
            elif t == ";" and depth == 0:
                return i + 1
            elif t in _EXITS:
                self.exit_line = self.exit_line or self.line(tok)
            elif t == "__syncthreads" or t.startswith("__syncthreads_"):
                if mult is None:
                    self._uncountable(
                        f"__syncthreads() at line {self.line(tok)} is inside a branch or a loop "
                        "without constant bounds"
                    )
                else:
                    self.count += mult
            i += 1


def count_syncthreads(body: str, raw_text: str | None = None) -> SyncCount:
    """How many ``__syncthreads()`` each thread executes in one run of the kernel."""
    text = raw_text if raw_text is not None else body
    if re.search(r"\bbar(?:rier)?\.(?:sync|arrive|red)\b", text):
        return SyncCount(None, "the kernel uses a barrier in inline PTX (bar.sync)")
    if "__syncthreads" not in body:
        return SyncCount(0)
    toks = _struct_tokens(body)
    if not toks or toks[0].text != "{":
        raise KernelSourceError("kernel body must start with '{'")
    counter = _Counter(body, toks)
    counter.block(0, 1)
    if counter.problem:
        return SyncCount(None, counter.problem)
    if counter.count and counter.exit_line:
        return SyncCount(
            None,
            f"a return/break/continue at line {counter.exit_line} may let threads skip "
            "__syncthreads()",
        )
    return SyncCount(counter.count)


def _int_literal(tokens: list[str]) -> int | None:
    """``0``, ``(int64_t)0``, ``((int)16)`` -> int; anything else -> None."""
    rest = [t for t in tokens if t not in ("(", ")") and t not in _INT_TYPES]
    sign = 1
    if rest[:1] == ["-"]:
        sign, rest = -1, rest[1:]
    if len(rest) != 1:
        return None
    text = rest[0].rstrip("uUlL")
    try:
        return sign * int(text, 0)
    except ValueError:
        return None


def _split_top(tokens: list[str], sep: str) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    depth = 0
    for t in tokens:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        if t == sep and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def _trip_count(header: list[str]) -> int | None:
    """Iterations of ``for (T v = A; v < B; ++v)``-shaped loops with literal A, B, step."""
    parts = _split_top(header, ";")
    if len(parts) != 3:
        return None
    init, cond, step = parts
    if "=" not in init:
        return None
    eq = init.index("=")
    var = init[eq - 1] if eq else ""
    start = _int_literal(init[eq + 1 :])
    if start is None or len(cond) < 3 or cond[0] != var or cond[1] not in ("<", "<="):
        return None
    stop = _int_literal(cond[2:])
    if stop is None:
        return None
    if step in (["++", var], [var, "++"]):
        inc = 1
    elif len(step) >= 3 and step[0] == var and step[1] == "+=":
        inc = _int_literal(step[2:]) or 0
    else:
        return None
    if inc <= 0:
        return None
    if cond[1] == "<=":
        stop += 1
    return max(0, math.ceil((stop - start) / inc))


# --- the TVM prelude ---------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def prelude_symbols(prelude: str) -> frozenset[str]:
    """Names the TVM prelude defines (macros, types, device functions)."""
    names = set(re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", prelude, re.MULTILINE))
    names |= set(re.findall(r"\busing\s+([A-Za-z_]\w*)\s*=", prelude))
    names |= set(re.findall(r"\btypedef\b[^;]*?\b([A-Za-z_]\w*)\s*;", prelude))
    names |= set(
        re.findall(
            r"(?:__device__|__forceinline__|__inline__|inline)[^;{}()]*?\b([A-Za-z_]\w*)\s*\(",
            prelude,
        )
    )
    names.discard("operator")
    return frozenset(names)


def prelude_dependencies(body: str, prelude: str) -> list[str]:
    """Prelude names the body uses that NNFusion's generated code would not define."""
    used = set(re.findall(r"[A-Za-z_]\w*", _strip_comments(body)))
    return sorted((prelude_symbols(prelude) - _HARMLESS_PRELUDE) & used)


# A prelude helper that takes nothing and is one block of statements, e.g. TVM's
# ``__forceinline__ __device__ void tvm_builtin_ptx_cp_async_commit_group_...() { asm ...; }``.
_HELPER_RE = re.compile(
    r"^[ \t]*(?:(?:__forceinline__|__device__|__inline__|inline|static)\s+)+void\s+"
    r"([A-Za-z_]\w*)\s*\(\s*(?:void\s*)?\)\s*\{([^{}]*)\}",
    re.MULTILINE,
)


@functools.lru_cache(maxsize=8)
def prelude_helpers(prelude: str) -> dict[str, str]:
    """The prelude's ``void NAME()`` device helpers whose body has no nested block, by name."""
    return {m.group(1): m.group(2).strip() for m in _HELPER_RE.finditer(prelude)}


def inline_prelude_helpers(body: str, prelude: str) -> tuple[str, list[str]]:
    """The body with each statement calling a parameterless prelude helper replaced by the
    helper's statements in braces, and the helpers inlined.

    NNFusion's generated code has no place for device functions a row needs (its
    ``function_dep`` is not read back), so TVM's ``cp.async`` commit/wait helpers travel
    inside the body. A helper named other than as a whole statement stays a dependency.
    """
    inlined = []
    for name, statements in prelude_helpers(prelude).items():
        call = re.compile(rf"\b{re.escape(name)}\s*\(\s*\)\s*;")
        inline = "{ " + statements + " }"
        body, n = call.subn(inline.replace("\\", "\\\\"), body)  # taken literally
        if n:
            inlined.append(name)
    return body, sorted(inlined)


def expand_type_macros(body: str) -> str:
    """Replace the prelude's ``uint``/``uchar``/``ushort`` macros by the types they name."""
    return _TYPE_MACRO_RE.sub(lambda m: PRELUDE_TYPE_MACROS[m.group(0)], body)


_TYPE_MACRO_RE = re.compile(r"\b(?:" + "|".join(PRELUDE_TYPE_MACROS) + r")\b")


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.DOTALL)


def written_params(body: str, names: list[str]) -> set[str]:
    """Parameters the body stores into (``p[i] = ...`` or ``*(T*)(p + i) = ...``)."""
    text = _strip_comments(body)
    found = set()
    for name in names:
        direct = rf"\b{re.escape(name)}\s*\[[^\]]*(?:\[[^\]]*\][^\]]*)*\]\s*(?:[-+*/%&|^]?=)(?!=)"
        vector = rf"\*\s*\(\s*[A-Za-z_]\w*\s*\*\s*\)\s*\(\s*{re.escape(name)}\b[^;=]*\)\s*=(?!=)"
        if re.search(direct, text) or re.search(vector, text):
            found.add(name)
    return found
