"""Where the runner's CUDA-event timeline and ncu's gpu__time_duration part (issue 19, item 7).

Run on the GPU host, with kernelscope's model runner (its zipapp) as model_runner.py beside it
and a runtime-only TVM under RUNTIME_ROOT: ``python3 timeline_probe.py WORKSPACE RUNTIME_ROOT
OUT.json``. It times one
forward pass of the workspace's model in several ways, each pass enqueued behind the runner's
spinning kernel, REPEAT times, median per call:

* ``all``: events around every call (what the runner's --timeline does);
* ``even``/``odd``: events around every other call only (are dense records the cost?);
* ``starts``: one event before each call and one after the pass (a call: start to next start);
* ``twice``: the pass enqueued twice behind one spin, events around every call (position);
* ``plain``: events only around the whole pass;
and the stream's own costs: back-to-back records, and event pairs around the spinning
kernel launched for 0, 1000 and 5000 ns (a kernel of known length), so that the probe's ncu
run (``--spin``) gives those kernels' gpu__time_duration to compare with.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).with_name("model_runner.py")))  # the runner's zipapp
from kernelscope_runner import cuda as mr_cuda  # noqa: E402
from kernelscope_runner import model as mr_model  # noqa: E402
from kernelscope_runner import timeline as mr_timeline  # noqa: E402
from kernelscope_runner import tvm_runtime as mr_tvm  # noqa: E402

SPIN_PROBES = (0, 1000, 5000)


class Recorder:
    """Marks chosen calls: before and after (``pairs``) or before only (``starts``)."""

    def __init__(self, kernels_of: dict, pool: mr_timeline.EventPool) -> None:
        self.kernels_of, self.pool = kernels_of, pool
        self.choose = lambda i: True
        self.starts_only = False
        self.index = 0
        self.marks: list[tuple[int, str, object]] = []  # (call, "s"/"e", event)

    def __call__(self, func, symbol, before, ret, *args) -> int:  # noqa: ANN001
        if str(symbol) not in self.kernels_of:
            return 0
        i = self.index
        if before:
            if self.choose(i):
                self.marks.append((i, "s", self.pool.mark()))
        else:
            if self.choose(i) and not self.starts_only:
                self.marks.append((i, "e", self.pool.mark()))
            self.index += 1
        return 0


def main() -> None:
    ws, root, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    manifest = json.loads((ws / "manifest.json").read_text())
    mr_tvm.use_runtime(mr_tvm.select_runtime(None, root, manifest["versions"]["tvm"]))
    model = mr_model.Model(ws, None, 0)
    kernels_of = model.kernels_by_primfunc()
    model.run(5)
    cuda = mr_cuda.Cuda()
    cuda.use_primary_context(0)
    start = time.perf_counter()
    model.func(*model.args)
    enqueue = time.perf_counter() - start
    model.device.sync()
    spin_ns = int(min(max(16 * enqueue, 0.03), 2.0) * 1e9)
    pool = mr_timeline.EventPool(cuda)
    rec = Recorder(kernels_of, pool)
    model.vm.set_instrument(rec)
    n = None
    result: dict = {"spin_ms": spin_ns / 1e6}

    def one(choose, starts_only=False, copies=1) -> list[dict]:  # noqa: ANN001
        rec.choose, rec.starts_only, rec.index, rec.marks = choose, starts_only, 0, []
        cuda.spin(spin_ns)
        spun = cuda.event()
        cuda.record(spun)
        end_mark = None
        for _ in range(copies):
            model.func(*model.args)
        if starts_only:
            end_mark = pool.mark()
        ahead = not cuda.reached(spun)
        cuda.synchronize()
        cuda.destroy(spun)
        marks = rec.marks
        first = marks[0][2]
        out = {}
        starts = {i: e for i, k, e in marks if k == "s"}
        ends = {i: e for i, k, e in marks if k == "e"}
        for i, s in starts.items():
            if starts_only:
                nxt = starts.get(i + 1, end_mark)
                out[i] = (1000 * cuda.elapsed_ms(first, s), 1000 * cuda.elapsed_ms(s, nxt))
            elif i in ends:
                out[i] = (1000 * cuda.elapsed_ms(first, s), 1000 * cuda.elapsed_ms(s, ends[i]))
        pool.reset()
        return [out, ahead]

    def medians(choose, starts_only=False, copies=1) -> dict:  # noqa: ANN001
        runs = [one(choose, starts_only, copies) for _ in range(repeat)]
        calls = sorted(set().union(*(r[0] for r in runs)))
        return {
            "saturated": all(r[1] for r in runs),
            "start_us": [statistics.median(r[0][i][0] for r in runs) for i in calls],
            "duration_us": [statistics.median(r[0][i][1] for r in runs) for i in calls],
            "calls": calls,
        }

    result["all"] = medians(lambda i: True)
    n = len(result["all"]["calls"])
    result["even"] = medians(lambda i: i % 2 == 0)
    result["odd"] = medians(lambda i: i % 2 == 1)
    result["starts"] = medians(lambda i: True, starts_only=True)
    result["twice"] = medians(lambda i: True, copies=2)
    # the whole pass: marks around it only
    plain = []
    rec.choose = lambda i: False
    for _ in range(repeat):
        rec.index, rec.marks = 0, []
        cuda.spin(spin_ns)
        a = pool.mark()
        model.func(*model.args)
        b = pool.mark()
        cuda.synchronize()
        plain.append(1000 * cuda.elapsed_ms(a, b))
        pool.reset()
    result["plain_us"] = statistics.median(plain)
    result["record_cost_us"] = statistics.median(mr_timeline.record_cost_us(cuda, spin_ns))
    # event pairs around the spinning kernel of known length, back to back behind a spin
    pairs = {}
    for ns in SPIN_PROBES:
        got = []
        for _ in range(5):
            cuda.spin(spin_ns)
            marks = []
            for _ in range(32):
                marks.append(pool.mark())
                cuda.spin(ns)
                marks.append(pool.mark())
            cuda.synchronize()
            got += [1000 * cuda.elapsed_ms(marks[2 * k], marks[2 * k + 1]) for k in range(32)]
            starts = [1000 * cuda.elapsed_ms(marks[2 * k], marks[2 * k + 2]) for k in range(31)]
            pool.reset()
        pairs[str(ns)] = {
            "pair_us": statistics.median(got),
            "start_to_start_us": statistics.median(starts),
        }
    result["spin_pairs"] = pairs
    pool.close()
    result["kernels"] = [
        kernels_of[name] for name in [c for c in manifest["calls"] if c in kernels_of]
    ]
    result["n"] = n
    out.write_text(json.dumps(result, indent=1))
    total = sum(result["all"]["duration_us"])
    print(
        f"probe: {n} calls, plain {result['plain_us']:.1f} us, all {total:.1f} us, "
        f"record {result['record_cost_us']:.2f} us, pairs {pairs}"
    )


def spin() -> None:
    """For ncu: the spinning kernel for each probe length, 3 launches each."""
    cuda = mr_cuda.Cuda()
    cuda.use_primary_context(0)
    for ns in SPIN_PROBES:
        for _ in range(3):
            cuda.spin(ns)
            cuda.synchronize()


if __name__ == "__main__":
    if sys.argv[1] == "--spin":
        spin()
    else:
        main()
