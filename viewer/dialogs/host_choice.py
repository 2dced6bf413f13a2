"""Where to run: this machine or an SSH host (``user@gpu-box``, a port, an identity file, the
host's python3 and ncu), with the hosts used before remembered in QSettings.

``HostStore`` keeps the remembered hosts (newest first) and which one was chosen last (the
Timeline pane's Run on list reads them); ``HostChoice`` is the one host form of every dialog
that picks a host (Build & Profile, Tune, See the Gain): its ``options()`` is the requests'
``host``, core's ``SshTarget`` (None: this machine).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import asdict, dataclass, field

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from kernelscope.core.errors import KernelscopeError
from kernelscope.core.profiling import SshTarget, ssh_options

from ..widgets.file_dialogs import browse_row, open_file_name

THIS_MACHINE = "This machine"
MAX_HOSTS = 12
# user@host, host, or an ~/.ssh/config alias; never something ssh would read as an option
_HOST_RE = re.compile(r"(?:[^\s@]+@)?[A-Za-z0-9_.:\[\]%-]+")


@dataclass
class HostEntry:
    """An SSH host and how to reach it, as the dialog's fields give it."""

    host: str  # user@host
    port: int = 0  # 0: ssh's (22 or ~/.ssh/config)
    identity: str = ""  # private key file; "": ssh's
    python: str = "python3"
    ncu: str = "ncu"  # "ncu": found on the host's PATH or in its usual folders
    extra: list[str] = field(default_factory=list)  # more ssh options: -oProxyJump=gate
    runtime_root: str = ""  # where runtimes go there; "": ~/.cache/kernelscope/runtime

    def target(self) -> SshTarget:
        """The host as requests take it."""
        return SshTarget(
            self.host,
            ssh_options(self.port or None, self.identity or None, self.extra),
            self.python or "python3",
            self.ncu or "ncu",
            self.runtime_root or None,
        )


def check_host_text(text: str) -> str:
    """The host as typed, or a clear error for what ssh would not take as one."""
    host = text.strip()
    if not host:
        raise KernelscopeError("give the SSH host to run on", hint="user@gpu-box")
    if host.startswith("-") or not _HOST_RE.fullmatch(host):
        raise KernelscopeError(
            f"{host!r} is not an SSH host",
            hint="user@gpu-box, gpu-box, or a Host alias of ~/.ssh/config (port and key go "
            "in their own fields)",
        )
    return host


class HostStore:
    """The remembered hosts, kept as JSON under ``remote/hosts`` (newest first), and the
    last choice under ``remote/where`` ("" for this machine)."""

    HOSTS = "remote/hosts"
    WHERE = "remote/where"

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def hosts(self) -> list[HostEntry]:
        raw = self.settings.value(self.HOSTS, "[]")
        try:
            items = json.loads(raw if isinstance(raw, str) else "[]")
            return [HostEntry(**item) for item in items if isinstance(item, dict)]
        except (TypeError, ValueError):  # damaged settings: start again
            return []

    def get(self, host: str) -> HostEntry | None:
        return next((h for h in self.hosts() if h.host == host), None)

    def remember(self, entry: HostEntry) -> None:
        hosts = [entry, *(h for h in self.hosts() if h.host != entry.host)][:MAX_HOSTS]
        self.settings.setValue(self.HOSTS, json.dumps([asdict(h) for h in hosts]))

    def where(self) -> str:
        value = self.settings.value(self.WHERE, "")
        return value if isinstance(value, str) else ""

    def set_where(self, host: str) -> None:
        self.settings.setValue(self.WHERE, host)

    def entry_for(self, host: str) -> HostEntry:
        """The remembered way to reach ``host``, or ssh's defaults."""
        return self.get(host) or HostEntry(host)


