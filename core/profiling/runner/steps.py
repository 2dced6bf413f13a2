"""An LLM's steps: the KV cache made by the module's own creation function, sequences added,
prefill and decode steps run with the runtime's begin/end-forward protocol, and chosen steps
marked for the profiler (``--steps prefill=128,decode=32 [--batch B] --profile-steps
decode:0-3``).

The functions come from the manifest's ``functions``: the one that ``creates_kv_cache``,
``prefill`` and ``decode`` by name, else by the shape of their first input (a symbolic
sequence dimension against a static 1), and ``embed`` when the step functions take
embeddings rather than token ids. Token ids are seeded random.

A profiled step runs between ``cuProfilerStart`` and ``cuProfilerStop`` (``ncu
--profile-from-start off`` profiles only those), and its first launch is the marker kernel
(``cuda.STEP_MARKER``), so that a report's launch sequence splits into its steps.

A hook (``--hook FILE.py`` instead of ``--steps``) is a Python file defining ``run(session)``;
``session`` (``Session`` below) offers::

    session.function(name)          # the VM function
    session.call(name, *inputs)     # the function with its weight parameters after the inputs
    session.weights(name)           # those weight parameters alone
    session.tensor(array)           # a numpy array on the model's device
    session.token_ids(shape)        # seeded random token ids (int32) on the device
    session.create_kv_cache(max_batch, max_total_seq_len, prefill_chunk, page_size=16)
    session.add_sequence(kv, seq_id)
    session.begin_forward(kv, seq_ids, lengths)
    session.end_forward(kv)
    session.total_length(kv)        # tokens the cache holds, all sequences
    with session.step("decode"):    # one step: timed, profiled when --profile-steps says so
        ...
    session.step("decode", fn)      # the same, calling fn()

plus ``session.tvm``, ``session.vm``, ``session.device`` and ``session.manifest``. Steps are
counted per name (``decode`` 0, 1, ...), which ``--profile-steps`` chooses from.
"""

from __future__ import annotations

import re
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .protocol import EXIT_BAD_INPUT, RunnerError

PAGE_SIZE = 16
STEP_NAMES = ("prefill", "decode")
_SELECT_RE = re.compile(r"(?P<name>[A-Za-z_][\w.-]*)(?::(?P<lo>\d+)(?:-(?P<hi>\d+))?)?")


def parse_steps(text: str) -> dict[str, int]:
    """``prefill=128,decode=32``: prefill tokens per sequence and decode steps (either may be
    left out; 0 is none)."""
    plan: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        name = name.strip()
        if name not in STEP_NAMES or not eq or not value.strip().isdigit():
            raise RunnerError(
                f"--steps {text}: {part!r} is not prefill=N or decode=N "
                "(e.g. --steps prefill=128,decode=32)",
                EXIT_BAD_INPUT,
            )
        if name in plan:
            raise RunnerError(f"--steps {text}: {name} is given twice", EXIT_BAD_INPUT)
        plan[name] = int(value)
    if not any(plan.values()):
        raise RunnerError(f"--steps {text!r}: no step to run", EXIT_BAD_INPUT)
    if plan.get("decode") and not plan.get("prefill"):
        raise RunnerError(
            f"--steps {text}: decode steps need a prefill first (prefill=N)", EXIT_BAD_INPUT
        )
    return {"prefill": plan.get("prefill", 0), "decode": plan.get("decode", 0)}


