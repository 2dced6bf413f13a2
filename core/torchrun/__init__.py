"""A PyTorch model file built by ``torch.compile`` and profiled by Nsight Compute, on this
machine or an SSH GPU host, into a run folder that holds Inductor's and Triton's output, the
report and the timeline (``kernelscope profile-torch``); for an LLM workspace, its decoder's
twin in transformers, step by step (``profile-torch WS --steps``)."""

from .run import (
    FACTS,
    MODES,
    TorchRequest,
    TorchRun,
    default_run_dir,
    is_torch_model_file,
    profile_torch,
    timeline_from_runner,
    twin_config,
)

__all__ = [
    "FACTS",
    "MODES",
    "TorchRequest",
    "TorchRun",
    "default_run_dir",
    "is_torch_model_file",
    "profile_torch",
    "timeline_from_runner",
    "twin_config",
]
