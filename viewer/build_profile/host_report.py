"""The remote doctor's answer in the Build & Profile dialog: one row per check (GPU and
driver, ncu and its version, performance counters, Python, numpy, TVM's runtime, nsys) with
the exact fix under each failed one, and whether the host is ready to profile. Read-only
rich text, so the fixes can be selected and copied."""

from __future__ import annotations

import html

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QTextBrowser, QWidget

from kernelscope.core.profiling import HostReport

_MARK = {True: ("ok", "#2e9a3e"), False: ("FAIL", "#d03c3c"), None: ("--", "")}


class HostReportView(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("host_report")
        self.setOpenLinks(False)
        self.report: HostReport | None = None
        self.setPlaceholderText(
            "Check host asks the SSH host for its GPU, driver, ncu, performance counters, "
            "Python, numpy and TVM runtime, and says how to fix what is missing."
        )

    def show_report(self, report: HostReport) -> None:
        self.report = report
        muted = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        rows = []
        for check in report.checks:
            mark, colour = _MARK[check.ok]
            style = f' style="color:{colour}; font-weight:bold"' if colour else ""
            rows.append(
                f"<tr><td{style}>{mark}</td><td><b>{html.escape(check.name)}</b></td>"
                f"<td>{html.escape(check.summary)}</td></tr>"
            )
            if check.ok is False and check.fix:
                rows.append(
                    f'<tr><td></td><td></td><td style="color:{muted.name()}">fix: '
                    f"{html.escape(check.fix)}</td></tr>"
                )
        verdict = report.verdict()
        self.setHtml(
            f"<p><b>{html.escape(report.host)}: {verdict}</b></p>"
            f'<table cellspacing="2" cellpadding="2">{"".join(rows)}</table>'
        )

    def clear_report(self) -> None:
        self.report = None
        self.clear()
