"""The profiling options Build & Profile remembers (QSettings group ``build_dialog``), which
the Timeline pane's Profile This Kernel uses too, so one call is profiled with the sections
chosen last."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings

from kernelscope.core.profiling import NcuOptions

SETTINGS = "build_dialog"
NCU_SETS = ["full", "detailed", "basic"]
NCU_DEFAULT = "ncu's default sections"  # no --set: ncu's own default sections


def ncu_set(choice: str) -> str | None:
    """The dialog's section-set choice as ProfileRequest.set."""
    return None if choice == NCU_DEFAULT or not choice else choice


def remembered_ncu_options(settings: QSettings) -> dict[str, Any]:
    """ProfileRequest's ``ncu``: the section set, sections and clock control as Build &
    Profile last had them (a dict: the caller adds the rest of the request)."""
    value = settings.value
    ncu = NcuOptions(
        set=ncu_set(str(value(f"{SETTINGS}/ncu_set", "full") or "full")),
        sections=str(value(f"{SETTINGS}/sections", "") or "").replace(",", " ").split(),
        clock_control=str(value(f"{SETTINGS}/clock", "base") or "base"),
    )
    return {"ncu": ncu}
