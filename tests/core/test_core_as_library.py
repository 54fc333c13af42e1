"""`pip install .` gives a learner the core as a library: built, installed and imported
outside the checkout, as a notebook would use it (README, "Use the core in a notebook")."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

NOTEBOOK = """
import attention_core
from attention_core import attention, parse_matrix
print(attention_core.__file__)
t = attention(parse_matrix("1 2"), parse_matrix("1 0; 0 1"), parse_matrix("10; 20"))
print(round(float(t.weights[0, 1]), 4), round(float(t.output[0, 0]), 3))
print(list(t.to_frames(["q"], ["k1", "k2"])["weights"].columns))
"""


def test_the_wheel_holds_the_core_and_imports_outside_the_checkout(tmp_path: Path) -> None:
    dist, site, src = tmp_path / "dist", tmp_path / "site", tmp_path / "src"
    # Built from a copy of what the package needs: setuptools leaves build/ and
    # *.egg-info beside the sources, and the checkout stays as it was.
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        src.mkdir(exist_ok=True)
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "attention_core", src / "attention_core",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build = [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(src)]
    subprocess.run(build, check=True, capture_output=True, timeout=300)
    (wheel,) = dist.glob("attention_lab-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    packages = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert packages == {"attention_core"}  # the app's layers stay in the checkout
    assert "attention_core/pretrained/model.py" in names
    assert "attention_core/exercises/catalogue.py" in names
    assert "attention_core/py.typed" in names  # its type hints count for its users (PEP 561)
    (meta,) = (n for n in names if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: MIT" in zipfile.ZipFile(wheel).read(meta).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    install = [*pip, "install", "--no-deps", "--no-index", "--target", str(site), str(wheel)]
    subprocess.run(install, check=True, capture_output=True, timeout=300)
    # -s: no user site; cwd and PYTHONPATH point away from the checkout, so only the
    # installed copy can answer "import attention_core" (numpy and pandas: the venv's).
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-s", "-c", NOTEBOOK], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    where, numbers, columns = out.stdout.splitlines()
    assert Path(where).is_relative_to(site)
    # softmax([1, 2] / sqrt 2): e^1.4142 / (e^0.7071 + e^1.4142) = 0.6698; 10 w1 + 20 w2
    assert numbers == "0.6698 16.698"
    assert columns == "['k1', 'k2']"
