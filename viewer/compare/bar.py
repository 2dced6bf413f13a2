"""Compare mode's header above the code: which profile is compared with which baseline, on
which GPUs (both named when they differ), the model's total per pass and the kernel shown,
each with its change and whether that is within run-to-run noise, and the comparison's notes.
"Stop Comparing" leaves compare mode."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout

from kernelscope.core.compare import (
    ONLY_BASE,
    ONLY_NEW,
    KernelDelta,
    ProfileDiff,
    Side,
    TimeDelta,
)

from ..code.delta_delegate import status_colour
from ..widgets.formatting import format_us

NOTES_SHOWN = 2  # notes on the bar; all of them in its tooltip


def change_text(d: TimeDelta) -> str:
    """``89.9 → 90.7 µs per pass, +0.83 µs (+0.9%), within noise (±2.09 µs)`` as rich text,
    the verdict coloured as the kernel list's bars are."""
    if d.status in (ONLY_BASE, ONLY_NEW):
        side = d.base_per_pass_ns if d.status == ONLY_BASE else d.new_per_pass_ns
        return f"{html.escape(d.status)} ({format_us(side)} µs per pass)"
    times = f"{format_us(d.base_per_pass_ns)} → {format_us(d.new_per_pass_ns)} µs per pass"
    if d.delta_ns is None or d.noise_ns is None:
        return f"{times}, {html.escape(d.status)}"
    pct = f" ({d.pct:+.1f}%)" if d.pct is not None else ""
    colour = status_colour(d.status)
    verdict = html.escape(d.status)
    if colour is not None:
        verdict = f'<span style="color:{colour.name()}"><b>{verdict}</b></span>'
    change = format_us(d.delta_ns, signed=True)
    return f"{times}, {change} µs{pct}, {verdict} (±{format_us(d.noise_ns)} µs)"


def _gpus(base: Side, new: Side) -> str:
    if base.devices == new.devices and base.compute_capability == new.compute_capability:
        return f"both on {html.escape(new.device or 'an unknown GPU')}"
    return (
        f"<b>different GPUs</b>: baseline on {html.escape(base.device or 'unknown')} "
        f"(cc {html.escape(base.compute_capability)}), new on "
        f"{html.escape(new.device or 'unknown')} (cc {html.escape(new.compute_capability)})"
    )


class CompareBar(QFrame):
    stop_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("compare_bar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self.headline = QLabel()
        self.total = QLabel()
        self.kernel = QLabel()
        self.notes = QLabel()
        # wrapped: a long line would widen the code area and squeeze the docks beside it
        for label in (self.headline, self.total, self.kernel, self.notes):
            label.setWordWrap(True)
        for label in (self.headline, self.total, self.kernel, self.notes):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stop = QToolButton()
        self.stop.setObjectName("compare_stop")
        self.stop.setText("Stop Comparing")
        self.stop.setToolTip("Leave compare mode: show the open profile alone")
        self.stop.clicked.connect(self.stop_requested)
        text = QVBoxLayout()
        text.setSpacing(1)
        for label in (self.headline, self.total, self.kernel, self.notes):
            text.addWidget(label)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.addLayout(text, 1)
        layout.addWidget(self.stop, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_waiting(self, baseline: str) -> None:
        """A baseline is set and nothing compared with it yet."""
        self._set(
            f"Baseline: <b>{html.escape(baseline)}</b> — open another profile to compare it "
            "with this one",
        )

    def show_busy(self, new: str, baseline: str) -> None:
        self._set(
            f"Comparing <b>{html.escape(new)}</b> with baseline <b>{html.escape(baseline)}</b>…"
        )

    def show_diff(self, diff: ProfileDiff) -> None:
        base, new = diff.base, diff.new
        counts = (
            f"{len(diff.matched)} kernels matched, {len(diff.only_base)} only in base, "
            f"{len(diff.only_new)} only in new"
        )
        self._set(
            f"Comparing <b>{html.escape(new.name)}</b> with baseline "
            f"<b>{html.escape(base.name)}</b>, {_gpus(base, new)}",
            f"Model total: {change_text(diff.total)} · {counts}",
        )
        self.total.setToolTip(
            "Each kernel's time is the sum over its launches, per pass (model iteration); the "
            "total is the sum over all kernels.\n" + diff.noise.describe()
        )
        notes = list(diff.notes)
        shown = "; ".join(html.escape(n) for n in notes[:NOTES_SHOWN])
        more = f" (+{len(notes) - NOTES_SHOWN} more)" if len(notes) > NOTES_SHOWN else ""
        self.notes.setText(f'<span style="color:gray">{shown}{more}</span>' if notes else "")
        self.notes.setToolTip("\n".join(notes))
        self.notes.setVisible(bool(notes))

    def show_kernel(self, name: str | None, delta: KernelDelta | None, note: str = "") -> None:
        """The kernel shown (or the baseline-only kernel chosen in the list) and its change."""
        if name is None or delta is None:
            self.kernel.setText(html.escape(note))
            self.kernel.setVisible(bool(note))
            return
        m = delta.match
        label = html.escape(m.label)
        how = f" — matched by {html.escape(m.how)}" if m.base and m.new else ""
        extra = f"; {html.escape(note)}" if note else ""
        self.kernel.setText(f"<b>{label}</b>: {change_text(delta)}{how}{extra}")
        self.kernel.setToolTip(m.evidence)
        self.kernel.setVisible(True)

    def _set(self, headline: str, total: str = "") -> None:
        self.headline.setText(headline)
        self.total.setText(total)
        self.total.setVisible(bool(total))
        if not total:
            self.kernel.hide()
            self.notes.hide()
        self.show()