class Selection:
    """The steps ``--profile-steps`` chooses: ``all``, ``prefill``, ``decode:16``,
    ``decode:0-3``, or several of them separated by commas."""

    def __init__(self, text: str | None) -> None:
        self.text = text or ""
        self.all = self.text.strip() == "all"
        self.ranges: list[tuple[str, int, int | None]] = []  # name, first, last (None: all)
        if self.all or not self.text.strip():
            return
        for part in (p.strip() for p in self.text.split(",")):
            m = _SELECT_RE.fullmatch(part)
            if m is None or (m["hi"] is not None and int(m["hi"]) < int(m["lo"])):
                raise RunnerError(
                    f"--profile-steps {self.text}: {part!r} is not a step "
                    "(all, prefill, decode:16, decode:0-3)",
                    EXIT_BAD_INPUT,
                )
            lo = int(m["lo"]) if m["lo"] is not None else 0
            hi = int(m["hi"]) if m["hi"] is not None else (lo if m["lo"] is not None else None)
            self.ranges.append((m["name"], lo, hi))

    def __bool__(self) -> bool:
        return self.all or bool(self.ranges)

    def chosen(self, name: str, index: int) -> bool:
        if self.all:
            return True
        return any(
            n == name and lo <= index and (hi is None or index <= hi) for n, lo, hi in self.ranges
        )

    def check_plan(self, counts: dict[str, int]) -> None:
        """Refuse a choice of steps the plan does not run (``counts``: steps per name)."""
        for name, lo, hi in self.ranges:
            if not counts.get(name):
                ran = ", ".join(f"{n} 0-{c - 1}" for n, c in counts.items() if c) or "none"
                raise RunnerError(
                    f"--profile-steps {self.text}: no {name} step runs (steps: {ran})",
                    EXIT_BAD_INPUT,
                )
            last = hi if hi is not None else lo
            if last >= counts[name]:
                raise RunnerError(
                    f"--profile-steps {self.text}: {name} runs {counts[name]} step(s), "
                    f"0-{counts[name] - 1}",
                    EXIT_BAD_INPUT,
                )


# ---- the model's functions -----------------------------------------------------------------
def _tensors(function: dict) -> list[dict]:
    return [p for p in function["params"][: function["num_input"]] if p["kind"] == "tensor"]


def _takes_cache(function: dict) -> bool:
    return any(p["kind"] == "object" for p in function["params"][: function["num_input"]])


def _is_symbolic(dim: Any) -> bool:
    return not isinstance(dim, int)


class Functions:
    """The LLM functions of a manifest: KV cache creation, prefill, decode, embed."""

    def __init__(self, manifest: dict) -> None:
        functions = manifest.get("functions") or []
        self.by_name = {f["name"]: f for f in functions}
        names = ", ".join(self.by_name) or "none recorded"
        creators = [f for f in functions if f.get("creates_kv_cache")]
        if not creators:
            raise RunnerError(
                f"the model has no function that creates a KV cache (its functions: {names}): "
                "--steps runs models that make their own, as MLC-LLM's do "
                "(create_tir_paged_kv_cache); run other models without --steps",
                EXIT_BAD_INPUT,
            )
        self.create = creators[0]
        steps = [f for f in functions if _takes_cache(f) and _tensors(f)]
        prefill = self._find(steps, "prefill", lambda d: _is_symbolic(d))
        decode = self._find(steps, "decode", lambda d: d == 1)
        if prefill is None or decode is None:
            missing = " and ".join(
                n for n, f in (("prefill", prefill), ("decode", decode)) if f is None
            )
            raise RunnerError(
                f"the model has no {missing} function: none is named so, and none that takes "
                "the KV cache has a first input of the shape one has ([batch, seq_len, ...] "
                f"for prefill, [batch, 1, ...] for decode); its functions: {names}",
                EXIT_BAD_INPUT,
            )
        self.prefill: dict = prefill
        self.decode: dict = decode
        embed = self.by_name.get("embed")
        if embed is None:
            embed = next(
                (
                    f
                    for f in functions
                    if not _takes_cache(f)
                    and len(_tensors(f)) == 1
                    and _tensors(f)[0]["dtype"].startswith("int")
                    and not f.get("creates_kv_cache")
                ),
                None,
            )
        self.embed = embed
        for f in (self.prefill, self.decode):
            if not _tensors(f)[0]["dtype"].startswith("int") and self.embed is None:
                raise RunnerError(
                    f"{f['name']} takes embeddings and the model has no embed function "
                    "to make them from token ids",
                    EXIT_BAD_INPUT,
                )

    @staticmethod
    def _find(candidates: list[dict], name: str, second_dim: Callable[[Any], bool]) -> dict | None:
        for f in candidates:
            if f["name"] == name:
                return f
        for f in candidates:
            shape = _tensors(f)[0]["shape"]
            if len(shape) >= 2 and second_dim(shape[1]) and f["name"] not in STEP_NAMES:
                return f
        return None

    def summary(self) -> dict[str, str | None]:
        return {
            "create_kv_cache": self.create["name"],
            "prefill": self.prefill["name"],
            "decode": self.decode["name"],
            "embed": self.embed["name"] if self.embed else None,
        }


