"""The GPU checks (tests/gpu) staged here, run on the GPU machine, their results brought back
(``bash scripts/gpu-check.sh stage|run|import``; README.md, "GPU checks", says how).

The GPU machine has Python 3.12 with numpy, PyTorch, Triton, pytest and Nsight Compute, but no
TVM compiler (its library is too big to carry), no network and no OpenSSH. So the split is
fixed: ``stage`` builds here, into one ignored folder (``.gpu-stage/``), everything the checks
need: the workspaces built for sm_90, a tuning round exported for measurement, the runtime-only
TVM, the wheels the host lacks, an OpenSSH for the ``--host`` check, and kernelscope's code.
``run`` (there) installs all of it offline into a temporary folder and runs
``pytest tests/gpu -m gpu``, which writes one table (check, result, figure, device, date,
commit) to the results folder. ``import`` (here) commits the tuning round measured there to the
staged database and keeps the table under benchmarks/results/gpu/.

Only the standard library at the top: ``run`` starts on the GPU machine's bare Python.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from gpu_support import (  # noqa: E402
    DEFAULT_STAGE,
    MANIFEST,
    RESULTS_ENV,
    ROUND_RESULTS,
    ROWS,
    STAGE_ENV,
    TABLE,
    TORCH_RUN,
    TUNED_WORKSPACE,
    stage_manifest,
)

ARCH = "sm_90"  # the H100 and H200
MiB = 1 << 20
CARRY_LIMIT = 64 * MiB  # what one run of the GPU machine takes along (tree + stage)
SPARE = 20_000_000  # left for the run itself
PYTHON = (3, 12)  # the GPU machine's
MODELS = {  # workspace name -> model, what the checks profile
    "small_cnn": "tests/data/models/small_cnn.onnx",  # the build tests/data/h200's report is of
    "transformer_block": "tests/data/models/transformer_block.py",  # long fused kernel names
}
LLM_MODEL = "tests/data/models/llama_mlc.py"  # the MLC-style Llama of the step checks
# One tuning round of small_cnn's conv kernel: what measure-batch measures there.
ROUND_ARGS = ["--kernel", "fused_conv2d_add_relu", "--trials", "4", "--round", "4"]
WHEELS = ["platformdirs", "psygnal"]  # what kernelscope's core imports and the host lacks
# OpenSSH for the --host check (the GPU image has none): the programs, and the libraries they
# need that a minimal Ubuntu image lacks.
SSH_TOOLS = ["sshd", "ssh", "ssh-keygen"]
SSH_LIBS = [
    "libwrap.so.0", "libnsl.so.2", "libtirpc.so.3", "libgssapi_krb5.so.2", "libk5crypto.so.3",
    "libkrb5.so.3", "libkrb5support.so.0", "libcom_err.so.2", "libkeyutils.so.1",
    "libaudit.so.1", "libcap-ng.so.0", "libpam.so.0", "libcrypt.so.1",
]  # fmt: skip
RESULTS_KEPT = ROOT / "benchmarks" / "results" / "gpu"


class CheckError(Exception):
    """A step that cannot go on; its message says what to do."""


def _say(text: str) -> None:
    print(f"gpu-check: {text}", flush=True)


def _run(cmd: list[str], what: str, **kw: object) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    if proc.returncode != 0:
        raise CheckError(f"{what} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc


def _kernelscope(*args: str) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", "kernelscope.core.cli", *args], f"kernelscope {args[0]}")


# ---- sizes ------------------------------------------------------------------------------------
def tree_bytes() -> int:
    """What travels of the checkout: tracked files and untracked ones git does not ignore."""
    out = _run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        "git ls-files",
    ).stdout
    return sum(
        (ROOT / name).stat().st_size for name in out.split("\0") if name and (ROOT / name).is_file()
    )


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def check_room(tree: int, stage: int) -> str:
    """The sizes as a line; CheckError when tree and stage leave less than SPARE of a run."""
    left = CARRY_LIMIT - tree - stage
    line = (
        f"tree {tree / 1e6:.1f} MB + stage {stage / 1e6:.1f} MB = {(tree + stage) / 1e6:.1f} MB "
        f"of {CARRY_LIMIT / 1e6:.1f} MB a run carries; {left / 1e6:.1f} MB spare"
    )
    if left < SPARE:
        raise CheckError(f"{line}: less than the {SPARE / 1e6:.0f} MB a run needs spare")
    return line


# ---- stage (here) -------------------------------------------------------------------------------
def _commit() -> str:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD"]).returncode != 0
    return (head or "unknown") + ("+changes" if dirty else "")


def _pack(out: Path, folder: Path, names: list[str]) -> None:
    with tarfile.open(out, "w:xz", preset=6, dereference=True) as tar:
        for name in names:
            tar.add(folder / name, arcname=name)


def stage_workspaces(stage: Path, build: Path) -> list[str]:
    models = {**MODELS, "llama_mlc": LLM_MODEL}
    for name, model in models.items():
        _say(f"building {model} for {ARCH}")
        _kernelscope(
            "build", str(ROOT / model), "-o", str(build / f"{name}.kscope"), "--arch", ARCH
        )
    names = [f"{n}.kscope" for n in models]
    _pack(stage / "workspaces.tar.xz", build, names)
    return list(models)


def stage_round(stage: Path, build: Path) -> None:
    """One tuning round of small_cnn exported (built here); its database beside it."""
    _say("exporting one tuning round (" + " ".join(ROUND_ARGS) + ")")
    ws = build / "small_cnn.kscope"
    round_dir, db = stage / "round", stage / "tuning-db"
    for old in (round_dir, db):
        shutil.rmtree(old, ignore_errors=True)
    _kernelscope("tune", str(ws), *ROUND_ARGS, "--db", str(db), "--export-batch", str(round_dir))


def stage_runtime(stage: Path) -> str:
    """The runtime-only TVM for the host's Python (remote-install's bundle); its folder name."""
    from kernelscope.core.profiling import make_bundle
    from kernelscope.core.profiling.runtime_install import bundle_name

    bundle = make_bundle(PYTHON)
    shutil.copyfile(bundle, stage / "tvm-runtime.tar.gz")
    return bundle_name(PYTHON)


def stage_wheels(stage: Path) -> None:
    folder = stage / "whl"
    shutil.rmtree(folder, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
    cmd += ["--python-version", f"{PYTHON[0]}.{PYTHON[1]}", "--implementation", "cp"]
    for tag in ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"):
        cmd += ["--platform", tag]
    _run([*cmd, "-d", str(folder), *WHEELS], "pip download " + " ".join(WHEELS))


def stage_ssh(stage: Path, build: Path, notes: list[str]) -> bool:
    """OpenSSH from here (sshd as the SSH tests find it), with the libraries a bare image
    lacks; False (and a note) when this machine has none."""
    sshd = os.environ.get("KERNELSCOPE_TEST_SSHD") or shutil.which("sshd")
    libs_here = os.environ.get("KERNELSCOPE_TEST_SSHD_LIBS", "")
    tools = {"sshd": sshd, "ssh": shutil.which("ssh"), "ssh-keygen": shutil.which("ssh-keygen")}
    if not all(tools.values()):
        notes.append(
            "no OpenSSH staged: this machine lacks "
            + ", ".join(k for k, v in tools.items() if not v)
        )
        return False
    folder = build / "openssh"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "bin").mkdir(parents=True)
    (folder / "lib").mkdir()
    for name, path in tools.items():
        shutil.copy(str(path), folder / "bin" / name)
    ldd = subprocess.run(
        ["ldd", *(str(folder / "bin" / t) for t in SSH_TOOLS)],
        capture_output=True,
        text=True,
        env={**os.environ, "LD_LIBRARY_PATH": libs_here},
    ).stdout
    for line in ldd.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] in SSH_LIBS and parts[2].startswith("/"):
            shutil.copy(parts[2], folder / "lib" / parts[0])
    _pack(stage / "openssh.tar.xz", build, ["openssh"])
    return True


def stage_nnfusion(stage: Path, build: Path, notes: list[str]) -> dict | None:
    """NNFusion's CUDA project of a small residual CNN (NNFusion runs here; only its output
    travels), instrumented by scripts/nnfusion_optimes.py, with a seeded input."""
    binary = os.environ.get("KERNELSCOPE_NNFUSION")
    if not binary or not Path(binary).is_file():
        notes.append("no NNFusion project: set KERNELSCOPE_NNFUSION to the nnfusion binary")
        return None
    import numpy as np
    from nnfusion_models import residual_cnn

    from kernelscope.core.kernel_db import KernelDB

    _say("generating NNFusion's project of a residual CNN")
    work = build / "nnfusion-work"
    work.mkdir()
    model = residual_cnn(work / "residual_cnn.onnx")
    KernelDB.open(work / "empty.db", write=True).close()
    _kernelscope(
        "nnfusion-compile", str(model), "--db", str(work / "empty.db"), "-o", str(work / "out")
    )
    codegen = work / "out" / "nnfusion_rt" / "cuda_codegen"
    _run(
        [sys.executable, str(ROOT / "scripts" / "nnfusion_optimes.py"), "instrument", str(codegen)],
        "instrumenting it",
    )
    (x,) = json.loads((codegen / "para_info.json").read_text())["input"].values()
    rng = np.random.default_rng(0)
    folder = build / "nnfusion"
    shutil.copytree(codegen, folder / "cuda_codegen")
    np.save(folder / "x.npy", rng.standard_normal(x["shape"]).astype(np.float32))
    _pack(stage / "nnfusion.tar.xz", build, ["nnfusion"])
    ops = json.loads((codegen / "optimes_ops.json").read_text())
    return {"model": "tests/nnfusion_models.residual_cnn", "operators": len(ops)}


def stage_code(stage: Path) -> None:
    """kernelscope's core as the package ``kernelscope.core`` (the tree beside it holds the
    tests; the code is staged with the workspaces it built, so both are of one commit)."""
    with tarfile.open(stage / "kernelscope.tar.xz", "w:xz", preset=6) as tar:
        tar.add(
            ROOT / "core",
            arcname="kernelscope/core",
            filter=lambda info: None if "__pycache__" in info.name else info,
        )


def stage(out: Path, *, parts: list[str] | None = None) -> dict:
    """Make the stage in ``out`` (everything, or only ``parts``); returns its manifest."""
    parts = parts or ["workspaces", "round", "runtime", "wheels", "ssh", "code", "nnfusion"]
    if (out / MANIFEST).is_file():  # an earlier stage: nothing of it is left to mislead
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict = {
        "commit": _commit(),
        "made": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
    }
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="gpu-stage-") as scratch:
        build = Path(scratch)
        if "workspaces" in parts:
            manifest["workspaces"] = stage_workspaces(out, build)
        if "round" in parts:
            if "workspaces" not in parts:
                raise CheckError(
                    "the tuning round is exported from the staged small_cnn build: "
                    "stage workspaces too"
                )
            stage_round(out, build)
            manifest["round"] = {"args": ROUND_ARGS, "workspace": "small_cnn"}
        if "runtime" in parts:
            manifest["runtime"] = stage_runtime(out)
        if "wheels" in parts:
            stage_wheels(out)
            manifest["wheels"] = sorted(p.name for p in (out / "whl").glob("*.whl"))
        if "ssh" in parts:
            manifest["ssh"] = stage_ssh(out, build, notes)
        if "code" in parts:
            stage_code(out)
            manifest["code"] = True
        if "nnfusion" in parts:
            manifest["nnfusion"] = stage_nnfusion(out, build, notes)
    manifest["notes"] = notes
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


# ---- run (there) --------------------------------------------------------------------------------
def _unpack(archive: Path, into: Path) -> None:
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")


def install(stage_dir: Path, work: Path) -> dict[str, str]:
    """Everything the stage carries, installed under ``work`` without a network; returns the
    environment the checks run in."""
    manifest = json.loads((stage_dir / MANIFEST).read_text())
    env = dict(os.environ)
    site, pkg = work / "site", work / "pkg"
    paths = [str(site), str(pkg)]
    site.mkdir(parents=True, exist_ok=True)
    pkg.mkdir(exist_ok=True)
    wheels = sorted(str(p) for p in (stage_dir / "whl").glob("*.whl"))
    if (wheels or manifest.get("runtime")) and sys.version_info[:2] != PYTHON:
        raise CheckError(
            f"the stage is for Python {PYTHON[0]}.{PYTHON[1]} (the GPU machine's python3); "
            f"this is {sys.version.split()[0]}: set KERNELSCOPE_GPU_PYTHON to a {PYTHON[0]}."
            f"{PYTHON[1]}"
        )
    if wheels:
        _run(
            [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
             "--no-compile", "--target", str(site), *wheels],
            "installing the staged wheels",
        )  # fmt: skip
    if (stage_dir / "kernelscope.tar.xz").is_file():
        _unpack(stage_dir / "kernelscope.tar.xz", pkg)
    else:  # no staged code: the checkout's own (the tree travels)
        (pkg / "kernelscope").mkdir(exist_ok=True)
        link = pkg / "kernelscope" / "core"
        if not link.exists():
            link.symlink_to(ROOT / "core", target_is_directory=True)
    if manifest.get("runtime"):
        root = work / "runtime"
        target = root / manifest["runtime"]
        if not target.is_dir():
            target.mkdir(parents=True)
            _unpack(stage_dir / "tvm-runtime.tar.gz", target)
        env["KERNELSCOPE_RUNTIME_ROOT"] = str(root)
        # measure-batch imports TVM's runtime itself (batch_measure.py, as a batch job does)
        paths.append(str(target))
    if (stage_dir / "workspaces.tar.xz").is_file():
        _unpack(stage_dir / "workspaces.tar.xz", work / "workspaces")
        env["KERNELSCOPE_GPU_WORKSPACES"] = str(work / "workspaces")
        if (stage_dir / "tuned.tar.xz").is_file():  # built here from the round (import)
            _unpack(stage_dir / "tuned.tar.xz", work / "workspaces")
    if manifest.get("ssh") and not (shutil.which("sshd") or Path("/usr/sbin/sshd").exists()):
        _unpack(stage_dir / "openssh.tar.xz", work)
        ssh = work / "openssh"
        env["KERNELSCOPE_TEST_SSHD"] = str(ssh / "bin" / "sshd")
        env["KERNELSCOPE_TEST_SSHD_LIBS"] = str(ssh / "lib")
        wrap = work / "ssh-bin"  # ssh and ssh-keygen with their libraries, first on PATH
        wrap.mkdir(exist_ok=True)
        for tool in ("ssh", "ssh-keygen"):
            if shutil.which(tool) is None:
                script = wrap / tool
                script.write_text(
                    f'#!/bin/sh\nLD_LIBRARY_PATH={ssh / "lib"} exec {ssh / "bin" / tool} "$@"\n'
                )
                script.chmod(0o755)
        env["PATH"] = f"{wrap}:{env.get('PATH', '')}"
        _sshd_user()
    env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
    env.update(TVM_USE_RUNTIME_LIB="1", PYTHONUNBUFFERED="1", QT_QPA_PLATFORM="offscreen")
    env[STAGE_ENV] = str(stage_dir)
    return env


def _sshd_user() -> None:
    """sshd started as root drops privileges to the user ``sshd``, which a bare image lacks."""
    if os.geteuid() != 0:
        return
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    if subprocess.run(["id", "sshd"], capture_output=True).returncode == 0:
        return
    made = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--home-dir", "/run/sshd",
         "--shell", "/usr/sbin/nologin", "sshd"], capture_output=True,
    )  # fmt: skip
    if made.returncode != 0:
        with open("/etc/passwd", "a") as passwd:
            passwd.write("sshd:x:74:74::/run/sshd:/usr/sbin/nologin\n")


def run(stage_dir: Path, out: Path, *, keep: bool = False, pytest_args: list[str] = ()) -> int:
    """Install the stage, run the GPU checks, write the table to ``out``; pytest's status."""
    if not (stage_dir / MANIFEST).is_file():
        raise CheckError(
            f"no stage at {stage_dir}: run `bash scripts/gpu-check.sh stage` on the build machine "
            "and carry the folder (device run: carry .gpu-stage)"
        )
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kernelscope-gpu-"))
    env = install(stage_dir, work)
    env[RESULTS_ENV] = str(out)
    env["TMPDIR"] = str(work)  # pytest's and the checks' temporary folders
    # what the checks ran on, for whoever reads a failed row: the GPU, Python, kernelscope's view
    facts = [f"python {sys.version.split()[0]} ({sys.executable})", f"stage {stage_dir}"]
    for cmd in (["nvidia-smi", "-L"], [sys.executable, "-m", "kernelscope.core.cli", "doctor"]):
        try:
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
            facts.append(f"$ {' '.join(cmd[-2:])}\n{done.stdout}{done.stderr}")
        except (OSError, subprocess.TimeoutExpired) as exc:
            facts.append(f"$ {' '.join(cmd[-2:])}: {exc}")
    (out / "env.txt").write_text("\n".join(facts) + "\n")
    _say(f"running the GPU checks (results to {out})")
    cmd = [sys.executable, "-m", "pytest", str(ROOT / "tests" / "gpu"), "-m", "gpu"]
    cmd += ["-p", "no:cacheprovider", "-o", "addopts=-ra", "-v", *pytest_args]
    with open(out / "pytest-log.txt", "w") as log:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            log.write(line)
        status = proc.wait()
    table = out / TABLE
    if table.is_file():
        print(table.read_text())
        if keep:
            keep_table(out)
    shutil.rmtree(work, ignore_errors=True)
    return status


