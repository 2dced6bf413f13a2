"""Readers for each ``ncu --csv`` page: details, raw, session and the three Source views.

Each reader takes a ``CsvText`` (see ``ncu_csv``), maps columns by header name (never by
position, the headers changed between ncu releases) and returns plain records. Rows it cannot
use are skipped with a warning that names file and line; the rest is kept.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

from ..errors import KernelscopeError
from .csv_text import (
    CsvText,
    parse_dim3,
    parse_number,
    split_source_row,
    to_base,
)
from .detail_metrics import LABELS, SECTION_BY_ID, SECTION_BY_NAME, MetricRecord
from .metrics import INT_FIELDS, METRIC_FIELDS
from .records import Launch, Location, RuleResult

# Result-identity columns of the details and raw pages (the metrics come after them).
_IDENTITY = ("ID", "Kernel Name", "Context", "Stream", "Block Size", "Grid Size", "Device", "CC")

# Kernel-list fields by (section, label) on the details page (by metric name on the raw page
# and in ncu_report: ``metrics.METRIC_FIELDS``).
DETAILS_FIELDS: dict[tuple[str, str], str] = {
    ("GPU Speed Of Light Throughput", "Duration"): "duration_ns",
    ("GPU Speed Of Light Throughput", "Compute (SM) Throughput"): "sm_throughput_pct",
    ("GPU Speed Of Light Throughput", "Memory Throughput"): "memory_throughput_pct",
    ("Occupancy", "Achieved Occupancy"): "achieved_occupancy_pct",
    ("Occupancy", "Theoretical Occupancy"): "theoretical_occupancy_pct",
    ("Launch Statistics", "Registers Per Thread"): "registers",
    ("Launch Statistics", "Static Shared Memory Per Block"): "shared_static_bytes",
    ("Launch Statistics", "Dynamic Shared Memory Per Block"): "shared_dynamic_bytes",
}


def set_field(launch: Launch, name: str, value: float, unit: str) -> None:
    value, _ = to_base(value, unit)
    setattr(launch, name, round(value) if name in INT_FIELDS else value)


def _rows(ct: CsvText, first: int) -> list[tuple[int, list[str]]]:
    """RFC-4180 rows from line ``first`` on, with their line index; bad rows become warnings."""
    out = []
    for i in range(first, len(ct.lines)):
        line = ct.lines[i]
        if not line.startswith('"'):
            continue  # ==PROF== lines, application output, NUMA notes
        try:
            row = next(csv.reader([line], strict=True))
        except csv.Error as exc:
            ct.warnings.append(f"{ct.where(i)}: row skipped, cannot be split ({exc})")
            continue
        out.append((i, row))
    return out


def _identity(ct: CsvText, header: list[str], need: tuple[str, ...]) -> dict[str, int]:
    cols = {name: idx for idx, name in enumerate(header)}
    missing = [n for n in need if n not in cols]
    if missing:
        raise KernelscopeError(
            f"{ct.where(ct.start)}: header has no {', '.join(repr(m) for m in missing)} column; "
            f"this does not look like a complete {ct.page.value} page"
        )
    return cols


def _launch_from_row(row: list[str], cols: dict[str, int], launches: dict[int, Launch]) -> Launch:
    def cell(name: str) -> str:
        i = cols.get(name)
        return row[i] if i is not None and i < len(row) else ""

    rid = int(cell("ID"))
    launch = launches.get(rid)
    if launch is None:
        name = cell("Kernel Name")
        dev = cell("Device")
        launch = Launch(
            id=rid,
            name=name,
            demangled=name,
            grid=parse_dim3(cell("Grid Size")),
            block=parse_dim3(cell("Block Size")),
            device=int(dev) if dev.isdigit() else None,
            cc=cell("CC"),
        )
        launches[rid] = launch
    return launch


def read_details(ct: CsvText) -> dict[int, Launch]:
    """Launches with their kernel-list numbers and rule results, by result ID."""
    rows = _rows(ct, ct.start)
    if not rows:
        return {}
    _, header = rows[0]
    cols = _identity(ct, header, ("ID", "Kernel Name", "Metric Name", "Metric Value"))
    launches: dict[int, Launch] = {}
    for i, row in rows[1:]:
        if len(row) <= cols["Metric Value"] or not row[cols["ID"]].isdigit():
            if row and row[0] != "ID":
                ct.warnings.append(f"{ct.where(i)}: short or foreign row skipped")
            continue
        launch = _launch_from_row(row, cols, launches)
        section = row[cols["Section Name"]] if "Section Name" in cols else ""
        metric = row[cols["Metric Name"]]
        if metric:
            unit = row[cols["Metric Unit"]] if "Metric Unit" in cols else ""
            fname = _details_field(section, metric)
            if fname:
                try:
                    value = parse_number(row[cols["Metric Value"]])
                except ValueError:
                    value = None
                if value is not None:
                    set_field(launch, fname, value, unit)
            continue
        rule = _rule(row, cols, section)
        if rule:
            launch.rules.append(rule)
    return launches


def _details_field(section: str, label: str) -> str | None:
    """The Launch field a details row fills; older ncu called the section "GPU Speed Of Light"."""
    if section.startswith("GPU Speed Of Light") and "Roofline" not in section:
        section = "GPU Speed Of Light Throughput"
    return DETAILS_FIELDS.get((section, label)) or METRIC_FIELDS.get(label)


def _rule(row: list[str], cols: dict[str, int], section: str) -> RuleResult | None:
    def cell(name: str) -> str:
        i = cols.get(name)
        return row[i] if i is not None and i < len(row) else ""

    if not cell("Rule Name"):
        return None
    try:
        speedup = parse_number(cell("Estimated Speedup"))
    except ValueError:
        speedup = None
    return RuleResult(
        rule=cell("Rule Name"),
        section=section,
        kind=cell("Rule Type"),
        message=cell("Rule Description"),
        speedup_type=cell("Estimated Speedup Type"),
        speedup_pct=speedup,
    )


def read_raw(ct: CsvText) -> dict[int, Launch]:
    """Launches from the raw page: one row per launch, one column per metric, a units row."""
    rows = _rows(ct, ct.start)
    if not rows:
        return {}
    _, header = rows[0]
    cols = _identity(ct, header, ("ID", "Kernel Name"))
    units: list[str] = []
    launches: dict[int, Launch] = {}
    wanted = {i: METRIC_FIELDS[name] for i, name in enumerate(header) if name in METRIC_FIELDS}
    name_col = {n: i for i, n in enumerate(header)}
    for i, row in rows[1:]:
        if not row[cols["ID"]].strip():
            units = row  # the units row under the header
            continue
        if not row[cols["ID"]].isdigit():
            ct.warnings.append(f"{ct.where(i)}: row without a result ID skipped")
            continue
        launch = _launch_from_row(row, cols, launches)
        if len(row) < len(header):
            ct.warnings.append(f"{ct.where(i)}: row cut short; missing metrics left empty")
        for idx, fname in wanted.items():
            if idx >= len(row):
                continue
            try:
                value = parse_number(row[idx])
            except ValueError:
                continue
            if value is not None:
                set_field(launch, fname, value, units[idx] if idx < len(units) else "")
        dn = name_col.get("device__attribute_display_name")
        if dn is not None and dn < len(row):
            launch.device_name = row[dn]
    return launches


def read_raw_metrics(
    ct: CsvText, names: set[str] | None = None
) -> dict[int, dict[str, MetricRecord]]:
    """Every metric column of the raw page (or those in ``names``) per result ID, in base
    units. Instanced metrics come as their aggregate only (no ``--print-metric-instances``)."""
    rows = _rows(ct, ct.start)
    if not rows:
        return {}
    _, header = rows[0]
    cols = _identity(ct, header, ("ID", "Kernel Name"))
    first = max(cols[c] for c in _IDENTITY if c in cols) + 1
    wanted = [
        (i, name)
        for i, name in enumerate(header)
        if i >= first and (names is None or name in names)
    ]
    units: list[str] = []
    out: dict[int, dict[str, MetricRecord]] = {}
    for _, row in rows[1:]:
        rid = row[cols["ID"]].strip()
        if not rid:
            units = row
            continue
        if not rid.isdigit():
            continue  # warned about by read_raw
        values: dict[str, MetricRecord] = {}
        for i, name in wanted:
            if i >= len(row):
                break
            cell = row[i]
            unit = units[i] if i < len(units) else ""
            try:
                number = parse_number(cell)
            except ValueError:
                values[name] = MetricRecord(cell.strip(), "")
                continue
            if number is None:
                continue
            value, base = to_base(number, unit)
            values[name] = MetricRecord(value, base)
        out[int(rid)] = values
    return out


def read_details_metrics(ct: CsvText) -> dict[int, tuple[dict[str, MetricRecord], list[str]]]:
    """Header metrics of the details page per result ID, named through the section table,
    with the identifiers of the sections each result shows (metric or rule rows)."""
    rows = _rows(ct, ct.start)
    if not rows:
        return {}
    _, header = rows[0]
    cols = _identity(ct, header, ("ID", "Kernel Name", "Metric Name", "Metric Value"))
    out: dict[int, tuple[dict[str, MetricRecord], list[str]]] = {}
    for _, row in rows[1:]:
        if len(row) <= cols["Metric Value"] or not row[cols["ID"]].isdigit():
            continue
        values, sections = out.setdefault(int(row[cols["ID"]]), ({}, []))
        section = row[cols["Section Name"]] if "Section Name" in cols else ""
        spec = SECTION_BY_NAME.get(section) or SECTION_BY_ID.get(section)
        if spec is not None and spec.identifier not in sections:
            sections.append(spec.identifier)
        label = row[cols["Metric Name"]]
        name = LABELS.get((section, label))
        if not label or name is None:
            continue
        unit = row[cols["Metric Unit"]] if "Metric Unit" in cols else ""
        cell = row[cols["Metric Value"]]
        try:
            number = parse_number(cell)
        except ValueError:
            values[name] = MetricRecord(cell.strip(), "")
            continue
        if number is not None:
            value, base = to_base(number, unit)
            values[name] = MetricRecord(value, base)
    return out


def read_session(ct: CsvText) -> dict[str, str]:
    """Session attributes, flattened: ``{"Nsight Compute Target": "2025.3.1.0 ...", ...}``."""
    out: dict[str, str] = {}
    for _, row in _rows(ct, ct.start):
        if len(row) >= 2 and row[0] not in (
            "Launch Attribute",
            "Session Attribute",
            "Process Id",
            "Device Attribute",
        ):
            out.setdefault(row[0], row[1])
    return out


@dataclass
class SourceBlock:
    """One launch's rows of a Source-page export (sass or cuda,sass view), de-duplicated.

    Rows are kept as raw cells in chunks that share a header (one chunk per file block);
    ``columns()`` turns them into one list of cells per metric label.
    """

    kernel: str
    first_line: int  # line index where the block starts, for messages
    addresses: list[int] = field(default_factory=list)
    sass: list[str] = field(default_factory=list)
    locations: list[Location | None] = field(default_factory=list)
    chunks: list[tuple[list[str], list[list[str]]]] = field(default_factory=list)
    line_rows: dict[Location, dict[str, str]] = field(default_factory=dict)  # raw cells
    files: set[str] = field(default_factory=set)
    # row index -> header line the instruction was inlined from (cuda,sass lists an inlined
    # instruction under its call site and again under the header line)
    inlined: dict[int, Location] = field(default_factory=dict)

    def start_chunk(self, labels: list[str]) -> None:
        self.chunks.append((labels, []))

    def add(self, address: int, sass: str, loc: Location | None, cells: list[str]) -> None:
        self.addresses.append(address)
        self.sass.append(sass)
        self.locations.append(loc)
        self.chunks[-1][1].append(cells)

    def columns(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        done = 0
        for labels, rows in self.chunks:
            if not rows:
                continue
            width = len(labels)
            padded = (r if len(r) == width else (r + [""] * width)[:width] for r in rows)
            cols = zip(*padded, strict=True)
            for label, cells in zip(labels, cols, strict=True):
                col = out.get(label)
                if col is None:
                    col = out[label] = [""] * done
                col.extend(cells)
            done += len(rows)
            for col in out.values():
                if len(col) < done:
                    col.extend([""] * (done - len(col)))
        return out

    def repeats(self, previous: SourceBlock) -> bool:
        """The same rows as ``previous`` (or their beginning, for an export cut short)."""
        n = len(self.addresses)
        if self.kernel != previous.kernel or self.addresses != previous.addresses[:n]:
            return False
        mine = [r for _, rows in self.chunks for r in rows]
        theirs = [r for _, rows in previous.chunks for r in rows][:n]
        return mine == theirs


def _title(line: str) -> str:
    """The value of a ``"Kernel Name","x",`` style line ('' when the line is cut)."""
    parts = split_source_row(line, 2, 1)
    return parts[1] if len(parts) > 1 else ""


def _address(text: str) -> int | None:
    try:
        return int(text, 16) if text.startswith(("0x", "0X")) else None
    except ValueError:
        return None


def read_source_sass(ct: CsvText) -> list[SourceBlock]:
    """``--print-source sass``: a ``"Kernel Name"`` line, a header, one row per instruction.

    ncu 2025.3 prints every block twice in a row; a block that repeats the previous one is
    dropped (two launches of one kernel differ at least in their sampled stalls).
    """
    blocks: list[SourceBlock] = []
    block: SourceBlock | None = None
    header: list[str] = []
    seen: set[int] = set()
    addr_i = src_i = 0
    metric_idx: list[int] = []
    for i in range(ct.start, len(ct.lines)):
        line = ct.lines[i]
        if line.startswith('"Kernel Name",'):
            _close(blocks, block)
            block = SourceBlock(_title(line), i)
            header, seen = [], set()
            continue
        if block is None or not line.startswith('"'):
            continue
        if not header:
            header = split_source_row(line, 0, 0)
            if "Address" not in header or "Source" not in header:
                ct.warnings.append(f"{ct.where(i)}: expected the Address/Source header; skipped")
                header = []
                continue
            addr_i, src_i = header.index("Address"), header.index("Source")
            metric_idx = [j for j in range(len(header)) if j not in (addr_i, src_i)]
            block.start_chunk([header[j] for j in metric_idx])
            continue
        row = split_source_row(line, len(header), src_i)
        if len(row) < 2:
            ct.warnings.append(f"{ct.where(i)}: unreadable row skipped")
            continue
        address = _address(row[addr_i])
        if address is None:
            ct.warnings.append(f"{ct.where(i)}: row without an address skipped")
            continue
        if address in seen:
            continue
        seen.add(address)
        if len(row) < len(header):
            ct.warnings.append(f"{ct.where(i)}: row cut short; missing metrics left empty")
        cells = (
            row[2:] if (addr_i, src_i) == (0, 1) else [row[j] for j in metric_idx if j < len(row)]
        )
        block.add(address, row[src_i] if src_i < len(row) else "", None, cells)
    _close(blocks, block)
    return blocks


def _close(blocks: list[SourceBlock], block: SourceBlock | None) -> None:
    if block is None or not block.addresses:
        return
    if blocks and block.repeats(blocks[-1]):
        return
    blocks.append(block)


def read_source_cuda_sass(ct: CsvText) -> list[SourceBlock]:
    """``--print-source cuda,sass``: blocks per (file, function) holding line rows and SASS rows.

    One launch spans several file blocks when header code was inlined; a launch ends when the
    function changes or a (file, function) pair repeats.
    """
    blocks: list[SourceBlock] = []
    block: SourceBlock | None = None
    pairs: set[tuple[str, str]] = set()
    file = function = ""
    header: list[str] = []
    seen: dict[int, int] = {}
    labels: list[str] = []
    current: Location | None = None
    for i in range(ct.start, len(ct.lines)):
        line = ct.lines[i]
        if line.startswith('"File Path",'):
            file = _title(line)
            header = []
            continue
        if line.startswith('"Function Name",'):
            function = _title(line)
            if block is None or block.kernel != function or (file, function) in pairs:
                if block is not None and block.addresses:
                    blocks.append(block)
                block = SourceBlock(function, i)
                pairs, seen = set(), {}
            header = []
            pairs.add((file, function))
            block.files.add(file)
            current = None
            continue
        if block is None or not line.startswith('"'):
            continue
        if not header:
            header = split_source_row(line, 0, 0)
            if header[:4] != ["Line No", "Source", "Address", "Source"]:
                ct.warnings.append(
                    f"{ct.where(i)}: expected a 'Line No,Source,Address,Source' header; skipped"
                )
                header = []
                continue
            labels = header[4:]
            block.start_chunk(labels)
            continue
        row = split_source_row(line, len(header), 1)
        if len(row) < 4:
            ct.warnings.append(f"{ct.where(i)}: unreadable row skipped")
            continue
        cells = row[4:]
        if row[0].strip():
            try:
                current = (file, int(row[0]))
            except ValueError:
                ct.warnings.append(f"{ct.where(i)}: bad line number {row[0]!r}; row skipped")
                current = None
                continue
            block.line_rows[current] = dict(zip(labels, cells, strict=False))
            continue
        address = _address(row[2])
        if address is None:
            continue  # "..." gap rows between address ranges
        known = seen.get(address)
        if known is not None:
            first = block.locations[known]
            if current is not None and first is not None and first[0] != current[0]:
                block.inlined.setdefault(known, current)
            continue
        seen[address] = len(block.addresses)
        if len(row) < len(header):
            ct.warnings.append(f"{ct.where(i)}: row cut short; missing metrics left empty")
        block.add(address, row[3], current, cells)
    if block is not None and block.addresses:
        blocks.append(block)
    return blocks


def read_source_cuda(ct: CsvText) -> dict[str, str]:
    """``--print-source cuda``: the text of each source file (no metrics)."""
    files: dict[str, dict[int, str]] = {}
    current: dict[int, str] | None = None
    for i in range(ct.start, len(ct.lines)):
        line = ct.lines[i]
        if line.startswith('"File Name",'):
            current = files.setdefault(_title(line), {})
            continue
        if current is None or line.startswith('"Line No","Source"'):
            continue
        row = split_source_row(line, 2, 1)
        if len(row) != 2 or not row[0].isdigit():
            ct.warnings.append(f"{ct.where(i)}: not a 'line, text' row; skipped")
            continue
        current[int(row[0])] = row[1]
    out = {}
    for path, lines in files.items():
        n = max(lines, default=0)
        out[path] = "\n".join(lines.get(k, "") for k in range(1, n + 1)) + "\n"
    return out
