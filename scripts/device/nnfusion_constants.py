"""NNFusion's generated constants (``Constant/*.bin``), told apart from the ONNX model so a
project can travel without them and get them back on the GPU machine, byte for byte.

NNFusion writes every constant of its graph as raw float32 into ``Constant/<name>.bin``. For a
model with its weights as initializers these are the initializers themselves, or what
NNFusion's constant folding made of them: a bias broadcast over N,C,H,W, or, with
``-fbiasadd_fix``, the same with element i = bias[i % C]. ``pack`` records for each file which
of these it is (checked by SHA-256) and copies only the small ones it cannot explain;
``unpack`` rebuilds them from the model and checks the digests again.

usage: nnfusion_constants.py pack MODEL.onnx PROJECT OUT_DIR   (copies PROJECT minus Constant/)
       nnfusion_constants.py unpack MODEL.onnx PROJECT         (writes PROJECT/Constant/)
Only numpy and onnx are needed.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

MANIFEST = "constants.json"
CARRY_LIMIT = 1 << 20  # constants no recipe explains travel as files up to this size
_SHAPE = re.compile(r"- name: (Constant_\w+)\s+type: (\w+)\s+shape: Shape\{([0-9, ]*)\}")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def initializers(model: Path) -> dict[str, np.ndarray]:
    proto = onnx.load(str(model), load_external_data=True)
    return {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}


def _shapes(project: Path) -> dict[str, list[int]]:
    shapes: dict[str, list[int]] = {}
    for cu in project.glob("*.cu"):
        for name, _, dims in _SHAPE.findall(cu.read_text(errors="replace")):
            shapes[name] = [int(d) for d in dims.replace(" ", "").split(",") if d]
    return shapes


def make(recipe: dict, inits: dict[str, np.ndarray], project: Path) -> bytes:
    """The bytes of one constant from its recipe."""
    if "file" in recipe:
        return (project / recipe["file"]).read_bytes()
    value = inits[recipe["init"]].astype(np.float32).reshape(-1)
    kind = recipe.get("kind", "copy")
    if kind == "copy":
        return value.tobytes()
    shape = list(recipe["shape"])
    if kind == "broadcast":  # bias[c] at every (n, c, ...)
        full = np.broadcast_to(value.reshape([1, shape[1]] + [1] * (len(shape) - 2)), shape)
    elif kind == "biasfix":  # -fbiasadd_fix: element i holds bias[i % C]
        full = np.resize(value, int(np.prod(shape)))
    else:
        raise ValueError(f"unknown constant recipe {kind!r}")
    return np.ascontiguousarray(full, dtype=np.float32).tobytes()


def pack(model: Path, project: Path, out: Path) -> dict:
    inits = initializers(model)
    shapes = _shapes(project)
    by_size: dict[int, list[str]] = {}
    for name, value in inits.items():
        by_size.setdefault(value.size, []).append(name)
    entries = []
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(project, out, ignore=shutil.ignore_patterns("*.bin"))
    for path in sorted((project / "Constant").glob("*.bin")):
        data = path.read_bytes()
        digest = _sha(data)
        size = len(data) // 4
        shape = shapes.get(path.stem)
        candidates = [{"init": n} for n in by_size.get(size, [])]
        if shape and len(shape) >= 2:
            for name in by_size.get(shape[1], []):
                candidates += [{"init": name, "kind": k, "shape": shape}
                               for k in ("broadcast", "biasfix")]  # fmt: skip
        recipe = next((r for r in candidates if _sha(make(r, inits, project)) == digest), None)
        rel = path.relative_to(project).as_posix()
        if recipe is None:
            if len(data) > CARRY_LIMIT:
                raise SystemExit(f"{rel}: {len(data)} bytes that no initializer explains")
            recipe = {"file": rel}
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out / rel)
        entries.append({"path": rel, "sha256": digest, **recipe})
    manifest = {
        "model_initializers": {n: _sha(v.astype(np.float32).tobytes()) for n, v in inits.items()},
        "constants": entries,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1))
    return manifest


def unpack(model: Path, project: Path) -> int:
    manifest = json.loads((project / MANIFEST).read_text())
    inits = initializers(model)
    for name, digest in manifest["model_initializers"].items():
        if _sha(inits[name].astype(np.float32).tobytes()) != digest:
            raise SystemExit(f"{model}: initializer {name} differs from the one packed")
    for entry in manifest["constants"]:
        data = make(entry, inits, project)
        if _sha(data) != entry["sha256"]:
            raise SystemExit(f"{entry['path']}: rebuilt constant differs from NNFusion's")
        target = project / entry["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return len(manifest["constants"])


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[0] == "pack":
        m = pack(Path(argv[1]), Path(argv[2]), Path(argv[3]))
        kinds = [e.get("kind", "file" if "file" in e else "copy") for e in m["constants"]]
        print(f"{argv[3]}: {len(kinds)} constants: "
              + ", ".join(f"{kinds.count(k)} {k}" for k in sorted(set(kinds))))  # fmt: skip
        return 0
    if len(argv) == 3 and argv[0] == "unpack":
        print(f"{argv[2]}: {unpack(Path(argv[1]), Path(argv[2]))} constants rebuilt and checked")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
