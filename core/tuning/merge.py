"""Merging tuning databases (``kernelscope tune-merge OUT DB [DB ...]``).

A record of TVM's JSON database points at its workload by line number, so databases are
merged through TVM's API: every record of every source is read (``get_all_tuning_records``)
and committed again to the output (``commit_workload`` files its workload there, under that
database's own line), never by concatenating files. A record already in the output (the
same workload, trace and times) is not committed twice, so merging again adds nothing.
kernelscope's notes beside the records are merged too: the models, the default schedules'
times and which of them are records, the runs.

Refused before anything is written: a database of another TVM version than this one, one
tuned for another target (another GPU architecture, or the CPU) than the others, and records
measured on different GPU models. The merge is written into a temporary folder beside OUT
and moved into place at the end, so a refusal or a crash leaves OUT as it was. TVM's calls
run in a child (``python -m kernelscope.core.tuning.merge``), as tuning's do.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from ..build.records import WORKLOADS, check_tvm, measured_on, read_meta, write_meta
from ..errors import KernelscopeError
from ..process import ChildChannel, run_child
from ..tasks import Cancel, ProgressFn

logger = logging.getLogger(__name__)


def check_merge(out: Path, sources: list[Path]) -> list[Path]:
    """The databases to merge into ``out`` (an existing output first: it is continued),
    resolved; raise what is wrong with them that kernelscope's notes tell, before TVM runs."""
    if not sources:
        raise KernelscopeError("give at least one database to merge into the output")
    out = out.expanduser().resolve()
    given = [s.expanduser().resolve() for s in sources]
    for folder in given:
        if not (folder / WORKLOADS).is_file():
            raise KernelscopeError(
                f"{folder}: not a tuning database (no {WORKLOADS})",
                hint="give folders `kernelscope tune` or TVM's tune_relax wrote (its work_dir)",
            )
    _recover_interrupted(out)
    if out.exists() and not out.is_dir():
        raise KernelscopeError(f"{out}: not a folder", hint="give a folder for the merged records")
    if out.is_dir() and any(out.iterdir()) and not (out / WORKLOADS).is_file():
        raise KernelscopeError(
            f"{out}: a folder that is not a tuning database",
            hint="give a new or empty folder, or a tuning database to add the records to",
        )
    folders = list(dict.fromkeys(([out] if (out / WORKLOADS).is_file() else []) + given))
    check_notes({f: read_meta(f) for f in folders})
    return folders


def check_notes(metas: dict[Path, dict[str, Any]], arch_of: dict[Path, str] | None = None) -> None:
    """Refuse databases whose notes (or ``arch_of``: the target their records name) say
    another TVM version than this one, different targets, or different GPU models."""
    here = importlib.metadata.version("apache-tvm")
    for folder, meta in metas.items():
        check_tvm(
            folder,
            meta,
            here,
            "records do not carry over between TVM versions: merge only databases tuned with "
            "this one",
        )
    _same("target", {f: str(m.get("arch", "")) for f, m in metas.items()})
    if arch_of:
        _same("target", arch_of)
    _same("GPU", {f: measured_on(m) for f, m in metas.items()})


def _same(what: str, values: dict[Path, str]) -> None:
    """Refuse when two folders name different non-empty ``values`` (the ``what``: "target"
    or "GPU"; a folder naming none says nothing either way), naming both."""
    seen: tuple[Path, str] | None = None
    for folder, value in values.items():
        if not value:
            continue
        if seen is None:
            seen = (folder, value)
            continue
        if value == seen[1]:
            continue
        if what == "GPU":
            raise KernelscopeError(
                f"{folder}: these records were measured on {value}; those of {seen[0]} were "
                f"measured on {seen[1]}",
                hint="merge only databases measured on one GPU model: their times do not compare",
            )
        raise KernelscopeError(
            f"{folder}: these records were tuned for {value}; those of {seen[0]} were tuned "
            f"for {seen[1]}",
            hint="merge only databases of one target: each target's records go into their own",
        )


def merge_in_child(
    out: Path, sources: list[Path], progress: ProgressFn | None = None, cancel: Cancel | None = None
) -> dict[str, Any]:
    """Merge ``sources`` into ``out`` (see the module); return what was added: "records"
    (committed), "duplicates" (already there), "total" (records in ``out``) and "workloads"."""
    folders = check_merge(out, sources)
    out = out.expanduser().resolve()
    return run_child(
        "kernelscope.core.tuning.merge",
        [json.dumps({"out": str(out), "folders": [str(f) for f in folders]})],
        "merging tuning databases",
        progress=progress,
        cancel=cancel,
    )


def _record_key(shash: str, record: Any) -> str:
    """What makes two records the same: the workload, the trace, the times (and target)."""
    secs = [float(s) for s in record.run_secs] if record.run_secs else []
    return json.dumps([shash, str(record.trace), secs, str(record.target)])