def kv_sizes(manifest: dict, functions: Functions, plan: dict[str, int], batch: int) -> dict:
    """The sizes the KV cache is made with, for ``batch`` sequences of ``plan``'s length;
    a size the build fixed (``manifest["symbols"]``, or a static creation parameter) is
    kept, and refused when it is too small."""
    per_sequence = plan["prefill"] + plan["decode"]
    wanted = {
        "max_batch_size": batch,
        "max_total_seq_len": _round_up(batch * per_sequence, PAGE_SIZE),
        "prefill_chunk_size": max(batch * plan["prefill"], 1),
        "page_size": PAGE_SIZE,
        "support_sliding_window": 0,
    }
    needs = {
        "max_batch_size": f"{batch} sequence(s)",
        "max_total_seq_len": f"{batch} sequence(s) of {plan['prefill']} prefill tokens and "
        f"{plan['decode']} decode steps ({batch * per_sequence} tokens)",
        "prefill_chunk_size": f"a prefill of {plan['prefill']} tokens for {batch} sequence(s)",
    }
    fixed = dict(manifest.get("symbols") or {})
    sizes = {}
    for param in functions.create["params"][: functions.create["num_input"]]:
        key = _size_key(param["name"])
        if key is None:
            raise RunnerError(
                f"{functions.create['name']} takes {param['name']!r}, which is not a KV cache "
                "size the step driver knows (max_batch_size, max_total_seq_len, "
                "prefill_chunk_size, page_size, support_sliding_window): give a --hook",
                EXIT_BAD_INPUT,
            )
        dims = param.get("shape") or [key]
        bound = dims[0] if isinstance(dims[0], int) else fixed.get(str(dims[0]))
        value = wanted[key] if bound is None else int(bound)
        if key in needs and bound is not None and int(bound) < wanted[key]:
            raise RunnerError(
                f"the KV cache cannot hold {needs[key]}: this build fixed {key}={bound} "
                f"(at most {_most(key, int(bound), batch, plan)}); ask for fewer steps or "
                "rebuild without that --shape",
                EXIT_BAD_INPUT,
            )
        sizes[key] = value
    return sizes


def _most(key: str, bound: int, batch: int, plan: dict[str, int]) -> str:
    if key == "max_total_seq_len":
        return f"{bound // batch} tokens a sequence"
    if key == "prefill_chunk_size":
        return f"a prefill of {bound // batch} tokens"
    return f"{bound} sequences"


def _size_key(name: str) -> str | None:
    for key, words in (
        ("max_batch_size", ("batch",)),
        ("max_total_seq_len", ("total", "max_seq", "context")),
        ("prefill_chunk_size", ("chunk",)),
        ("page_size", ("page",)),
        ("support_sliding_window", ("sliding", "window")),
    ):
        if any(w in name for w in words):
            return key
    return None


