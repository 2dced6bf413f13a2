"""Tuning the kernels of a workspace's model with TVM's MetaSchedule, measured on this
machine, on a GPU host's RPC server over SSH or through an RPC tracker; the records it
writes are what ``build --tuning-db`` applies. ``plan`` decides what to tune without TVM;
``session`` runs it in the child ``child`` starts."""

from .child import TuningResult, measure_batch, tune_in_child
from .plan import DEFAULT_DB, Measure, TuningPlan, choose_tasks, default_database, plan_tuning
from .rpc_host import ForwardedServer
from .session import TaskProgress

__all__ = [
    "DEFAULT_DB",
    "ForwardedServer",
    "Measure",
    "TaskProgress",
    "TuningPlan",
    "TuningResult",
    "choose_tasks",
    "default_database",
    "measure_batch",
    "plan_tuning",
    "tune_in_child",
]
