"""Profiling a workspace's model under Nsight Compute, on this machine or over SSH; the SSH
host's doctor and its runtime-only TVM install."""

from .host_check import COUNTERS_FIX, Check, HostReport, check_host, local_tvm_version
from .ncu_options import NcuOptions
from .remote import (
    RUNNER,
    CommandResult,
    RemoteFolder,
    SshSession,
    SshTarget,
    Transfer,
    explain_ssh_failure,
    run_command,
    ssh_options,
    transfer_progress,
)
from .run_ncu import (
    ProfileRequest,
    ProfileResult,
    launch_sequence,
    ncu_arguments,
    profile_command,
    profile_workspace,
    profiling_problem,
    recorded_request,
    request_from_settings,
    request_settings,
    same_kernel,
    stream_ncu,
    timeline_command,
)
from .runner_app import runner_path
from .runner_site import runner_site
from .runtime_install import InstallResult, install_runtime, make_bundle
from .step_models import step_functions
from .step_options import StepOptions, check_steps

__all__ = [
    "COUNTERS_FIX",
    "RUNNER",
    "Check",
    "CommandResult",
    "HostReport",
    "InstallResult",
    "NcuOptions",
    "ProfileRequest",
    "ProfileResult",
    "RemoteFolder",
    "SshSession",
    "SshTarget",
    "StepOptions",
    "Transfer",
    "check_host",
    "check_steps",
    "explain_ssh_failure",
    "install_runtime",
    "launch_sequence",
    "local_tvm_version",
    "make_bundle",
    "ncu_arguments",
    "profile_command",
    "profile_workspace",
    "profiling_problem",
    "recorded_request",
    "request_from_settings",
    "request_settings",
    "run_command",
    "runner_path",
    "runner_site",
    "same_kernel",
    "ssh_options",
    "step_functions",
    "stream_ncu",
    "timeline_command",
    "transfer_progress",
]
