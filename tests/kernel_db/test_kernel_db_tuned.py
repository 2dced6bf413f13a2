"""The kernel DB gets the winners with their provenance: rows exported from a workspace built
with ``--tuning-db`` say whether their schedule is the default or a tuned one (trials, best
time, where it was measured, the database), in ``ks_tuning`` beside NNFusion's KernelCache;
a DB written before ``ks_tuning`` existed still opens and lists."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from paths_support import DATA, STOCK_DB

from kernelscope.core.build import BuildRequest, build_model
from kernelscope.core.build.records import measured_on
from kernelscope.core.cli import main as cli
from kernelscope.core.kernel_db import KernelDB, describe_tuning, export_workspace
from kernelscope.core.kernel_db.schema import KERNEL_CACHE_COLUMNS

# A DB the kernelscope before ks_tuning wrote (tiny_mlp exported, see data/kernel_db/README.md)
OLD_DB = DATA / "kernel_db" / "schema1_before_tuning.db"
TUNED = "fused_matmul_add_relu"  # the PrimFunc the stock database has a record for


@pytest.mark.slow
def test_exported_rows_carry_where_their_schedule_came_from(
    tuned_ws: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = tuned_ws
    kernels = {k.primfunc: k.name for k in ws.manifest.kernels}  # type: ignore[attr-defined]
    db_path = tmp_path / "cache.db"
    times = {kernels[TUNED]: ("NVIDIA H200", 80_000.0)}  # the profile's time, 80 µs
    export_workspace(ws, db_path, times=times)  # type: ignore[arg-type]

    conn = sqlite3.connect(db_path)
    assert [r[1] for r in conn.execute("PRAGMA table_info(KernelCache)")] == KERNEL_CACHE_COLUMNS
    rows = {
        r[0]: r[1:]
        for r in conn.execute(
            "SELECT e.kernel_name, t.schedule, t.trials, t.best_us, t.tuner, t.tuning_db, "
            "t.arch, e.time_us, c.Miscs FROM ks_entries e JOIN ks_tuning t ON t.key = e.key "
            "JOIN KernelCache c ON c.Key = e.key"
        )
    }
    conn.close()
    assert set(rows) == set(kernels.values())  # every row says, tuned or not
    schedule, trials, best, tuner, db, arch, time_us, miscs = rows[kernels[TUNED]]
    assert (schedule, tuner, db, arch) == ("tuned", "MetaSchedule", str(STOCK_DB.resolve()),
                                           "sm_90")  # fmt: skip
    assert trials >= 1
    assert best == pytest.approx(96.0)  # the tuning's best, from the records
    assert time_us == pytest.approx(80.0)  # the row's time stays the profile's
    said = json.loads(miscs)["kernelscope"]["schedule"]  # for readers without ks_tuning
    assert said.startswith(f"tuned: {trials} trials, best 96 µs on sm_90 (MetaSchedule, from ")
    assert rows[kernels["softmax"]][0] == "default"
    assert "schedule" not in json.loads(rows[kernels["softmax"]][-1])["kernelscope"]

    assert cli.main(["db", "list", "--db", str(db_path), "--json"]) == 0
    listed = {r["kernel_name"]: r for r in json.loads(capsys.readouterr().out)}
    assert listed[kernels[TUNED]]["schedule"] == f"tuned {trials} trials"
    assert listed[kernels[TUNED]]["tuning"]["best_us"] == pytest.approx(96.0)
    assert listed[kernels["softmax"]]["schedule"] == "default"
    assert cli.main(["db", "list", "--db", str(db_path)]) == 0
    table = capsys.readouterr().out
    assert "schedule" in table.splitlines()[0]
    assert f"tuned {trials} trials" in table
    with KernelDB.open(db_path) as kdb:
        key = next(e.key for e in kdb.list_entries() if e.kernel_name == kernels[TUNED])
    assert cli.main(["db", "show", "--db", str(db_path), key]) == 0
    assert "schedule     tuned: " in capsys.readouterr().out


@pytest.mark.slow
def test_a_build_from_the_cache_names_the_database_it_was_given(
    tuned_ws: object, tmp_path: Path
) -> None:
    copy = tmp_path / "elsewhere"
    shutil.copytree(STOCK_DB, copy)
    again = build_model(BuildRequest(model=DATA / "models" / "tiny_mlp.py",
                                     output=tmp_path / "again.kscope", tuning_db=copy))  # fmt: skip
    assert "restore_from_cache" in again.manifest.timings
    assert again.manifest.tuning_db == str(copy.resolve())
    export_workspace(again, tmp_path / "cache.db")
    with KernelDB.open(tmp_path / "cache.db") as db:
        assert {e.tuning["tuning_db"] for e in db.list_entries()} == {str(copy.resolve())}


@pytest.mark.slow
def test_a_default_build_exports_default_schedules(build_once, tmp_path: Path) -> None:  # noqa: ANN001
    ws = build_once("tiny_mlp.py")
    export_workspace(ws, tmp_path / "cache.db")
    with KernelDB.open(tmp_path / "cache.db") as db:
        entries = db.list_entries()
        assert {e.schedule for e in entries} == {"default"}
        assert describe_tuning(db.get(entries[0].key).tuning) == "default schedule"


def test_a_db_written_before_ks_tuning_opens_lists_and_grows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(OLD_DB, old)
    old.chmod(0o444)  # read-only: nothing may be created in it to read it
    before = old.read_bytes()
    assert cli.main(["db", "list", "--db", str(old), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed and {r["schedule"] for r in listed} == {""}  # not recorded: unknown
    assert cli.main(["db", "list", "--db", str(old)]) == 0
    assert "schedule" in capsys.readouterr().out
    with KernelDB.open(old) as db:
        assert db.get(listed[0]["key"]).tuning == {}
    assert old.read_bytes() == before

    old.chmod(0o644)
    with KernelDB.open(old, write=True) as db:  # writing adds the table, the rows stay
        assert len(db.list_entries()) == len(listed)
    conn = sqlite3.connect(old)
    assert conn.execute("SELECT count(*) FROM ks_tuning").fetchone() == (0,)
    conn.close()


def test_the_gpu_a_database_was_measured_on_comes_from_its_batch_rounds() -> None:
    meta = {
        "runs": [
            {"measure": "local"},
            {"measure": "batch round 1 on NVIDIA H200"},
            {"measure": "batch round 2 on NVIDIA H200"},
            {"measure": "batch round 3 on cpu"},
        ]
    }
    assert measured_on(meta) == "NVIDIA H200"
    assert measured_on({}) == ""
    tuning = {
        "schedule": "tuned",
        "trials": 64,
        "best_us": 12.25,
        "default_us": 30.0,
        "tuner": "MetaSchedule",
        "tuning_db": "/db",
        "measured_on": "NVIDIA H200",
    }
    assert describe_tuning(tuning) == (
        "tuned: 64 trials, best 12.25 µs on NVIDIA H200 (default schedule 30 µs) "
        "(MetaSchedule, from /db)"
    )
