"""A plain loop of an LLM's steps, timed, for kernelscope's step timeline to be checked against
(issue 29: decode-step time within 5 %). No step driver, no instrument, no spinning kernel:
the workspace's module loaded as the runner loads it (its own cubin, the weights seeded as the
runner makes them), then the loop an engine runs, each step between two CUDA events on the
default stream and, separately, timed by the wall clock with the device synchronised.

    python3 plain_loop.py WS --steps prefill=512,decode=8 [--batch 1] [--repeat 10]

Prints one JSON object: per step the median GPU µs (events) and wall ms over ``--repeat``
runs, each run with a fresh KV cache, after one warm-up run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from kernelscope.core.profiling.runner.cuda import Cuda
from kernelscope.core.profiling.runner.model import open_vm
from kernelscope.core.profiling.runner.step_run import weight_values
from kernelscope.core.profiling.runner.steps import Functions, _size_key, kv_sizes, parse_steps
from kernelscope.core.profiling.runner.tvm_runtime import import_tvm, select_runtime, use_runtime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--steps", default="prefill=512,decode=8")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--cpu", action="store_true", help="a dry run of a CPU (llvm) build")
    args = parser.parse_args()
    manifest = json.loads((args.workspace / "manifest.json").read_text())
    use_runtime(select_runtime(None, None, manifest.get("versions", {}).get("tvm")))
    tvm, _ = import_tvm(cuda=not args.cpu)
    import numpy as np

    dev = tvm.cpu() if args.cpu else tvm.cuda(0)
    vm, _ = open_vm(tvm, args.workspace, manifest, dev)
    fns = Functions(manifest)
    plan, batch = parse_steps(args.steps), args.batch
    sizes = kv_sizes(manifest, fns, plan, batch)
    weights = {
        k: tvm.runtime.tensor(v, dev) for k, v in weight_values(manifest, args.workspace, 0).items()
    }

    def params(f: dict) -> list:
        def value(p: dict, path: str):  # noqa: ANN202
            if p["kind"] == "tuple":
                return [value(x, f"{path}.{i}") for i, x in enumerate(p["fields"])]
            return weights[p["name"]] if p["name"] in weights else weights[path]

        return [value(p, p["name"]) for p in f["params"][f["num_input"] :]]

    shape = tvm.runtime.ShapeTuple
    create = fns.create
    create_args = [
        shape([sizes[_size_key(p["name"])]]) for p in create["params"][: create["num_input"]]
    ]
    add = tvm.get_global_func("vm.builtin.kv_state_add_sequence")
    begin = tvm.get_global_func("vm.builtin.kv_state_begin_forward")
    end = tvm.get_global_func("vm.builtin.kv_state_end_forward")
    embed, prefill, decode = fns.embed, fns.prefill, fns.decode
    hidden = prefill["params"][0]["shape"][-1]
    rng = np.random.default_rng(0)
    cuda = None if args.cpu else Cuda()
    if cuda is not None:
        cuda.use_primary_context(0)
    events = [cuda.event() if cuda else None for _ in range(2 * (1 + plan["decode"]))]

    def one_run() -> tuple[list[float], list[float]]:
        kv = vm[create["name"]](*create_args)
        seqs = list(range(batch))
        for s in seqs:
            add(kv, s)
        walls = []
        todo = [("prefill", prefill, plan["prefill"])] + [("decode", decode, 1)] * plan["decode"]
        for n, (_, fn, length) in enumerate(todo):
            tokens = batch * length
            ids = tvm.runtime.tensor(rng.integers(0, 100, (1, tokens)).astype("int32"), dev)
            first = [batch, 1, hidden] if fn is decode else [1, tokens, hidden]
            dev.sync()
            start = time.perf_counter()
            if cuda:
                cuda.record(events[2 * n])
            begin(kv, shape(seqs), shape([length] * batch))
            emb = vm[embed["name"]](ids, *params(embed))
            emb = emb if list(emb.shape) == first else emb._create_view(first)
            out = vm[fn["name"]](emb, kv, *params(fn))
            end(kv)
            if cuda:
                cuda.record(events[2 * n + 1])
            dev.sync()
            walls.append(1000 * (time.perf_counter() - start))
            del out
        if cuda is None:
            return [1000 * w for w in walls], walls
        gpu = [1000 * cuda.elapsed_ms(events[2 * i], events[2 * i + 1]) for i in range(len(todo))]
        return gpu, walls

    one_run()  # loads the module, fills the memory pool
    runs = [one_run() for _ in range(args.repeat)]
    names = ["prefill 0"] + [f"decode {i}" for i in range(plan["decode"])]
    steps = [
        {
            "step": name,
            "gpu_us": statistics.median(r[0][i] for r in runs),
            "wall_ms": statistics.median(r[1][i] for r in runs),
        }
        for i, name in enumerate(names)
    ]
    decode_us = [s["gpu_us"] for s in steps[1:]]
    print(
        json.dumps(
            {
                "workspace": str(args.workspace),
                "plan": plan,
                "batch": batch,
                "kv_cache": sizes,
                "repeat": args.repeat,
                "steps": steps,
                "decode_gpu_us_median": statistics.median(decode_us) if decode_us else None,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
