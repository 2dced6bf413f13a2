"""llama_mlc.py's tiny Llama made for an A100 (sm_80), its target bound into the PrimFuncs
as MLC-LLM's pipeline does first (``BindTarget``): the model a build for sm_90 must refuse."""

import runpy
from pathlib import Path

from tvm import target as tvm_target
from tvm.tirx.transform import BindTarget

_defs = runpy.run_path(str(Path(__file__).with_name("llama_mlc.py")), run_name="llama_defs")
_sm80 = tvm_target.Target({"kind": "cuda", "arch": "sm_80"})
mod, named_params = _defs["export"](_defs["TINY"], target=_sm80)
mod = BindTarget(_sm80)(mod)
