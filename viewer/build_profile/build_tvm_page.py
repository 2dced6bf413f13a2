"""Build & Profile's TVM page: how ``kernelscope build`` builds the model (target arch, input
shapes, weights, seed, build cache, tuning records, pipeline), or the workspace profiled as
it is. The dialog holds the model, the workspace folder, the shared forms and the jobs; this
page says what its compiler needs of them (``CompilerPage``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from kernelscope.core.build import PIPELINES, BuildRequest, default_workspace
from kernelscope.core.build import parse_shapes as core_parse_shapes
from kernelscope.core.workspace import Manifest

from ..widgets.file_dialogs import browse_row, existing_folder

# The Pipeline combo's first item: no --pipeline, the model's own default
AUTO_PIPELINE = "model's default"
ARCHES = ["sm_90", "sm_80", "sm_86", "sm_89", "sm_100", "sm_120"]


def parse_shapes(text: str) -> dict[str, list[int]]:
    """``"x=1,3,224,224; y=4"`` -> {"x": [1, 3, 224, 224], "y": [4]}."""
    return core_parse_shapes([part for part in text.split(";") if part.strip()])


class TvmPage(QGroupBox):
    """The TVM build's fields; ``changed``: Build the model was ticked or cleared."""

    changed = Signal()
    name = "TVM"
    model_hint = "model.onnx or a Relax IRModule .py"
    output_label = "Workspace:"
    output_hint = "workspace folder (default: MODEL.kscope next to it)"
    report_prefix = "profile"
    warmup_tip = "Forward passes before the profiled ones (ncu profiles them too)"
    takes_inputs = True  # the Profile tab's .npz of inputs

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("TVM build", parent)
        self.build = QCheckBox("Build the model (unchecked: profile the workspace as it is)")
        self.build.setChecked(True)
        self.arch = QComboBox()
        self.arch.setEditable(True)
        self.arch.addItems(ARCHES)
        self.arch.setToolTip("CUDA architecture to compile for (the profiling GPU's)")
        self.shapes = QLineEdit()
        self.shapes.setPlaceholderText("sizes of dynamic inputs: x=1,3,224,224; seq_len=128")
        self.params = QComboBox()
        self.params.addItems(["random", "runtime"])
        self.params.setToolTip("Weights without values: seeded random values, or runtime inputs")
        self.pipeline = QComboBox()
        self.pipeline.setObjectName("pipeline")
        self.pipeline.addItems([AUTO_PIPELINE, *PIPELINES])
        self.pipeline.setToolTip(
            "The compilation pipeline: TVM's default; mlc-llm (MLC-LLM's transpose-into-matmul "
            "fusion first, no per-call weight transposes); lift-params (weight transforms run "
            "once at load). Model's default: mlc-llm for a Python LLM with a KV cache, else "
            "default"
        )
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("Seed of the random weights and input data")
        self.use_cache = QCheckBox("Reuse an earlier build of the same model")
        self.use_cache.setChecked(True)
        self.tuning_db = QLineEdit()
        self.tuning_db.setObjectName("tuning_db")
        self.tuning_db.setPlaceholderText("none: TVM's default schedules")
        self.tuning_db.setToolTip(
            "A folder of MetaSchedule tuning records (Tune…, kernelscope tune): kernels with a "
            "record are built with its best schedule, the others with the default one"
        )
        db_row, browse_db = browse_row(
            self.tuning_db,
            lambda: existing_folder(self, "Tuning records", self.tuning_db.text()),
        )
        form = QFormLayout(self)
        form.addRow("", self.build)
        form.addRow("Target arch:", self.arch)
        form.addRow("Input shapes:", self.shapes)
        form.addRow("Weights:", self.params)
        form.addRow("Seed:", self.seed)
        form.addRow("", self.use_cache)
        form.addRow("Tuning records:", db_row)
        form.addRow("Pipeline:", self.pipeline)
        self._build_fields = [
            self.arch, self.shapes, self.params, self.use_cache, self.tuning_db, browse_db,
            self.pipeline,
        ]  # fmt: skip
        self.build.toggled.connect(self.changed)

    def add_build_field(self, widget: QWidget) -> None:
        """A build option shown elsewhere (the LLM steps group's CUDA graphs box), on while
        Build the model is ticked as this page's own are."""
        self._build_fields.append(widget)

    def fields(self) -> dict[str, QWidget]:
        """The fields by the QSettings key they are remembered under."""
        return {
            "arch": self.arch,
            "shapes": self.shapes,
            "params": self.params,
            "seed": self.seed,
            "use_cache": self.use_cache,
            "pipeline": self.pipeline,
        }

    def default_output(self, model: Path) -> Path:
        return default_workspace(model)

    def start_text(self, profile: bool) -> tuple[str, bool]:
        """The Start button's text, and whether there is anything to start."""
        build = self.build.isChecked()
        text = "Build && Profile" if build and profile else "Build" if build else "Profile"
        return text, build or profile

    def update_state(self, remote: bool) -> None:
        """The build's fields are on while Build the model is ticked (wherever the model
        runs: ``remote`` changes nothing here)."""
        for widget in self._build_fields:
            widget.setEnabled(self.build.isChecked())

    def request(self, model: Path, output: Path) -> BuildRequest:
        tuning_db = self.tuning_db.text().strip()
        return BuildRequest(
            model=model,
            output=output,
            arch=self.arch.currentText().strip() or None,
            shapes=parse_shapes(self.shapes.text()),
            params=self.params.currentText(),
            seed=self.seed.value(),
            use_cache=self.use_cache.isChecked(),
            tuning_db=Path(tuning_db).expanduser() if tuning_db else None,
            pipeline=pipeline if (pipeline := self.pipeline.currentText()) in PIPELINES else "",
        )

    def start_from(self, manifest: Manifest) -> None:
        """A workspace's build as it was made (a rebuild keeps its records and pipeline),
        to be profiled as it is."""
        self.arch.setCurrentText(str(manifest.target.get("arch", "")) or self.arch.currentText())
        if manifest.params_mode in ("random", "runtime"):
            self.params.setCurrentText(manifest.params_mode)
        if manifest.params_seed is not None:
            self.seed.setValue(manifest.params_seed)
        self.tuning_db.setText(manifest.tuning_db)
        self.pipeline.setCurrentText(manifest.pipeline)
        self.build.setChecked(False)

    def use_tuning_records(self, folder: Path) -> None:
        """Rebuild with the records in ``folder``."""
        self.tuning_db.setText(str(folder))
        self.build.setChecked(True)

    def build_for_gpu(self, compute_caps: set[str]) -> str | None:
        """Build for the GPU a host check found (one compute capability, ``"9.0"``): the arch
        now chosen, or None when it stays as it was."""
        if not self.build.isChecked() or len(compute_caps) != 1 or not (cap := min(compute_caps)):
            return None
        arch = "sm_" + cap.replace(".", "")
        if arch == self.arch.currentText():
            return None
        self.arch.setCurrentText(arch)
        return arch
