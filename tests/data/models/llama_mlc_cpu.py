"""llama_mlc.py's tiny Llama with its KV cache made for the CPU (``target="llvm"``): the
model a user exported for another target than the GPU build asks for."""

import runpy
from pathlib import Path

_defs = runpy.run_path(str(Path(__file__).with_name("llama_mlc.py")), run_name="llama_defs")
mod, named_params = _defs["export"](_defs["TINY"], target="llvm")
