"""A build workspace on disk: one folder per model, written atomically.

Layout (paths relative to the workspace folder)::

    manifest.json            Manifest: model, versions, target, flags, kernels, timings
    src/tvm_kernels.cu       the CUDA source exactly as TVM generated it
    src/tvm_prelude.cuh      what precedes the first kernel in that source
    src/kernels/<k>.cu       one file per kernel (includes the prelude)
    src/module.cu            the translation unit nvcc compiles (#includes every kernel file)
    module.cubin             every kernel, compiled with -lineinfo
    sass.json                per kernel: instructions with offset, text, file, line, inline frames
    module.ptx               nvcc's PTX of src/module.cu (with .loc lines; see ptx.py)
    ptx_lines.json           per kernel: the PTX line of each SASS instruction
    model.so                 TVM's exported library (what profiling runs)
    params.npz               weights given seeded random values, when the model had none
    build.log                what nvcc/ptxas printed
    profiles/                Nsight Compute reports attached to this build (a report made
                             here: its settings beside it, REPORT.settings.json)

A build writes everything into a hidden sibling folder and swaps it in with renames at the
end, so a failed or cancelled build leaves the previous workspace as it was.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import KernelscopeError
from ..paths import model_sha256
from .manifest import KernelInfo, Manifest
from .ptx import PtxKernel, parse_ptx, read_ptx_lines
from .sass_table import KernelSass, read_sass

MANIFEST = "manifest.json"
SASS = "sass.json"
PROFILES = "profiles"

_log = logging.getLogger(__name__)


class Workspace:
    """Read access to a finished workspace."""

    def __init__(self, path: Path, manifest: Manifest) -> None:
        self.path = path
        self.manifest = manifest
        self._sass: dict[str, KernelSass] | None = None
        self._ptx: tuple[dict[str, PtxKernel], dict[str, dict[int, int]]] | None = None

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Workspace:
        path = Path(path)
        mf = path / MANIFEST
        if not mf.is_file():
            raise KernelscopeError(
                f"{path} is not a kernelscope workspace (no {MANIFEST})",
                hint="create one with: kernelscope build MODEL -o " + str(path),
            )
        try:
            manifest = Manifest.from_json(mf.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as exc:
            raise KernelscopeError(
                f"{mf} is damaged or from another kernelscope version: {exc}",
                hint="rebuild the workspace with kernelscope build",
            ) from exc
        return cls(path, manifest)

    @property
    def profiles_dir(self) -> Path:
        return self.path / PROFILES

    def file(self, role: str) -> Path:
        """A file of the build by role (a key of ``manifest.files``: "cubin", "library",
        "tvm_source", "prelude", "unit", "sass", "log", "params", "ptx", "ptx_lines")."""
        return self.path / self.manifest.files[role]

    def source_path(self, kernel: str | KernelInfo) -> Path:
        info = kernel if isinstance(kernel, KernelInfo) else self.manifest.kernel(kernel)
        return self.path / info.file

    def source_text(self, kernel: str | KernelInfo) -> str:
        return self.source_path(kernel).read_text(encoding="utf-8")

    def profiles(self) -> list[Path]:
        """The reports attached to this build, oldest first (by when they were attached)."""
        return sorted(self.profiles_dir.glob("*.ncu-rep"), key=lambda p: p.stat().st_mtime)

    def attach_profile(self, report: Path) -> Path:
        """Copy a report into ``profiles/`` (atomically: a reader never sees half a file, an
        interrupted copy leaves nothing); returns where it now is. The newest one is what
        opening the workspace shows."""
        folder = self.profiles_dir
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / report.name
        fd, tmp = tempfile.mkstemp(prefix=f".{report.name}.", dir=folder)
        os.close(fd)
        try:
            shutil.copyfile(report, tmp)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _log.info("attached %s to %s", report, self.path)
        return target

    def model_file(self, given: str | os.PathLike[str] | None = None) -> Path:
        """The model file this workspace was built from, checked against the manifest's
        digest: ``given``, else where the build found it (``manifest.model_path``), else a
        file of its name beside the workspace (``MODEL.kscope`` beside ``MODEL``) or in the
        current folder. Raises saying where it looked and why each place failed."""
        manifest = self.manifest
        if given:
            path = Path(given).expanduser()
            if not path.is_file():
                raise KernelscopeError(f"{path}: no such file")
            if model_sha256(path) != manifest.model_sha256:
                raise KernelscopeError(
                    f"{path} is not the model {self.path} was built from (its contents differ)",
                    hint="give the model the workspace was built from with --model, or rebuild",
                    window_hint="choose the model the workspace was built from, or rebuild it",
                )
            return path
        problems = []
        if manifest.model_path:
            recorded = Path(manifest.model_path)
            if not recorded.is_file():
                problems.append(f"{recorded}, where it was built from, is gone")
            elif (digest := model_sha256(recorded)) != manifest.model_sha256:
                problems.append(
                    f"{recorded}, where it was built from, has changed since the build "
                    f"(SHA-256 {manifest.model_sha256[:12]}… then, {digest[:12]}… now)"
                )
            else:
                return recorded
        here = self.path.resolve()
        candidates = [here.parent / manifest.model, Path.cwd() / manifest.model]
        if here.suffix == ".kscope":
            candidates.append(here.with_suffix(Path(manifest.model).suffix))
        for path in dict.fromkeys(c for c in candidates if c.is_file()):
            if model_sha256(path) == manifest.model_sha256:
                return path
            problems.append(f"{path} has other contents")
        said = "; ".join(problems) or f"no {manifest.model} beside it or in {Path.cwd()}"
        raise KernelscopeError(
            f"cannot find {manifest.model}, the model {self.path} was built from: {said}",
            hint="give its path with --model MODEL, or rebuild the workspace from it",
            window_hint="choose the model with Browse… (the Model row of the Kernel DB's "
            "Coverage tab), or rebuild the workspace from it",
        )

    def sass(self, kernel: str) -> KernelSass:
        """A kernel's SASS line table (``sass.json`` is read on the first call)."""
        if self._sass is None:
            _log.debug("reading %s", self.path / SASS)
            self._sass = read_sass(self.path / SASS)
        return self._sass[kernel]

    @property
    def has_ptx(self) -> bool:
        """Whether the build kept its PTX (workspaces built before kernelscope did have none)."""
        return {"ptx", "ptx_lines"} <= self.manifest.files.keys()

    def ptx(self, kernel: str) -> tuple[PtxKernel | None, dict[int, int]]:
        """A kernel's PTX and the PTX line of each of its SASS instructions (by offset);
        ``(None, {})`` without PTX (``has_ptx``). Both files are read on the first call."""
        if not self.has_ptx:
            return None, {}
        if self._ptx is None:
            _log.debug("reading %s", self.file("ptx"))
            kernels = parse_ptx(self.file("ptx").read_text(encoding="utf-8"))
            self._ptx = kernels, read_ptx_lines(self.file("ptx_lines"))
        kernels, lines = self._ptx
        return kernels.get(kernel), lines.get(kernel, {})


