"""A TVM-built decoder's twin under ``torch.compile``: ``transformers``' ``LlamaForCausalLM`` in
the configuration the workspace's model has (``--torch-llama CONFIG.json``, the JSON
``core.build.decoder_config`` writes), random weights (seeded), float16, a static KV cache,
run step by step as the TVM step driver runs the workspace (``steps``): one prefill of N
tokens, then decode steps, token ids seeded random and made outside the steps.

Each step is one call of the compiled ``forward`` (the embedding, the layers with the
cache's update, the norm and the LM head of the last token only, as MLC-LLM's prefill);
prefill and decode are two graphs (``dynamic=False``). The chosen steps are marked the way
``step_run`` marks TVM's (``ProfilerMarks``: ``cuProfilerStart``, the marker kernel, the step,
``cuProfilerStop``), so that ``core.ncu.steps`` splits the report into the same steps. Before
the marked run, ``repeat`` unmarked runs time each step with CUDA events (``gpu_ms``, the
median). Under ncu those times are ncu's too (it intercepts every launch, profiled or not), so
kernelscope runs the twin under ncu with ``--repeat 0`` and times the steps in a run of their
own (``--timed-only``).

Standard library, the host's PyTorch and transformers only, as the rest of the runner.
"""

from __future__ import annotations

import inspect
import json
import statistics
import time
import traceback
from pathlib import Path
from typing import Any

from .cuda import STEP_MARKER, Cuda
from .protocol import EXIT_BAD_INPUT, EXIT_COMPILE, EXIT_NO_GPU, EXIT_NO_TORCH, RunnerError
from .step_run import ProfilerMarks
from .steps import Selection, StepObserver, parse_steps
from .torch_model import FACTS, FACTS_VERSION, MODES, compile_environment, import_torch

# The step list in the form ``kernelscope profile --steps`` keeps beside a report
# (``REPORT.ncu-rep.steps.json``): copied beside the run's report, it splits it into steps.
STEP_LIST = "steps.json"
# Each step's time from a run of its own (``timed_only``): ncu intercepts every launch of the
# process it runs, profiled or not (a 1B decode step of torch.compile's default mode: 28.9 ms
# under ncu, 5.3 ms without), so a step is timed in a process ncu does not run.
TIMED_STEPS = "steps_timed.json"
# What a step list whose times come from that run says of them (``step_times``); times in a
# step list that does not say it were taken under ncu.
TIMED_APART = "a run of their own, without ncu"
# What CONFIG.json must give (core.build.decoder_config writes it).
CONFIG_KEYS = (
    "vocab",
    "hidden",
    "intermediate",
    "layers",
    "heads",
    "kv_heads",
    "head_dim",
    "rope_theta",
    "rms_eps",
    "dtype",
)


