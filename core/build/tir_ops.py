"""What a PrimFunc computes, read from its TIR: the operators of a kernel no Relax operator
was legalized into, and the check that an operator traced to a PrimFunc is the one it was
made from.

A PrimFunc's buffers are the truth about the tensors a kernel reads and writes. Two kinds of
PrimFunc reach the build without a Relax operator behind them:

* ``relax.transform.FuseTransposeMatmul`` (the ``mlc-llm`` pipeline) replaces
  ``matmul(x, permute_dims(w))`` by a call of a new PrimFunc ``NT_matmul`` with one block
  ``NT_matmul[i, j, n] += x[i, j, k] * w[n, k]``: it is recorded as the operators it fuses,
  ``permute_dims(w)`` then ``matmul``, with the PrimFunc's buffer shapes;
* a model's own TIR or ``te`` computation (``op.tensor_expr_op``): a block that only copies
  elements (the MLC-style Llama's last-token ``index``) is a ``tir.copy``; anything else keeps
  the PrimFunc's name, with its buffers as inputs and output.
"""

from __future__ import annotations

from typing import Any

from ..workspace import OpInfo, TensorInfo

_REDUCE = 2  # IterVar.iter_type of a reduction axis (CommReduce)
COPY = "tir.copy"


def ops_of(name: str, func: Any) -> list[OpInfo]:
    """The operators the PrimFunc ``name`` computes (see the module's docstring)."""
    buffers = _buffers(func)
    blocks = _blocks(func.body)
    written = {_name(getattr(b.body, "buffer", None)) for b in blocks}
    outputs = [t for t in buffers if t.name in written] or buffers[-1:]
    inputs = [t for t in buffers if t not in outputs]
    matmul = _matmul(name, blocks, {t.name: t for t in buffers})
    if matmul is not None:
        return matmul
    output = outputs[-1] if outputs else None
    if blocks and all(_is_copy(b) for b in blocks):
        return [OpInfo(op=COPY, prim=name, inputs=inputs, output=output)]
    return [OpInfo(op=name, prim=name, inputs=inputs, output=output)]


def agrees(op: OpInfo, func: Any) -> bool:
    """Whether ``op`` could have been legalized into ``func``: its output is one of the
    PrimFunc's buffers and every buffer it reads is one of the operator's inputs (a
    different operator bound to the same variable name fails this)."""
    buffers = _buffers(func)
    if op.output is None or not buffers:
        return True  # a tuple result (split): nothing to compare
    if not any(_same(op.output, b) for b in buffers):
        return False
    outputs = [b for b in buffers if _same(op.output, b)][-1:]
    read = [b for b in buffers if b not in outputs]
    return all(any(_same(b, t) for t in op.inputs) for b in read)


def _same(a: TensorInfo, b: TensorInfo) -> bool:
    """Same dtype and dimensions, a symbolic dimension matching any symbolic one."""
    if a.dtype != b.dtype or len(a.shape) != len(b.shape):
        return False
    return all(
        x == y if isinstance(x, int) or isinstance(y, int) else True
        for x, y in zip(a.shape, b.shape, strict=True)
    )


def _buffers(func: Any) -> list[TensorInfo]:
    """The PrimFunc's buffer parameters (tirx: a parameter with a shape)."""
    out = []
    for p in func.params:
        shape = getattr(p, "shape", None)
        if shape is None:
            continue
        dims: list[int | str] = []
        for d in shape:
            value = getattr(d, "value", None)
            dims.append(int(value) if isinstance(value, int) else str(d))
        out.append(TensorInfo(shape=dims, dtype=str(p.dtype), name=str(p.name)))
    return out


def _blocks(stmt: Any) -> list[Any]:
    """The PrimFunc's blocks (``T.sblock``) but the root, in program order."""
    found: list[Any] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        kind = type(node).__name__
        if kind == "SBlockRealize":
            stack.append(node.block)
        elif kind == "SBlock":
            if node.name_hint != "root":
                found.append(node)
            stack.append(node.body)
        elif kind == "SeqStmt":
            stack.extend(reversed(list(node.seq)))
        elif kind == "IfThenElse":
            stack.extend([node.else_case, node.then_case])
        elif hasattr(node, "body") and kind != "BufferStore":
            stack.append(node.body)
    return found


def _name(buffer: Any) -> str:
    return str(getattr(buffer, "name", "")) if buffer is not None else ""


def _strip(expr: Any) -> Any:
    while type(expr).__name__ == "Cast":
        expr = expr.value
    return expr


def _is_load(expr: Any) -> bool:
    return type(expr).__name__ in ("TensorLoad", "BufferLoad")


def _is_copy(block: Any) -> bool:
    """A block storing an element it loaded (maybe cast), with no reduction."""
    store = block.body
    if type(store).__name__ != "BufferStore" or block.init is not None:
        return False
    return _is_load(_strip(store.value)) and all(
        int(iv.iter_type) != _REDUCE for iv in block.iter_vars
    )


def _matmul(name: str, blocks: list[Any], buffers: dict[str, TensorInfo]) -> list[OpInfo] | None:
    """``permute_dims`` of a transposed operand, then ``matmul``, for a PrimFunc whose one
    block is ``C[..] = C[..] + A[..] * B[..]`` over one reduction axis ``k``; None if not."""
    if len(blocks) != 1:
        return None
    block = blocks[0]
    store = block.body
    reduce = [iv.var for iv in block.iter_vars if int(iv.iter_type) == _REDUCE]
    if type(store).__name__ != "BufferStore" or len(reduce) != 1:
        return None
    total = _strip(store.value)
    if type(total).__name__ != "Add":
        return None
    terms = [_strip(total.a), _strip(total.b)]
    product = next((t for t in terms if type(t).__name__ == "Mul"), None)
    loads = [_strip(product.a), _strip(product.b)] if product is not None else []
    if len(loads) != 2 or not all(_is_load(x) for x in loads):
        return None
    k = reduce[0]
    infos, axes = [], []
    for load in loads:
        source = getattr(load, "source", None)
        info = buffers.get(_name(source if source is not None else getattr(load, "buffer", None)))
        at = [i for i, index in enumerate(load.indices) if index.same_as(k)]
        if info is None or len(at) != 1 or len(info.shape) < 2:
            return None
        infos.append(info)
        axes.append(at[0] - len(load.indices))  # -1: the last axis
    out = buffers.get(_name(store.buffer))
    if out is None or axes[0] not in (-1, -2) or axes[1] not in (-1, -2):
        return None
    ops: list[OpInfo] = []
    operands = []
    # A[.., m, k] and B[.., k, n] as matmul takes them; the other way round is transposed
    for info, axis, wanted in zip(infos, axes, (-1, -2), strict=True):
        if axis == wanted:
            operands.append(info)
            continue
        rank = len(info.shape)
        order = [*range(rank - 2), rank - 1, rank - 2]
        moved = TensorInfo(shape=[info.shape[i] for i in order], dtype=info.dtype)
        ops.append(OpInfo("relax.permute_dims", name, [info], moved, {"axes": order}))
        operands.append(moved)
    ops.append(OpInfo("relax.matmul", name, operands, out, {"out_dtype": out.dtype}))
    return ops
