"""Profiling a workspace's model under Nsight Compute, on this machine or over SSH."""

from .run_ncu import ProfileRequest, ProfileResult, profile_workspace, profiling_problem

__all__ = ["ProfileRequest", "ProfileResult", "profile_workspace", "profiling_problem"]