def _arch(record: Any) -> str:
    target = record.target
    if target is None:
        return ""
    if str(target.kind.name) != "cuda":
        return "cpu"
    return str(target.attrs.get("arch", ""))


def merge_meta(metas: list[dict[str, Any]], sources: list[str]) -> dict[str, Any]:
    """kernelscope's notes of the merged database: the first's settings, the union of the
    models, default times (the first database's where two differ), default records and runs;
    the merge is noted under "merged" (the ``sources`` added)."""
    out: dict[str, Any] = {}
    for meta in metas:
        for key in ("tvm", "arch", "target"):
            if meta.get(key) and not out.get(key):
                out[key] = meta[key]
        for key in ("models", "default_records", "defaults_not_kept"):
            merged = out.setdefault(key, [])
            merged += [v for v in meta.get(key, []) if v not in merged]
        defaults = out.setdefault("defaults", {})
        for shash, us in meta.get("defaults", {}).items():
            defaults.setdefault(shash, us)
        runs = out.setdefault("runs", [])
        runs += [r for r in meta.get("runs", []) if r not in runs]
        merges = out.setdefault("merged", [])
        merges += [m for m in meta.get("merged", []) if m not in merges]
    out["defaults_not_kept"] = [
        s for s in out["defaults_not_kept"] if s not in out["default_records"]
    ]
    out["merged"].append({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "from": sources})
    return out


def child_merge(channel: ChildChannel, request_json: str) -> dict[str, Any]:
    """The child's work: read every database, check the targets their records name, commit
    the records not yet in the output into a temporary folder, move it into place."""
    import tvm_ffi

    from ..build.records import open_database

    request = json.loads(request_json)
    out = Path(request["out"])
    folders = [Path(f) for f in request["folders"]]
    databases = {}
    for i, folder in enumerate(folders):
        channel.progress("read", 0.3 * i / len(folders), f"reading {folder.name}")
        databases[folder] = open_database(folder)
    records = {f: list(db.get_all_tuning_records()) for f, db in databases.items()}
    arch_of = {f: next((a for r in rs if (a := _arch(r))), "") for f, rs in records.items()}
    metas = {f: read_meta(f) for f in folders}
    check_notes(metas, arch_of)
    continued = out in databases
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.merging"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        if continued:  # its files as they are (the cost model too), the others' added
            shutil.copytree(out, tmp)
        merged = open_database(tmp, create=True)
        hashes: dict[Any, str] = {}

        def key(record: Any) -> str:
            if record.workload not in hashes:
                hashes[record.workload] = str(tvm_ffi.structural_hash(record.workload.mod))
            return _record_key(hashes[record.workload], record)

        seen = {key(r) for r in records[out]} if continued else set()
        added = duplicates = 0
        adding = [f for f in folders if f != out]
        for i, folder in enumerate(adding):
            channel.progress("merge", 0.3 + 0.6 * i / len(adding), f"merging {folder.name}")
            for record in records[folder]:
                found = key(record)
                if found in seen:
                    duplicates += 1
                    continue
                seen.add(found)
                workload = merged.commit_workload(record.workload.mod)
                merged.commit_tuning_record(
                    type(record)(
                        record.trace, workload, record.run_secs, record.target, record.args_info
                    )
                )
                added += 1
        del merged
        if added or not continued:
            meta = merge_meta([metas[f] for f in folders], [str(f) for f in adding])
            write_meta(tmp, meta)
            _move_into_place(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    channel.progress("done", 1.0, f"{added} records added to {out}")
    return {
        "records": added,
        "duplicates": duplicates,
        "total": (len(records[out]) if continued else 0) + added,
        "workloads": len(set(hashes.values())),
        "database": str(out),
    }


def _aside(out: Path) -> Path:
    """Where ``_move_into_place`` keeps the previous ``out`` while it swaps the new one in."""
    return out.parent / f".{out.name}.old"


def _recover_interrupted(out: Path) -> None:
    """Undo what a merge killed between its two renames left: ``out`` moved aside and the
    new one not yet in its place (the previous database is put back), or, after the swap,
    the previous one not yet removed (it is)."""
    old = _aside(out)
    if not old.is_dir():
        return
    if out.exists():
        shutil.rmtree(old, ignore_errors=True)
        return
    old.rename(out)
    logger.warning("%s: put back the database an interrupted merge had moved aside", out)


def _move_into_place(tmp: Path, out: Path) -> None:
    """Replace ``out`` by ``tmp``: the old folder is moved aside first and removed only once
    the new one is in place (a new ``out``: just renamed; an interruption in between is
    undone by the next merge, ``_recover_interrupted``)."""
    if not out.exists():
        tmp.rename(out)
        return
    old = _aside(out)
    shutil.rmtree(old, ignore_errors=True)
    out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    from ..process import child_main

    child_main(lambda channel: child_merge(channel, sys.argv[1]))
