"""What a listing of the kernel DB is narrowed to: one signature (``EntryFilters``) for
``KernelDB.list_entries`` and ``count_entries``, and the SQL it becomes.

Filters combine with AND. ``op`` matches an OpType or one part of a fused one
(``Convolution`` finds ``Fused_Convolution_Add_Relu``); ``device`` matches the DeviceType or
the GPU the time was measured on; ``shape`` any input or output shape; ``search`` is
substring text search over kernel name, identifier, op type, Relax operators and model
(an FTS5 trigram index; queries shorter than 3 characters fall back to a scan); ``usable``
NNFusion's verdict; ``include_twins`` also lists the DeviceType="CUDA" copies of rows.
"""

from __future__ import annotations

from typing import Any, TypedDict


class EntryFilters(TypedDict, total=False):
    """The filters of a listing; a missing or None filter matches everything."""

    op: str | None
    device: str | None
    shape: str | list[int] | tuple[int, ...] | None
    search: str | None
    usable: bool | None
    include_twins: bool


def where(filters: EntryFilters) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (or "") over ``ks_entries e`` and its arguments."""
    clauses: list[str] = []
    args: list[Any] = []
    if not filters.get("include_twins", False):
        clauses.append("e.twin_of IS NULL")
    op = filters.get("op")
    if op:
        clauses.append(
            "(e.op_type = ? OR (e.op_type LIKE 'Fused%' AND instr('_' || e.op_type || '_', ?) > 0))"
        )
        args += [op, f"_{op}_"]
    device = filters.get("device")
    if device:
        clauses.append("(e.device_type = ? OR e.device_name = ?)")
        args += [device, device]
    shape = filters.get("shape")
    if shape:
        text = shape if isinstance(shape, str) else ",".join(str(d) for d in shape)
        clauses.append("e.key IN (SELECT key FROM ks_shapes WHERE shape = ?)")
        args.append(text.replace(" ", ""))
    search = filters.get("search")
    if search:
        if len(search) >= 3:
            # The unary + keeps SQLite walking the listing index in page order and
            # probing the FTS matches, instead of sorting every match first.
            clauses.append(
                "+e.rowid IN (SELECT rowid FROM ks_entries_fts WHERE ks_entries_fts MATCH ?)"
            )
            args.append('"' + search.replace('"', '""') + '"')
        else:
            clauses.append(
                "(instr(lower(e.kernel_name), ?) OR instr(lower(e.identifier), ?) "
                "OR instr(lower(e.op_type), ?))"
            )
            args += [search.lower()] * 3
    usable = filters.get("usable")
    if usable is not None:
        clauses.append("e.usable = ?")
        args.append(int(usable))
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", args
