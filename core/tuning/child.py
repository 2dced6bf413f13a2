"""Running a tuning plan in a child process (``python -m kernelscope.core.tuning PLAN``):
TVM's C++ can crash, and Cancel stops the child, whose database already holds every
candidate measured so far (each is committed as soon as it is measured)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import Cancelled
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
        Path(value["database"]),
        tasks=value["tasks"],
        records=sum(count_records(plan.database).values()),
    )


def child_tune(channel: ChildChannel, plan_json: str) -> dict[str, Any]:
    from .session import run_tuning

    return run_tuning(TuningPlan.from_json(plan_json), channel.progress)
