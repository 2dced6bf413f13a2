"""Paths of the Nsight Compute test data and a small workspace made from the mlp fixture."""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paths_support import DATA, data_path

from kernelscope.core.ncu import Profile
from kernelscope.core.workspace import MANIFEST, KernelInfo, Manifest

BAD = DATA / "bad"
MLP = data_path("ncu/mlp")
CNN = data_path("ncu/cnn")
SMALL = data_path("ncu/small")
# The mlp fixture's split kernel files, as the hand-made workspace tests/data/ws_mlp holds them.
MLP_KERNELS = DATA / "ws_mlp" / "src" / "kernels"

MLP_CSVS = [MLP / f for f in ("details.csv", "raw.csv", "session.csv", "source_sass.csv")] + [
    MLP / "source_cuda_sass.csv",
    MLP / "source_cuda.csv",
]
CNN_CSVS = [CNN / f for f in ("details.csv", "raw.csv", "source_sass.csv", "source_cuda_sass.csv")]


def make_mlp_workspace(root: Path, kernels: list[str] | None = None) -> Path:
    """A workspace holding the mlp fixture's split kernel files (no build needed)."""
    names = kernels or sorted(p.stem for p in MLP_KERNELS.glob("*.cu"))
    (root / "src" / "kernels").mkdir(parents=True)
    infos = []
    for name in names:
        src = MLP_KERNELS / f"{name}.cu"
        dst = root / "src" / "kernels" / f"{name}.cu"
        if src.is_file():
            shutil.copyfile(src, dst)
        else:
            dst.write_text(f'extern "C" __global__ void {name}() {{}}\n', encoding="utf-8")
        infos.append(
            _fill(
                KernelInfo,
                name=name,
                file=f"src/kernels/{name}.cu",
                primfunc=name.removesuffix("_kernel"),
                grid=[1, 1, 1],
                block=[128, 1, 1],
            )
        )
    manifest = _fill(
        Manifest,
        model="mlp.py",
        model_sha256="0" * 64,
        model_format="relax-py",
        entry="forward",
        target={"kind": "cuda", "arch": "sm_90"},
        params_mode="random",
        nvcc_flags=["-lineinfo"],
        cache_key="test",
        kernels=infos,
    )
    (root / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return root


def _fill(cls: type, **given: Any) -> Any:
    """An instance with ``given`` fields and empty values for the other required ones, so
    the helper keeps working as the manifest gains fields."""
    empty: dict[str, Any] = {"list": [], "dict": {}, "str": "", "int": 0, "float": 0.0}
    for f in dataclasses.fields(cls):
        if f.name in given or f.default is not dataclasses.MISSING:
            continue
        if f.default_factory is not dataclasses.MISSING:
            continue
        kind = str(f.type).split("[")[0].split("|")[0].strip()
        given[f.name] = None if "None" in str(f.type) else copy.copy(empty.get(kind))
    return cls(**given)


def profile_threads(monkeypatch: pytest.MonkeyPatch) -> dict[int, set[str]]:
    """The names of the threads that call a ``Profile``'s methods from now on (every method
    of the class, private ones too, notes its caller before it runs), by ``id`` of the
    profile: what shows whether a live report is ever touched by a second thread."""
    touched: dict[int, set[str]] = {}

    def noting(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def noted(self: Profile, *args: Any, **kwargs: Any) -> Any:
            touched.setdefault(id(self), set()).add(threading.current_thread().name)
            return fn(self, *args, **kwargs)

        return noted

    for name, fn in list(vars(Profile).items()):
        if inspect.isfunction(fn) and name != "__init__":
            monkeypatch.setattr(Profile, name, noting(fn))
    return touched
