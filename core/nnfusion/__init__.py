"""NNFusion's formats: kernel identifiers, the ``Function`` JSON of a KernelCache row, and the
scan of a TVM kernel's CUDA source that block fusion needs."""