def keep_table(results: Path, notes: Sequence[str] = ()) -> Path:
    """The run's table, kept as benchmarks/results/gpu/<date>-<device>.md (and its rows), with
    what the import found here (``notes``) below it. A later run of the same day and GPU is
    kept beside it, named by its time too: no kept table is written over."""
    rows = json.loads((results / ROWS).read_text())
    device = rows["device"].split(" (")[0].replace("NVIDIA ", "").replace(" ", "_") or "unknown"
    date, _, time = rows["date"].partition(" ")
    name = f"{date}-{device}"
    RESULTS_KEPT.mkdir(parents=True, exist_ok=True)
    if (RESULTS_KEPT / f"{name}.md").exists():
        name = f"{date}-{time[:5].replace(':', '')}-{device}"
    kept = RESULTS_KEPT / f"{name}.md"
    said = "".join(f"\nHere, on import: {note}.\n" for note in notes)
    kept.write_text((results / TABLE).read_text() + said)
    shutil.copyfile(results / ROWS, RESULTS_KEPT / f"{name}.json")
    _say(f"kept {kept.relative_to(ROOT)}")
    return kept


# ---- import (here) ------------------------------------------------------------------------------
def import_results(results: Path, stage_dir: Path) -> int:
    """What a run brought back: the tuning round measured there (when its check ran), the
    profile-torch run folder opened here (likewise), the table kept."""
    torch_run = (results / TORCH_RUN).is_file()
    if not (results / ROUND_RESULTS).is_file() and not torch_run:
        raise CheckError(
            f"{results} holds no {ROUND_RESULTS} and no {TORCH_RUN}: neither the tuning check "
            "nor the profile-torch check brought anything back (see their rows in gpu-checks.md)"
        )
    if (results / ROUND_RESULTS).is_file():
        print(import_round(results, stage_dir))
    notes = [open_torch_run(results)] if torch_run else []
    for note in notes:
        _say(note)
    if (results / ROWS).is_file():
        keep_table(results, notes)
    return 0


