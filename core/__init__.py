"""kernelscope's Qt-free core: building, disassembling, importing profiles, the kernel DB."""