class HostChoice(QWidget):
    """This machine, or an SSH host with its port, key, python3 and ncu."""

    changed = Signal()

    def __init__(
        self,
        store: HostStore,
        parent: QWidget | None = None,
        *,
        label: str = "Run on:",
        profiling: bool = True,
    ) -> None:
        """``label``: the host row's; ``profiling``: whether the host's ncu and runtime folder
        are asked for (tuning runs TVM's RPC server with the host's Python, nothing else)."""
        super().__init__(parent)
        self.store = store
        self.where = QComboBox()
        self.where.setObjectName("where")
        self.where.setEditable(True)
        self.where.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.where.setToolTip(
            "Run on this machine, or on an SSH host (user@gpu-box): kernelscope copies the "
            "workspace there, runs ncu or the timeline there and brings the results back"
        )
        edit = self.where.lineEdit()
        assert edit is not None  # an editable combo box has one
        edit.setPlaceholderText("user@gpu-box")
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("ssh's default")
        self.identity = QLineEdit()
        self.identity.setPlaceholderText("private key file (default: ssh's, or ssh-agent)")
        key_row, browse = browse_row(
            self.identity, lambda: open_file_name(self, "SSH identity file", "~/.ssh")
        )
        key_row.setContentsMargins(0, 0, 0, 0)
        self.python = QLineEdit("python3")
        self.python.setToolTip(
            "The host's Python 3.10+ (with numpy; TVM's runtime comes from Install runtime on host)"
        )
        self.ncu = QLineEdit("ncu")
        self.ncu.setToolTip(
            "The host's ncu; 'ncu' looks on its PATH, in /usr/local/cuda/bin "
            "and /opt/nvidia/nsight-compute/*"
        )
        self.extra = QLineEdit()
        self.extra.setPlaceholderText("more ssh options, e.g. -oProxyJump=gate")
        self.runtime_root = QLineEdit()
        self.runtime_root.setPlaceholderText(
            "where runtimes are installed there (default ~/.cache/kernelscope/runtime)"
        )
        self._ssh_fields = [
            self.port, self.identity, browse, self.python, self.ncu, self.extra,
            self.runtime_root,
        ]  # fmt: skip
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(label, self.where)
        form.addRow("SSH port:", self.port)
        form.addRow("Identity:", key_row)
        form.addRow("Python there:", self.python)
        form.addRow("ncu there:", self.ncu)
        form.addRow("SSH options:", self.extra)
        form.addRow("Runtime folder:", self.runtime_root)
        form.setRowVisible(self.ncu, profiling)
        form.setRowVisible(self.runtime_root, profiling)
        self.reload()
        self.where.currentTextChanged.connect(self._on_where)
        self._on_where(self.where.currentText())

    def reload(self) -> None:
        """The remembered hosts, the last choice selected."""
        self.where.blockSignals(True)
        self.where.clear()
        self.where.addItem(THIS_MACHINE)
        for entry in self.store.hosts():
            self.where.addItem(entry.host)
        last = self.store.where()
        self.where.setCurrentText(last or THIS_MACHINE)
        self.where.blockSignals(False)
        self._on_where(self.where.currentText())

    @property
    def is_local(self) -> bool:
        text = self.where.currentText().strip()
        return not text or text == THIS_MACHINE

    def entry(self) -> HostEntry | None:
        """The chosen host (None: this machine); raises for a host ssh would not take."""
        if self.is_local:
            return None
        try:
            extra = shlex.split(self.extra.text())
        except ValueError as exc:
            raise KernelscopeError(f"SSH options: {exc}", hint="-oProxyJump=gate -4") from exc
        if any(not option.startswith("-") for option in extra):
            raise KernelscopeError(
                f"SSH options {self.extra.text()!r}: each starts with '-' (-oName=value)",
                hint="-oProxyJump=gate -oServerAliveInterval=30",
            )
        return HostEntry(
            check_host_text(self.where.currentText()),
            self.port.value(),
            self.identity.text().strip(),
            self.python.text().strip() or "python3",
            self.ncu.text().strip() or "ncu",
            extra,
            self.runtime_root.text().strip(),
        )

    def options(self) -> SshTarget | None:
        """The chosen host as requests take it (None: this machine); raises for a host ssh
        would not take."""
        entry = self.entry()
        return entry.target() if entry is not None else None

    def remember(self) -> None:
        """Keep the choice (and the host's fields) for next time."""
        entry = self.entry()
        if entry is not None:
            self.store.remember(entry)
        self.store.set_where(entry.host if entry else "")

    def set_host(self, host: str | None) -> None:
        self.where.setCurrentText(host or THIS_MACHINE)

    def _on_where(self, text: str) -> None:
        for widget in self._ssh_fields:
            widget.setEnabled(not self.is_local)
        known = None if self.is_local else self.store.get(text.strip())
        if known is not None:
            self.port.setValue(known.port)
            self.identity.setText(known.identity)
            self.python.setText(known.python)
            self.ncu.setText(known.ncu)
            self.extra.setText(shlex.join(known.extra))
            self.runtime_root.setText(known.runtime_root)
        self.changed.emit()