def read_config(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RunnerError(
            f"--torch-llama {path}: not a decoder config ({exc})", EXIT_BAD_INPUT
        ) from exc
    missing = [k for k in CONFIG_KEYS if k not in raw] if isinstance(raw, dict) else CONFIG_KEYS
    if missing:
        raise RunnerError(
            f"--torch-llama {path}: the config lacks {', '.join(missing)} "
            "(write it with kernelscope's decoder_config)",
            EXIT_BAD_INPUT,
        )
    return raw


def llama_config(transformers: Any, cfg: dict[str, Any], max_len: int) -> Any:
    """transformers' LlamaConfig of ``cfg`` (rope theta where the installed version keeps
    it: ``rope_theta`` before 5.0, ``rope_parameters`` since)."""
    config = transformers.LlamaConfig(
        vocab_size=cfg["vocab"],
        hidden_size=cfg["hidden"],
        intermediate_size=cfg["intermediate"],
        num_hidden_layers=cfg["layers"],
        num_attention_heads=cfg["heads"],
        num_key_value_heads=cfg["kv_heads"],
        head_dim=cfg["head_dim"],
        max_position_embeddings=max(max_len, 2048),
        rms_norm_eps=cfg["rms_eps"],
        rope_theta=float(cfg["rope_theta"]),
        tie_word_embeddings=False,
        attention_bias=False,
        mlp_bias=False,
        hidden_act="silu",
    )
    rope = getattr(config, "rope_parameters", None)
    if isinstance(rope, dict):
        rope["rope_theta"] = float(cfg["rope_theta"])
        rope.setdefault("rope_type", "default")
    if hasattr(config, "rope_theta"):
        config.rope_theta = float(cfg["rope_theta"])
    config._attn_implementation = "sdpa"
    return config


def static_cache(
    transformers: Any, config: Any, batch: int, max_len: int, torch: Any, device: Any
) -> Any:
    """A StaticCache for ``batch`` sequences of ``max_len`` tokens, whatever the installed
    version's constructor takes."""
    accepted = inspect.signature(transformers.StaticCache.__init__).parameters
    given = {
        "config": config,
        "max_cache_len": max_len,
        "max_batch_size": batch,
        "batch_size": batch,
        "device": device,
        "dtype": torch.float16,
    }
    return transformers.StaticCache(**{k: v for k, v in given.items() if k in accepted})


class StepTimes(StepObserver):
    """CUDA events around each step, on the current stream."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.pending: list[tuple[dict, Any, Any]] = []

    def enter(self, record: dict) -> None:
        start = self.torch.cuda.Event(enable_timing=True)
        start.record()
        record["_events"] = start

    def leave(self, record: dict) -> None:
        end = self.torch.cuda.Event(enable_timing=True)
        end.record()
        self.pending.append((record, record.pop("_events"), end))

    def done(self, record: dict) -> None:
        for rec, start, end in self.pending:
            rec["gpu_ms"] = start.elapsed_time(end)
        self.pending.clear()


class TorchDecoder:
    """The twin on GPU 0, compiled; ``run`` runs the plan once."""

    def __init__(
        self,
        config_path: Path,
        run_dir: Path,
        mode: str,
        plan: dict[str, int],
        seed: int,
        device: str = "cuda",
        debug: bool = True,
    ) -> None:
        import os

        if mode not in MODES:
            raise RunnerError(f"mode {mode!r}: one of {', '.join(MODES)}", EXIT_BAD_INPUT)
        self.cfg = read_config(config_path)
        if self.cfg["dtype"] != "float16":
            raise RunnerError(
                f"--torch-llama: the model is {self.cfg['dtype']}; the twin runs float16 only",
                EXIT_BAD_INPUT,
            )
        run_dir.mkdir(parents=True, exist_ok=True)
        self.environment = compile_environment(run_dir, debug)
        os.environ.update(self.environment)  # before torch reads its configuration
        self.torch = torch = import_torch()
        try:
            import transformers
        except ImportError as exc:
            raise RunnerError(
                f"transformers is not installed for this Python ({exc}): the decoder's twin "
                "is transformers' LlamaForCausalLM",
                EXIT_NO_TORCH,
            ) from exc
        if device == "cuda" and not torch.cuda.is_available():
            raise RunnerError(
                f"PyTorch {torch.__version__} here sees no CUDA GPU: "
                "torch.cuda.is_available() is False",
                EXIT_NO_GPU,
            )
        self.transformers = transformers
        self.run_dir, self.mode, self.plan, self.seed = run_dir, mode, plan, seed
        self.max_len = plan["prefill"] + plan["decode"]
        self.config = llama_config(transformers, self.cfg, self.max_len)
        torch.manual_seed(seed)
        self.device = torch.device(device, 0) if device == "cuda" else torch.device(device)
        with self.device:
            model = transformers.LlamaForCausalLM(self.config)
        self.model = model.to(torch.float16).eval()
        self.cache = static_cache(transformers, self.config, 1, self.max_len, torch, self.device)
        forward = inspect.signature(self.model.forward).parameters
        self.keep = next(
            ({k: 1} for k in ("logits_to_keep", "num_logits_to_keep") if k in forward), {}
        )
        # transformers 5 renames it ``cache`` (and warns of the old name until 5.40)
        self.cache_arg = "past_key_values" if "past_key_values" in forward else "cache"
        generator = torch.Generator().manual_seed(seed)
        self.ids = {
            "prefill": torch.randint(
                0, self.cfg["vocab"], (1, plan["prefill"]), generator=generator
            ).to(self.device),
            "decode": torch.randint(
                0, self.cfg["vocab"], (max(plan["decode"], 1), 1), generator=generator
            ).to(self.device),
        }
        self.compiled = torch.compile(
            self.model.forward, mode=None if mode == "default" else mode, dynamic=False
        )
        self.compile_s = 0.0

    def _inputs(self, name: str, index: int) -> dict[str, Any]:
        torch = self.torch
        if name == "prefill":
            ids = self.ids["prefill"]
            positions = torch.arange(self.plan["prefill"], device=self.device)
        else:
            ids = self.ids["decode"][index : index + 1]
            positions = torch.tensor([self.plan["prefill"] + index], device=self.device)
        return {
            "input_ids": ids,
            "position_ids": positions.unsqueeze(0),
            "cache_position": positions,
            self.cache_arg: self.cache,
            "use_cache": True,
            **self.keep,
        }

    def run(self, observers: list[StepObserver], selection: Selection, fn: Any = None) -> list:
        """The plan once, from an empty cache: each step's record (``steps``' fields)."""
        torch = self.torch
        fn = fn or self.compiled
        self.cache.reset()
        steps: list[dict] = []
        counts = {"prefill": 1 if self.plan["prefill"] else 0, "decode": self.plan["decode"]}
        with torch.no_grad():
            for name in ("prefill", "decode"):
                for index in range(counts[name]):
                    inputs = self._inputs(name, index)
                    record: dict[str, Any] = {"name": name, "index": index}
                    record["profiled"] = selection.chosen(name, index)
                    self._sync()
                    for o in observers:
                        o.enter(record)
                    start = time.perf_counter()
                    out = fn(**inputs)
                    for o in observers:
                        o.leave(record)
                    self._sync()
                    record["wall_ms"] = 1000 * (time.perf_counter() - start)
                    for o in reversed(observers):
                        o.done(record)
                    tokens = int(inputs["input_ids"].shape[1])
                    total = self.plan["prefill"] + (index + 1 if name == "decode" else 0)
                    record.update(batch=1, seq_len=tokens, tokens=tokens, total_len=total)
                    record["logits"] = [int(d) for d in out.logits.shape]
                    steps.append(record)
        return steps

    def _sync(self) -> None:
        if self.device.type == "cuda":
            self.torch.cuda.synchronize()

    def compile(self) -> None:
        """The cache filled once eagerly (a lazily made cache makes its tensors there), then
        the compiling run: Dynamo traces prefill and decode, Inductor and Triton compile."""
        start = time.perf_counter()
        try:
            self.run([], Selection(None), self.model.forward)
            self.run([], Selection(None))
        except Exception as exc:
            traceback.print_exc()
            first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), "")
            raise RunnerError(
                f"torch.compile of the decoder failed: {type(exc).__name__}: {first}",
                EXIT_COMPILE,
            ) from exc
        self.compile_s = time.perf_counter() - start

    def facts(self) -> dict[str, Any]:
        torch = self.torch
        try:
            import triton

            triton_version = triton.__version__
        except ImportError:
            triton_version = None
        on_gpu = self.device.type == "cuda"
        major, minor = torch.cuda.get_device_capability(0) if on_gpu else (0, 0)
        return {
            "version": FACTS_VERSION,
            "model": "LlamaForCausalLM",
            "mode": self.mode,
            "torch": torch.__version__,
            "triton": triton_version,
            "transformers": self.transformers.__version__,
            "cuda": torch.version.cuda,
            "device": torch.cuda.get_device_name(0) if on_gpu else str(self.device),
            "compute_capability": f"{major}.{minor}",
            "run_dir": str(self.run_dir),
            "environment": self.environment,
            "decoder": self.cfg,
            "llama_config": {
                k: v for k, v in self.config.to_dict().items() if isinstance(v, (int, float, str))
            },
            "attention": getattr(self.config, "_attn_implementation", None),
            "logits_to_keep": bool(self.keep),
            "compile_s": self.compile_s,
            "plan": self.plan,
            "seed": self.seed,
        }


def under_ncu() -> bool:
    """Whether Nsight Compute runs this process: it sets these in the processes it launches
    (seen with ncu 2025.3 on an H100 host)."""
    import os

    return any(
        k in os.environ for k in ("NV_TPS_LAUNCH_TOKEN", "NV_COMPUTE_PROFILER_PERFWORKS_DIR")
    )


def _add_medians(records: list[dict], timed: list[list[dict]]) -> None:
    """Each step's median CUDA-event and wall time over the timed runs, into its record."""
    for i, record in enumerate(records):
        record["gpu_ms"] = statistics.median(run[i]["gpu_ms"] for run in timed)
        record["wall_ms_timed"] = statistics.median(run[i]["wall_ms"] for run in timed)


