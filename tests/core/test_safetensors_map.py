"""attention_core.trained.weights: a safetensors file memory-mapped, against the safetensors
package's own reader (the reference), on small files it writes and on MiniLM's weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from attention_core.trained.weights import map_safetensors

safetensors_numpy = pytest.importorskip("safetensors.numpy")
MINILM = Path(__file__).resolve().parents[2] / ".model" / "all-MiniLM-L6-v2" / "model.safetensors"


@pytest.fixture
def written(tmp_path) -> tuple[Path, dict[str, np.ndarray]]:
    """A file written by the safetensors package: several dtypes, shapes and a scalar."""
    rng = np.random.default_rng(7)
    tensors = {
        "W_q": rng.standard_normal((3, 5)).astype(np.float32),
        "b": rng.standard_normal(5).astype(np.float64),
        "half": rng.standard_normal((2, 2, 2)).astype(np.float16),
        "ids": np.array([[1, -2], [3, 40_000]], dtype=np.int64),
        "mask": np.array([True, False, True]),
        "one": np.array(2.5, dtype=np.float32),
    }
    path = tmp_path / "t.safetensors"
    safetensors_numpy.save_file(tensors, str(path), metadata={"format": "np"})
    return path, tensors


def test_every_tensor_as_the_package_reads_it(written):
    path, tensors = written
    mapped, reference = map_safetensors(path), safetensors_numpy.load_file(str(path))
    assert set(mapped) == set(tensors) == set(reference)  # __metadata__ is not a tensor
    for name, value in reference.items():
        assert mapped[name].dtype == value.dtype and mapped[name].shape == value.shape, name
        np.testing.assert_array_equal(mapped[name], value, err_msg=name)
        np.testing.assert_array_equal(mapped[name], tensors[name], err_msg=name)


def test_the_arrays_are_read_only_views_of_the_file(written):
    path, _ = written
    W_q = map_safetensors(path)["W_q"]
    assert type(W_q) is np.ndarray and not W_q.flags.writeable
    with pytest.raises(ValueError):
        W_q[0, 0] = 1.0


@pytest.mark.parametrize("keep", [0, 7, 8, 30, -4])
def test_a_cut_short_file_is_refused(written, keep):
    path, _ = written
    data = path.read_bytes()
    path.write_bytes(data[:keep])
    with pytest.raises(ValueError):
        map_safetensors(path)


def test_offsets_that_do_not_match_the_shape_are_refused(written):
    path, _ = written
    data = path.read_bytes()
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + n])
    header["W_q"]["shape"] = [5, 5]  # 100 bytes claimed, 60 stored
    text = json.dumps(header, separators=(",", ":")).encode().ljust(n)
    assert len(text) == n
    path.write_bytes(data[:8] + text + data[8 + n :])
    with pytest.raises(ValueError, match="W_q"):
        map_safetensors(path)


@pytest.mark.skipif(not MINILM.exists(), reason="model not fetched: make model")
def test_minilm_weights_equal_the_packages_copy():
    mapped, reference = map_safetensors(MINILM), safetensors_numpy.load_file(str(MINILM))
    assert set(mapped) == set(reference) and len(mapped) > 100
    for name, value in reference.items():
        np.testing.assert_array_equal(mapped[name], value, err_msg=name)
