"""The kernel DB's records: what is written (``DbEntry``), what a listing or a lookup
returns (``EntrySummary``, ``EntryDetail``, ``CacheRow``) and what a write changed
(``EntryChange``), with the column helpers every part of the store shares."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from ..workspace.manifest import default_kept_text

CHUNK = 500  # bound parameters per IN (...) query, below SQLite's limit

PROVENANCE = ("model", "model_sha256", "workspace", "arch", "tvm_version", "nvcc_version",
              "ncu_version", "exported_at")  # fmt: skip
LAUNCH = ("dynamic_smem_bytes", "static_smem_bytes", "registers", "sass_instructions")


@dataclass
class DbEntry:
    """One row to write: the KernelCache columns and kernelscope's record of the kernel."""

    key: str
    identifier: str
    op_type: str
    attributes: dict[str, Any]
    source: str
    device_type: str
    function: dict[str, Any]
    tags: list[str]
    miscs: dict[str, Any]
    kernel_name: str
    usable: bool
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""
    relax_ops: list[str] = field(default_factory=list)
    shapes: list[list[int | str]] = field(default_factory=list)
    provenance: dict[str, str] = field(default_factory=dict)  # model, tvm_version, arch...
    launch: dict[str, Any] = field(default_factory=dict)  # registers, static_smem_bytes...
    time_us: float | None = None
    device_name: str | None = None
    metrics: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)  # path -> text
    sass: str | None = None
    twin_of: str | None = None
    tuning: dict[str, Any] = field(default_factory=dict)  # ``ks_tuning`` columns but key

    def cache_row(self) -> dict[str, str]:
        return {
            "Key": self.key,
            "Identifier": self.identifier,
            "OpType": self.op_type,
            "Attributes": json.dumps(self.attributes),
            "Source": self.source,
            "DeviceType": self.device_type,
            "Function": json.dumps(self.function),
            "Tags": ",".join(self.tags),
            "Miscs": json.dumps(self.miscs),
        }


@dataclass
class EntrySummary:
    key: str
    identifier: str
    op_type: str
    device_type: str
    source: str
    tags: list[str]
    kernel_name: str
    usable: bool
    time_us: float | None
    device_name: str | None
    model: str
    grid: list[int] | None
    block: list[int] | None
    exported_at: str
    reasons: list[str]
    # Where the schedule came from (``ks_tuning``: schedule, trials, best_us, ...); {} for
    # rows exported before kernelscope recorded it, and for rows of other tools.
    tuning: dict[str, Any] = field(default_factory=dict)

    @property
    def schedule(self) -> str:
        return schedule_label(self.tuning)


@dataclass
class EntryDetail(EntrySummary):
    attributes: dict[str, Any] = field(default_factory=dict)
    function: dict[str, Any] = field(default_factory=dict)
    miscs: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""
    relax_ops: list[str] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)
    sass: str | None = None
    twins: list[str] = field(default_factory=list)  # keys of DeviceType="CUDA" copies


@dataclass
class CacheRow:
    """A KernelCache row as NNFusion reads it, with kernelscope's notes on it (if any)."""

    key: str
    identifier: str
    op_type: str
    source: str
    device_type: str
    tags: list[str]
    times: dict[str, float]  # Miscs.external_profile.time: GPU name -> µs
    resource: int | None
    attributes: dict[str, Any]
    kernel_name: str = ""
    usable: bool = True  # kernelscope's verdict (rows of other tools: External + emitter tag)
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    nnfusion_identifier: str = ""  # what NNFusion computes for it, also for flagged rows
    twin_of: str | None = None


@dataclass
class EntryChange:
    key: str
    kernel_name: str
    identifier: str
    status: str  # "added" | "updated" | "unchanged"
    changed: list[str]  # fields that differ from the stored row
    usable: bool
    reasons: list[str]
    replaced: list[str] = field(default_factory=list)  # keys removed (replace_identifier)
    others_for_identifier: int = 0  # other usable rows NNFusion may pick instead


def schedule_label(tuning: dict[str, Any]) -> str:
    """Short: "default", "tuned 64 trials", or "" when not recorded."""
    if tuning.get("schedule") == "tuned":
        return f"tuned {tuning.get('trials') or 0} trials"
    return str(tuning.get("schedule") or "")


def describe_tuning(tuning: dict[str, Any]) -> str:
    """The whole provenance in a line: "tuned: 64 trials, best 12.3 µs on NVIDIA H200
    (MetaSchedule, from /db)", "default schedule" (with the database that had no record for
    it, if any), or "" when not recorded."""
    db = tuning.get("tuning_db") or ""
    if tuning.get("schedule") == "tuned":
        best = tuning.get("best_us")
        where = tuning.get("measured_on") or tuning.get("arch") or "an unnamed GPU"
        text = f"tuned: {tuning.get('trials') or 0} trials"
        text += f", best {best:.4g} µs on {where}" if best is not None else f" on {where}"
        default = tuning.get("default_us")
        if default is not None:
            text += f" (default schedule {default:.4g} µs)"
        return f"{text} ({tuning.get('tuner') or 'MetaSchedule'}, from {db})"
    if tuning.get("schedule") == "default" and tuning.get("default_us") is not None:
        return f"{default_kept_text(tuning.get('best_us'), tuning['default_us'])} (from {db})"
    if tuning.get("schedule") == "default":
        return "default schedule" + (f" (no record for it in {db})" if db else "")
    return ""


def json_or(text: str | None, default: Any) -> Any:
    """``text`` parsed as JSON, or ``default`` when it is empty or not JSON."""
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def split_tags(text: str | None) -> list[str]:
    """The ``Tags`` column (comma separated) as a list."""
    return [t for t in (text or "").split(",") if t]


def shape_texts(shapes: list[list[int | str]]) -> list[str]:
    """Shapes as the ``ks_shapes`` table holds them (``"1,64,56,56"``), each once."""
    return list(dict.fromkeys(",".join(str(d) for d in s) for s in shapes))


def parse_profile_time(text: str) -> dict[str, float]:
    """``"NVIDIA H200:12.5;Tesla V100:20;"`` -> {device: µs}, as NNFusion splits it."""
    times: dict[str, float] = {}
    for part in text.split(";"):
        name, sep, value = part.rpartition(":")
        if sep:
            try:
                times[name] = float(value)
            except ValueError:
                continue
    return times


def rows_by_key(
    conn: sqlite3.Connection, table: str, key: str, keys: list[str]
) -> dict[str, dict[str, Any]]:
    """Every column of ``table``'s rows whose ``key`` column is one of ``keys``, by that key
    (queried ``CHUNK`` keys at a time)."""
    found: dict[str, dict[str, Any]] = {}
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        cur = conn.execute(
            f"SELECT * FROM {table} WHERE {key} IN ({','.join('?' * len(chunk))})", chunk
        )
        names = [d[0] for d in cur.description]
        for row in cur:
            values = dict(zip(names, row, strict=True))
            found[values[key]] = values
    return found