def _round_up(n: int, to: int) -> int:
    return max(to, -(-n // to) * to)


# ---- the session: what the driver and a hook use --------------------------------------------
class StepObserver:
    """Called around each step: ``enter`` after the device is idle and before the step's
    first call, ``leave`` right after its last call (before waiting for the device), ``done``
    once the device finished it."""

    def enter(self, record: dict) -> None: ...

    def leave(self, record: dict) -> None: ...

    def done(self, record: dict) -> None: ...


class Session:
    """A loaded model's functions, weights and KV cache helpers, and the steps run so far
    (see the module's docstring for what a hook uses)."""

    def __init__(
        self,
        tvm,  # noqa: ANN001
        vm,  # noqa: ANN001
        device,  # noqa: ANN001
        manifest: dict,
        weights: dict[str, Any],  # on ``device`` already: made once for every session
        selection: Selection,
        observers: list[StepObserver],
        seed: int = 0,
        captured: set[tuple[str, tuple[int, ...]]] | None = None,
    ) -> None:
        import numpy as np

        self.tvm, self.vm, self.device, self.manifest = tvm, vm, device, manifest
        self.functions = {f["name"]: f for f in manifest.get("functions") or []}
        self.selection = selection
        self.observers = observers
        self.steps: list[dict] = []
        self._weights = weights
        self._rng = np.random.default_rng(seed)
        self._counts: dict[str, int] = {}
        self._shape: dict[str, int] | None = None  # of the last begin_forward
        self._kv: Any = None  # the cache of the last begin_forward
        self._record: dict[str, Any] | None = None  # the step open now
        # (function, first input's shape) called so far by this VM: a function with CUDA
        # graphs (``build --cuda-graph``) captures them on its first call at a shape (TVM
        # keys its graphs by the captured variables' values) and replays them after
        self._captured = captured if captured is not None else set()
        shape = tvm.runtime.ShapeTuple
        self._shape_tuple = shape
        get = tvm.get_global_func
        self._add = get("vm.builtin.kv_state_add_sequence")
        self._begin = get("vm.builtin.kv_state_begin_forward")
        self._end = get("vm.builtin.kv_state_end_forward")
        self._total = get("vm.builtin.attention_kv_cache_get_total_sequence_length", True)
        rows = [int(v.shape[0]) for v in weights.values() if len(v.shape) == 2]
        self.vocab = min(rows) if rows else 1  # ids below every table's rows are valid ids

    # functions and values
    def function(self, name: str):  # noqa: ANN201 - a VM function
        if name not in self.functions:
            raise RunnerError(
                f"the model has no function {name!r} (it has: {', '.join(self.functions)})",
                EXIT_BAD_INPUT,
            )
        return self.vm[name]

    def weights(self, name: str) -> list:
        """The values of ``name``'s parameters after its inputs (a tuple parameter as a list
        of its fields)."""
        info = self.functions[name]
        return [self._value(p, p["name"]) for p in info["params"][info["num_input"] :]]

    def _value(self, param: dict, path: str) -> Any:
        if param["kind"] == "tuple":
            return [self._value(f, f"{path}.{i}") for i, f in enumerate(param["fields"])]
        for key in (param.get("name"), path):
            if key in self._weights:
                return self._weights[key]
        raise RunnerError(f"no value for the weight {path!r}", EXIT_BAD_INPUT)

    def call(self, name: str, *inputs: Any) -> Any:
        if self.functions.get(name, {}).get("graphs"):
            self._graph_call(name, inputs)
        return self.function(name)(*inputs, *self.weights(name))

    def _graph_call(self, name: str, inputs: tuple[Any, ...]) -> None:
        """Say in the open step whether its call of ``name`` captures the function's CUDA
        graphs or replays them (``cuda_graph``: "capture" wins over "replay")."""
        shape = tuple(int(d) for d in getattr(inputs[0], "shape", ())) if inputs else ()
        key = (name, shape)
        mode = "replay" if key in self._captured else "capture"
        self._captured.add(key)
        if self._record is not None and self._record.get("cuda_graph") != "capture":
            self._record["cuda_graph"] = mode

    def tensor(self, array: Any) -> Any:
        return self.tvm.runtime.tensor(array, self.device)

    def token_ids(self, shape: tuple[int, ...] | list[int]) -> Any:
        ids = self._rng.integers(0, self.vocab, tuple(shape)).astype("int32")
        return self.tensor(ids)

    def sync(self) -> None:
        self.device.sync()

    # the KV cache
    def create_kv_cache(
        self, max_batch: int, max_total_seq_len: int, prefill_chunk: int, page_size: int = 16
    ) -> Any:
        sizes = {
            "max_batch_size": max_batch,
            "max_total_seq_len": max_total_seq_len,
            "prefill_chunk_size": prefill_chunk,
            "page_size": page_size,
            "support_sliding_window": 0,
        }
        return self._create(sizes)

    def _create(self, sizes: dict[str, int]) -> Any:
        create = next(f for f in self.functions.values() if f.get("creates_kv_cache"))
        args = []
        for param in create["params"][: create["num_input"]]:
            key = _size_key(param["name"])
            if key is None:
                raise RunnerError(
                    f"{create['name']} takes {param['name']!r}, not a KV cache size "
                    f"create_kv_cache knows; call session.function({create['name']!r}) "
                    "yourself",
                    EXIT_BAD_INPUT,
                )
            value = int(sizes[key])
            args.append(self._shape_tuple([value]) if param["kind"] == "shape" else value)
        return self.vm[create["name"]](*args)

    def add_sequence(self, kv: Any, seq_id: int) -> None:
        self._add(kv, seq_id)

    def begin_forward(self, kv: Any, seq_ids: list[int], lengths: list[int]) -> None:
        seq_ids, lengths = [int(s) for s in seq_ids], [int(n) for n in lengths]
        try:
            self._begin(kv, self._shape_tuple(seq_ids), self._shape_tuple(lengths))
        except Exception as exc:  # noqa: BLE001 - TVM's runtime error, said as the cache's
            raise RunnerError(
                f"the KV cache refused {sum(lengths)} tokens for sequences {seq_ids}: "
                f"{str(exc).strip().splitlines()[-1] if str(exc).strip() else exc!r}",
                EXIT_BAD_INPUT,
            ) from exc
        self._shape = {"batch": len(seq_ids), "seq_len": max(lengths), "tokens": sum(lengths)}
        self._kv = kv

    def end_forward(self, kv: Any) -> None:
        self._end(kv)

    def total_length(self, kv: Any) -> int | None:
        return int(self._total(kv)) if self._total is not None else None

    # steps
    def step(self, name: str, fn: Callable[[], Any] | None = None) -> Any:
        """``with session.step(name): ...`` or ``session.step(name, fn)`` (fn's result)."""
        if fn is None:
            return self._step(name)
        with self._step(name):
            return fn()

    @contextmanager
    def _step(self, name: str) -> Iterator[dict]:
        index = self._counts.get(name, 0)
        self._counts[name] = index + 1
        record: dict[str, Any] = {"name": name, "index": index}
        record["profiled"] = self.selection.chosen(name, index)
        self._shape = None
        self.sync()
        for o in self.observers:
            o.enter(record)
        start = time.perf_counter()
        self._record = record
        try:
            yield record
        finally:
            self._record = None
        for o in self.observers:
            o.leave(record)
        self.sync()
        record["wall_ms"] = 1000 * (time.perf_counter() - start)
        for o in reversed(self.observers):
            o.done(record)
        record.update(self._shape or {"batch": None, "seq_len": None, "tokens": None})
        record["total_len"] = self.total_length(self._kv) if self._shape else None
        self.steps.append(record)


# ---- the driver ------------------------------------------------------------------------------
class Driver:
    """Runs ``plan`` (prefill tokens, decode steps) for ``batch`` sequences in a session."""

    def __init__(self, manifest: dict, plan: dict[str, int], batch: int) -> None:
        if batch < 1:
            raise RunnerError(f"--batch {batch}: give 1 or more sequences", EXIT_BAD_INPUT)
        self.functions = Functions(manifest)
        self.plan, self.batch = plan, batch
        self.sizes = kv_sizes(manifest, self.functions, plan, batch)
        self.prefill_shape = self._input_shape(self.functions.prefill, plan["prefill"])
        self.decode_shape = self._input_shape(self.functions.decode, 1)

    def counts(self) -> dict[str, int]:
        return {"prefill": 1 if self.plan["prefill"] else 0, "decode": self.plan["decode"]}

    def _input_shape(self, function: dict, seq_len: int) -> list[int]:
        """The step function's first input for ``batch`` sequences of ``seq_len`` tokens: its
        symbolic dimensions bound (a static batch of 1 takes the sequences one after the
        other, as MLC-LLM packs a batch's prefill)."""
        shape = list(_tensors(function)[0]["shape"])
        batch, rest = shape[0], shape[1:]
        tokens = seq_len if batch != 1 else self.batch * seq_len
        bound = [self.batch if _is_symbolic(batch) else int(batch)]
        if rest:
            if _is_symbolic(rest[0]):
                bound.append(tokens)
            elif int(rest[0]) != tokens:
                raise RunnerError(
                    f"{function['name']} was built for {rest[0]} tokens a call "
                    f"({function['name']} takes {_tensors(function)[0]['dtype']}{shape}); "
                    f"--steps asks for {tokens}: ask for {rest[0]}, or rebuild without "
                    "that --shape",
                    EXIT_BAD_INPUT,
                )
            else:
                bound.append(int(rest[0]))
        for d in rest[1:]:
            if _is_symbolic(d):
                raise RunnerError(
                    f"{function['name']}: its input's dimension {d} is not one the step "
                    "driver can size; give a --hook",
                    EXIT_BAD_INPUT,
                )
            bound.append(int(d))
        if bound[0] != 1 and bound[0] != self.batch:
            raise RunnerError(
                f"{function['name']} was built for a batch of {bound[0]}; run --batch {bound[0]}",
                EXIT_BAD_INPUT,
            )
        return bound

    def _inputs(self, session: Session, function: dict, shape: list[int]) -> Callable[[], Any]:
        """What makes the step function's first input inside the step: token ids made now
        (outside the step) and, for a function that takes embeddings, ``embed`` on them."""
        embed = self.functions.embed
        tokens = shape[0] * shape[1]
        if _tensors(function)[0]["dtype"].startswith("int") or embed is None:
            ids = session.token_ids(shape[:2])
            return lambda: ids
        ids_shape = list(_tensors(embed)[0]["shape"])
        ids = session.token_ids([1, tokens] if ids_shape[0] == 1 else [shape[0], shape[1]])

        def embedded() -> Any:
            out = session.call(embed["name"], ids)
            return out if list(out.shape) == shape else out._create_view(shape)

        return embedded

    def run(self, session: Session) -> dict:
        """The whole plan once: the cache made, the sequences added, the steps run."""
        kv = session._create(self.sizes)
        seqs = list(range(self.batch))
        for s in seqs:
            session.add_sequence(kv, s)
        last: dict = {}
        for name, count, shape, seq_len in (
            ("prefill", self.counts()["prefill"], self.prefill_shape, self.plan["prefill"]),
            ("decode", self.plan["decode"], self.decode_shape, 1),
        ):
            function = getattr(self.functions, name)
            for _ in range(count):
                make = self._inputs(session, function, shape)
                with session.step(name):
                    session.begin_forward(kv, seqs, [seq_len] * self.batch)
                    out = session.call(function["name"], make(), kv)
                    session.end_forward(kv)
                logits = out[0] if _is_sequence(out) else out
                session.steps[-1]["logits"] = [int(d) for d in logits.shape]
                last = session.steps[-1]
        return last


def _is_sequence(value: Any) -> bool:
    return not hasattr(value, "shape") and hasattr(value, "__getitem__")


# ---- a hook file -----------------------------------------------------------------------------
def run_hook(path: Path, session: Session) -> None:
    """``run(session)`` of the hook file; what it raises becomes a RunnerError naming the
    file and line (its traceback goes to stderr, the run's log)."""
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RunnerError(f"--hook {path}: {exc.strerror or exc}", EXIT_BAD_INPUT) from exc
    scope: dict[str, Any] = {"__name__": "kernelscope_hook", "__file__": str(path)}
    try:
        exec(compile(source, str(path), "exec"), scope)  # noqa: S102 - the user's own hook
        run = scope.get("run")
        if not callable(run):
            raise RunnerError(f"--hook {path}: it defines no run(session) function", EXIT_BAD_INPUT)
        run(session)
    except RunnerError:
        raise
    except Exception as exc:  # noqa: BLE001 - the hook's own error, said with its line
        traceback.print_exc(file=sys.stderr)
        line = _hook_line(exc, path)
        where = f"{path}, line {line}" if line else str(path)
        raise RunnerError(
            f"the hook {where} raised {type(exc).__name__}: {exc}", EXIT_BAD_INPUT
        ) from exc


def _hook_line(exc: BaseException, path: Path) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(path)]
    return frames[-1].lineno if frames else None