def import_round(results: Path, stage_dir: Path) -> str:
    """The round measured there, committed to the staged database, and the model built again
    from that database into the stage (``tuned.tar.xz``: what the next run's tuned-build check
    profiles against the default build); kernelscope's summaries."""
    measured = results / ROUND_RESULTS
    manifest = stage_manifest(stage_dir)
    if not manifest.get("round"):
        raise CheckError(f"the stage at {stage_dir} holds no tuning round (stage it first)")
    if not measured.is_file():
        raise CheckError(
            f"{results} holds no {ROUND_RESULTS}: the tuning check did not measure the round "
            "(see its row in gpu-checks.md)"
        )
    from kernelscope.core.tuning.batch import IMPORTED

    name = manifest["round"]["workspace"]
    said = "the round was imported into the staged database already (an earlier import)\n"
    with tempfile.TemporaryDirectory(prefix="gpu-import-") as scratch:
        _unpack(stage_dir / "workspaces.tar.xz", Path(scratch))
        ws = Path(scratch) / f"{name}.kscope"
        if not (stage_dir / "round" / IMPORTED).is_file():
            shutil.copyfile(measured, stage_dir / "round" / "results.json")
            said = _kernelscope(
                "tune", str(ws), *manifest["round"]["args"], "--db",
                str(stage_dir / "tuning-db"), "--import-batch", str(stage_dir / "round"),
            ).stdout  # fmt: skip
        tuned = Path(scratch) / f"{TUNED_WORKSPACE}.kscope"
        _say(f"building {MODELS[name]} from the imported records for {ARCH}")
        built = _kernelscope(
            "build", str(ROOT / MODELS[name]), "-o", str(tuned), "--arch", ARCH,
            "--tuning-db", str(stage_dir / "tuning-db"),
        )  # fmt: skip
        kernels = tuned_kernels(tuned)
        if not kernels:
            raise CheckError(
                f"the build from {stage_dir / 'tuning-db'} took no kernel from a record: "
                "the round's import did not commit a record (see the summary above)"
            )
        _pack(stage_dir / "tuned.tar.xz", Path(scratch), [tuned.name])
    # the code that runs there must read what this code built: staged again, of this commit
    stage_code(stage_dir)
    manifest["commit"] = _commit()
    manifest["tuned"] = {"workspace": TUNED_WORKSPACE, "default": name, "kernels": kernels}
    (stage_dir / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return said + built.stdout + f"tuned build staged: {', '.join(kernels)}\n"


def tuned_kernels(workspace: Path) -> list[str]:
    """The kernels of a workspace whose schedule came from a tuning record (not a kept
    default)."""
    raw = json.loads((workspace / "manifest.json").read_text())
    return [
        k["name"] for k in raw["kernels"] if k.get("tuned") and not k["tuned"].get("default_kept")
    ]


def open_torch_run(results: Path) -> str:
    """The ``profile-torch`` run folder made there, opened here as the window opens it; what
    it holds, in words."""
    packed = results / TORCH_RUN
    from kernelscope.core.inductor import open_run
    from kernelscope.core.view import open_document

    with tempfile.TemporaryDirectory(prefix="gpu-torch-") as scratch:
        _unpack(packed, Path(scratch))
        run_dir = next((p for p in Path(scratch).iterdir() if p.is_dir()), None)
        if run_dir is None:
            raise CheckError(f"{packed} holds no run folder")
        run = open_run(run_dir)  # the Triton kernels with their sources
        document = open_document(run_dir).document  # what the window shows
        launched = [k for k in document.summaries if k.launches]
        sourced = [k for k in run.kernels if k.source_text]
        total_us = sum(k.duration_ns or 0 for k in launched) / 1000
        return (
            f"the profile-torch run folder made there opened here: {len(document.summaries)} "
            f"kernels, {len(launched)} launched ({total_us:.1f} µs), {len(sourced)} of "
            f"{len(run.kernels)} Triton kernels with their source"
        )


# ---- command line -------------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gpu-check.sh", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    p = sub.add_parser("stage", help="here: build and pack what the checks need")
    p.add_argument("folder", nargs="?", type=Path, default=DEFAULT_STAGE)
    p.add_argument("--only", action="append", help="stage only these parts (repeatable)")
    p = sub.add_parser("run", help="on the GPU machine: install the stage, run tests/gpu")
    p.add_argument("--stage", type=Path, default=DEFAULT_STAGE)
    p.add_argument("--out", type=Path, default=None, help="results folder (default: $OUT)")
    p.add_argument(
        "--keep", action="store_true", help="also copy the table to benchmarks/results/gpu/"
    )
    p.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    p = sub.add_parser(
        "import", help="here: import the tuning round measured there, keep the table"
    )
    p.add_argument("results", type=Path, help="the results folder brought back")
    p.add_argument("--stage", type=Path, default=DEFAULT_STAGE)
    args = parser.parse_args(argv)
    try:
        if args.verb == "stage":
            manifest = stage(args.folder, parts=args.only)
            for note in manifest["notes"]:
                _say(f"note: {note}")
            _say(f"staged {args.folder}: " + check_room(tree_bytes(), folder_bytes(args.folder)))
            return 0
        if args.verb == "run":
            out = args.out or (
                Path(os.environ["OUT"]) if os.environ.get("OUT") else args.stage / "results"
            )
            return run(args.stage, out, keep=args.keep, pytest_args=args.pytest_args)
        return import_results(args.results, args.stage)
    except CheckError as exc:
        print(f"gpu-check: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
