"""Tuning the kernels of a workspace's model with TVM's MetaSchedule, measured on this
machine, on a GPU host's RPC server over SSH or through an RPC tracker; the records it
writes are what ``build --tuning-db`` applies. ``plan`` decides what to tune without TVM;
``session`` runs it in the child ``child`` starts. ``gain`` (imported on first use: it reads
profiles) builds the model with the records, profiles it and compares it with the untuned run."""

from typing import TYPE_CHECKING

from ..lazy import lazy_getattr
from .child import TuningResult, measure_batch, tune_in_child
from .merge import merge_in_child
from .plan import DEFAULT_DB, Measure, TuningPlan, default_database, plan_tuning
from .rpc_host import ForwardedServer
from .session import TaskProgress

if TYPE_CHECKING:
    from .gain import TunedGain, profile_request_for, see_gain, tuned_workspace

_EXPORTS = {
    name: ".gain" for name in ("TunedGain", "profile_request_for", "see_gain", "tuned_workspace")
}

__all__ = [
    "DEFAULT_DB",
    "ForwardedServer",
    "Measure",
    "TaskProgress",
    "TunedGain",
    "TuningPlan",
    "TuningResult",
    "default_database",
    "measure_batch",
    "merge_in_child",
    "plan_tuning",
    "profile_request_for",
    "see_gain",
    "tune_in_child",
    "tuned_workspace",
]

__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
