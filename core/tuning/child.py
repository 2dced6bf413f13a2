"""Running a tuning plan in a child process (``python -m kernelscope.core.tuning PLAN``):
TVM's C++ can crash, and Cancel stops the child, whose database already holds every
candidate measured so far (each is committed as soon as it is measured)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import Cancelled, KernelscopeError
from ..paths import cache_root
from ..process import ChildChannel, run_child
from ..tasks import Cancel, ProgressFn
from .plan import TuningPlan, count_records


@dataclass
class TuningResult:
    database: Path
    tasks: list[dict[str, Any]] = field(default_factory=list)  # session.TaskProgress as dicts
    cancelled: bool = False
    records: int = 0  # in the database at the end
    round: dict[str, Any] = field(default_factory=dict)  # batch mode: the round written
    notes: list[str] = field(default_factory=list)  # what the user should know of the timings


def tune_in_child(
    plan: TuningPlan, progress: ProgressFn | None = None, cancel: Cancel | None = None
) -> TuningResult:
    """Tune in a child; a Cancel returns what the database holds (``cancelled``) instead of
    raising, since what was measured is kept."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    log = cache_root() / "logs" / f"tune-{stamp}.log"
    try:
        value = run_child(
            "kernelscope.core.tuning",
            [plan.to_json()],
            "tuning",
            progress=progress,
            cancel=cancel,
            log_file=log,
            interrupt_grace=5.0,
        )
    except Cancelled:
        return TuningResult(
            plan.database, cancelled=True, records=sum(count_records(plan.database).values())
        )
    log.unlink(missing_ok=True)
    return TuningResult(
        plan.database,
        tasks=value.get("tasks", []),
        records=sum(count_records(plan.database).values()),
        round=value.get("next") or (value if "round" in value else {}),
        notes=value.get("notes", []),
    )


def measure_batch(
    folder: Path, progress: ProgressFn | None = None, busy_ok: bool = False
) -> dict[str, Any]:
    """Measure a round here (``batch_measure.py`` in a child: TVM's runtime can crash);
    a busy GPU is refused unless ``busy_ok`` (then ``results["busy"]`` says so), and so is
    another GPU than the one the round names."""
    import json

    from ..process import ProcessError, run_process
    from .batch_measure import REFUSED_EXIT, RESULTS, ROUND

    if not (folder / ROUND).is_file():
        raise KernelscopeError(
            f"{folder}: not a tuning round (no {ROUND})",
            hint="give the folder `kernelscope tune --export-batch` wrote",
        )
    if progress is not None:
        progress("measure", None, f"measuring the candidates in {folder}")
    cmd = [sys.executable, "-m", "kernelscope.core.tuning.batch_measure", str(folder)]
    done = run_process([*cmd, "--busy-ok"] if busy_ok else cmd, "measuring the round", check=False)
    if done.returncode == REFUSED_EXIT:
        said = dict(
            line.split(": ", 1)
            for line in done.output.splitlines()
            if line.startswith(("not measured: ", "what to do: "))
        )
        raise KernelscopeError(
            f"{folder}: {said.get('not measured', done.output.strip())}",
            hint=said.get("what to do", ""),
        )
    if done.returncode != 0:
        raise ProcessError("measuring the round", done)
    result: dict[str, Any] = json.loads((folder / RESULTS).read_text(encoding="utf-8"))
    return result


def child_tune(channel: ChildChannel, plan_json: str) -> dict[str, Any]:
    plan = TuningPlan.from_json(plan_json)
    if plan.batch:
        from .batch import export_round, import_round

        work = export_round if plan.batch == "export" else import_round
        return work(plan, Path(plan.batch_dir), channel.progress)
    from .session import run_tuning

    return run_tuning(plan, channel.progress)
