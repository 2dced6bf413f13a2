"""What the profile-torch tests share: the small model file and the stand-ins for the host's
ncu (this machine has neither a GPU nor PyTorch)."""

from __future__ import annotations

from paths_support import DATA, data_path

MLP = DATA / "torch" / "mlp.py"

# Stands in for the host's ncu: runs what follows ncu's options (the runner) as ncu would.
NCU_RUNS_THE_RUNNER = """args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[i]}" = application-only ] && exec "${args[@]:i+1}"
done
echo "==ERROR== no --target-processes application-only"; exit 1
"""

# Stands in for the host's ncu on a machine with no GPU: checks what kernelscope sent, then
# leaves what a profiled run leaves in the run folder, the report a real one (of small_cnn).
NCU_LEAVES_A_RUN = """args=("$@"); out=""; run=""; model=""
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    -o) out="${args[i+1]}" ;;
    --run-dir) run="${args[i+1]}" ;;
    --torch) model="${args[i+1]}" ;;
    application-only) runner="${args[i+2]}" ;;
  esac
done
for f in "$model" "$runner"; do [ -f "$f" ] || { echo "==ERROR== missing $f"; exit 1; }; done
echo "$@" > "$run/profiles/ncu-args.txt"
ls "$(dirname "$model")" > "$run/profiles/model-folder.txt"
mkdir -p "$run/inductor_cache/ab" "$run/triton_cache/K7"
echo "tmp0 = tl.load(in_ptr0 + x0)" > "$run/inductor_cache/ab/cabxyz.py"
echo '{"version": 1, "torch": "2.11.0", "triton": "3.6.0", "device": "NVIDIA H200",' \\
     ' "run_dir": "'"$run"'", "compile_s": 1.5}' > "$run/run.json"
echo '==PROF== Profiling "triton_poi_fused_gelu_0" - 0: 0%....50%....100% - 9 passes'
cp REPORT "$out.ncu-rep"
"""

# Stands in for the host's ncu that profiles for ever: one kernel's line, then it waits (a
# child of its own too, as the model would be).
NCU_HANGS = """echo '==PROF== Profiling "triton_poi_fused_gelu_0" - 0: 0%....'
sleep 300 &
wait
"""

# Stands in for the host's ncu on a machine with no GPU, leaving a real run: the transformer
# run folder made on the H200 (tests/data/inductor, trimmed) and its report.
NCU_LEAVES_A_REAL_RUN = """args=("$@"); out=""; run=""
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    -o) out="${args[i+1]}" ;;
    --run-dir) run="${args[i+1]}" ;;
  esac
done
echo '==PROF== Profiling "triton_poi_fused_addmm_gelu_view_7" - 0: 0%....50%....100% - 9 passes'
cp -r RUN/. "$run/"
cp REPORT "$out.ncu-rep"
""".replace("RUN", str(DATA / "inductor" / "transformer")).replace(
    "REPORT", str(data_path("inductor/transformer_profile.ncu-rep"))
)