def run_torch_llama(
    config: Path,
    run_dir: Path,
    mode: str,
    steps: str,
    profile_steps: str | None,
    warmup: int,
    repeat: int,
    seed: int,
    timed_only: bool = False,
) -> dict:
    """Compile, ``warmup`` whole runs, ``repeat`` timed runs (each step's median ``gpu_ms``
    and ``wall_ms_timed``), then the marked run; the facts go to run.json, the step list to
    steps.json. ``timed_only``: no marked run, and the step times alone go to
    ``TIMED_STEPS`` (a run of its own, without ncu, beside the run ncu profiled: it compiles
    from that run's caches and writes nothing else)."""
    plan = parse_steps(steps)
    selection = Selection(profile_steps)
    selection.check_plan({"prefill": 1 if plan["prefill"] else 0, "decode": plan["decode"]})
    if timed_only and (repeat < 1 or selection):
        raise RunnerError(
            "--timed-only times each step: give --repeat 1 or more, no --profile-steps",
            EXIT_BAD_INPUT,
        )
    if timed_only and under_ncu():
        raise RunnerError(
            "--timed-only times each step without a profiler, but Nsight Compute runs this "
            "process (its times would be ncu's): run it on its own",
            EXIT_BAD_INPUT,
        )
    twin = TorchDecoder(config, run_dir, mode, plan, seed, debug=not timed_only)
    twin.compile()
    for _ in range(warmup):
        twin.run([], Selection(None))
    timed = [twin.run([StepTimes(twin.torch)], Selection(None)) for _ in range(repeat)]
    if timed_only:
        steps_timed = [{"name": r["name"], "index": r["index"]} for r in timed[0]]
        _add_medians(steps_timed, timed)
        out = {
            "device": twin.facts()["device"],
            "warmup": warmup,
            "repeat": repeat,
            "steps": steps_timed,
        }
        (run_dir / TIMED_STEPS).write_text(json.dumps(out, indent=1), encoding="utf-8")
        return out
    observers: list[StepObserver] = [ProfilerMarks(Cuda())] if selection else []
    steps_run = twin.run(observers, selection)
    if timed:
        _add_medians(steps_run, timed)
    facts = twin.facts()
    listed = {
        "mode": "steps",
        "device": facts["device"],
        "batch": 1,
        "warmup": warmup,
        "profile_steps": profile_steps or None,
        "marker": STEP_MARKER if selection else None,
        "plan": plan,
        "steps": steps_run,
    }
    facts.update(warmup=warmup, repeat=repeat, steps=steps_run)
    (run_dir / FACTS).write_text(json.dumps(facts, indent=1), encoding="utf-8")
    (run_dir / STEP_LIST).write_text(json.dumps(listed, indent=1), encoding="utf-8")
    return facts