def check_target_folder(path: Path) -> None:
    """Refuse to replace a folder that is neither absent, empty, nor a workspace."""
    if not path.exists():
        return
    if not path.is_dir():
        raise KernelscopeError(
            f"{path} exists and is not a folder", hint="choose another output path with -o"
        )
    if any(path.iterdir()) and not (path / MANIFEST).is_file():
        raise KernelscopeError(
            f"{path} exists and holds files that are not a kernelscope workspace; "
            "refusing to overwrite them",
            hint="choose another output path with -o, or remove that folder yourself",
        )


class OtherModelError(KernelscopeError):
    """The target folder holds the build of another model, ``held``. Replacing it loses that
    build and the profiles attached to it, so it takes the user's word: ``--force``, or a
    Yes to the Build dialog's question."""

    def __init__(self, message: str, *, hint: str, held: str) -> None:
        super().__init__(message, hint=hint)
        self.held = held


def other_model_in(target: Path, model_name: str, model_sha256: str) -> str | None:
    """The name of the model the workspace ``target`` holds when it is another model than
    ``model_name`` with contents ``model_sha256``; None when there is no workspace there or
    it holds this model. A model is the same by its name (an edited model rebuilt) or by its
    contents (a renamed copy); an unreadable manifest is another model's."""
    try:
        raw = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return f"an unreadable {MANIFEST}"
    held = raw.get("model") if isinstance(raw, dict) else None
    if not isinstance(held, str):
        return f"a {MANIFEST} naming no model"
    if held == model_name or raw.get("model_sha256") == model_sha256:
        return None
    return held


@contextmanager
def staged_workspace(target: Path, *, keep_profiles: bool = True) -> Iterator[Path]:
    """Yield an empty staging folder next to ``target``; on success swap it into place.

    Profiles attached to the previous workspace are carried over unless ``keep_profiles``
    is False (a build of another model replaces it). On any exception (including
    KeyboardInterrupt) the staging folder is removed and ``target`` is untouched.
    """
    target = target.resolve()
    check_target_folder(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    umask = os.umask(0)
    os.umask(umask)
    stage.chmod(0o777 & ~umask)  # mkdtemp makes it private; a workspace is an ordinary folder
    try:
        yield stage
        old_profiles = target / PROFILES
        if keep_profiles and old_profiles.is_dir():
            shutil.copytree(old_profiles, stage / PROFILES, dirs_exist_ok=True)
        if target.exists():
            trash = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            os.replace(target, trash / "ws")
            os.replace(stage, target)
            shutil.rmtree(trash, ignore_errors=True)
        else:
            os.replace(stage, target)
        _log.info("workspace %s written", target)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
