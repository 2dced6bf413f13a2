"""The Nsight Compute options as one form (``core.profiling.NcuOptions``): section set,
extra sections, kernel filter, launch skip and count, clock control. Build & Profile's
Profile tab holds it for both compilers; what it last had is remembered under the
``build_dialog`` QSettings keys (``profile_options``)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLineEdit, QSpinBox, QWidget

from kernelscope.core.profiling import NcuOptions

from ..dialogs.profile_options import NCU_DEFAULT, NCU_SETS, ncu_set


class NcuForm(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Nsight Compute", parent)
        self.setObjectName("ncu_options")
        self.ncu_set = QComboBox()
        self.ncu_set.addItems([*NCU_SETS, NCU_DEFAULT])
        self.ncu_set.setToolTip("ncu --set: which sections to collect (full: all of them)")
        self.sections = QLineEdit()
        self.sections.setPlaceholderText("extra sections, e.g. SourceCounters WarpStateStats")
        self.kernel_filter = QLineEdit()
        self.kernel_filter.setPlaceholderText("regex of kernels to profile (default: all)")
        self.launch_skip = QSpinBox()
        self.launch_skip.setRange(0, 10**6)
        self.launch_skip.setToolTip("ncu --launch-skip: matching launches to leave out first")
        self.launch_count = QSpinBox()
        self.launch_count.setRange(0, 10**6)
        self.launch_count.setSpecialValueText("all")
        self.launch_count.setToolTip("ncu --launch-count: profile at most this many launches")
        self.clock = QComboBox()
        self.clock.addItems(["base", "none"])
        self.clock.setToolTip(
            "ncu --clock-control: lock the clocks to base (repeatable numbers, ncu's default) "
            "or leave them as they are (what the model sees in use)"
        )
        form = QFormLayout(self)
        form.addRow("Section set:", self.ncu_set)
        form.addRow("Sections:", self.sections)
        form.addRow("Kernel filter:", self.kernel_filter)
        form.addRow("Launch skip:", self.launch_skip)
        form.addRow("Launch count:", self.launch_count)
        form.addRow("Clock control:", self.clock)

    def fields(self) -> dict[str, QWidget]:
        """The fields by the QSettings key they are remembered under."""
        return {
            "ncu_set": self.ncu_set,
            "sections": self.sections,
            "kernel_filter": self.kernel_filter,
            "launch_skip": self.launch_skip,
            "launch_count": self.launch_count,
            "clock": self.clock,
        }

    def options(self) -> NcuOptions:
        return NcuOptions(
            set=ncu_set(self.ncu_set.currentText()),
            sections=self.sections.text().replace(",", " ").split(),
            kernel_regex=self.kernel_filter.text().strip() or None,
            launch_skip=self.launch_skip.value(),
            launch_count=self.launch_count.value() or None,
            clock_control=self.clock.currentText(),
        )
