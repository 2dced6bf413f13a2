"""A command imports only what it needs: the table of which module registers which command is
true, and listing a report's kernels loads neither NVIDIA's reader nor numpy, sqlite-utils,
onnx, TVM or the model loader."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from paths_support import data_path

from kernelscope.core.cli import main as cli

REPORT = data_path("ncu/mlp/mlp.ncu-rep")


def test_every_command_is_where_the_table_says() -> None:
    registered = {}
    for name in cli.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"kernelscope.core.cli.{name}").register(sub)
        registered.update(dict.fromkeys(sub.choices, name))
    assert registered == cli.COMMANDS


CHILD = """
import json, sys
from kernelscope.core.cli.main import main
code = main(["kernels", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_listing_kernels_imports_only_what_it_needs(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(REPORT)],
        env={**os.environ, "KERNELSCOPE_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    assert result["code"] == 0
    loaded = set(result["modules"])
    heavy = {"ncu_report", "numpy", "sqlite_utils", "onnx", "tvm", "PySide6"}
    assert not heavy & {m.split(".")[0] for m in loaded}
    assert "kernelscope.core.build.model_loader" not in loaded
    assert "kernelscope.core.kernel_db" not in loaded
