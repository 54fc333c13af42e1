"""What a server does before its first student, without a server: serve.py's warm-up and
deploy/precompress.py's gzipped frontend files (make classroom's nginx serves them)."""

from __future__ import annotations

import gzip
import pkgutil
import sys
from pathlib import Path

import pytest

import serve
from attention_ui.stages.registry import STAGES
from deploy import precompress

JS = b"function attention(q, k) { return softmax(q @ k.T / Math.sqrt(d_k)); }\n" * 200


@pytest.fixture
def frontend(tmp_path: Path) -> Path:
    """A small stand-in for Streamlit's static/static/: a big script, a tiny one, a font."""
    src = tmp_path / "src"
    (src / "js").mkdir(parents=True)
    (src / "media").mkdir()
    (src / "js" / "index.Ab12Cd34.js").write_bytes(JS)
    (src / "js" / "tiny.Ef56Gh78.js").write_bytes(b"export{};")  # gzip would make it longer
    (src / "media" / "font.Ij90Kl12.woff2").write_bytes(bytes(range(256)) * 8)
    return src


def test_the_warm_up_imports_every_app_module_and_builds_every_stage_figure() -> None:
    expected = {
        info.name
        for package in serve.PACKAGES
        for info in pkgutil.walk_packages(__import__(package).__path__, f"{package}.")
    }
    assert serve.import_all() == len(expected)
    assert expected <= set(sys.modules)
    assert "pandas" in sys.modules and "pyarrow" in sys.modules
    assert serve.build_figures() == 2 * len(STAGES)  # light desktop and dark phone


def test_text_files_get_a_gzip_twin_that_unpacks_to_them(frontend: Path, tmp_path: Path) -> None:
    root = precompress.ensure(tmp_path / "cache", source=frontend)
    big = root / "static" / "js" / "index.Ab12Cd34.js"
    assert big.read_bytes() == JS  # the file itself, for a client that takes no gzip
    packed = Path(f"{big}.gz").read_bytes()
    assert gzip.decompress(packed) == JS and len(packed) < len(JS) // 10
    # no twin where gzip saves nothing worth a header, nor for a compressed font
    assert not (root / "static" / "js" / "tiny.Ef56Gh78.js.gz").exists()
    assert (root / "static" / "media" / "font.Ij90Kl12.woff2").is_file()
    assert not (root / "static" / "media" / "font.Ij90Kl12.woff2.gz").exists()
    assert (root / precompress.DONE).is_file()
    assert not list((tmp_path / "cache").glob(".laying-*"))  # nothing half-made left


def test_a_finished_layout_is_reused_and_zopfli_only_shrinks_it(
    frontend: Path, tmp_path: Path
) -> None:
    root = precompress.ensure(tmp_path / "cache", source=frontend)
    twin = root / "static" / "js" / "index.Ab12Cd34.js.gz"
    before = twin.stat().st_size
    (frontend / "js" / "index.Ab12Cd34.js").write_bytes(b"changed")
    assert precompress.ensure(tmp_path / "cache", source=frontend) == root  # done: kept
    assert gzip.decompress(twin.read_bytes()) == JS

    pytest.importorskip("zopfli")
    count, old, new = precompress.recompress(root)
    assert count == 1 and old == before and new == twin.stat().st_size < before
    assert gzip.decompress(twin.read_bytes()) == JS
    assert (root / precompress.ZOPFLI_DONE).is_file()


def test_plotlys_chunk_is_zopfli_from_the_first_start(frontend: Path, tmp_path: Path) -> None:
    """Issue 34: a classroom stopped before the background pass ended served gzip -9 files,
    and the first load of /scores measured 3.01 MB: Plotly's chunk, 1.42 MB of it, now gets
    zopfli while the files are laid out."""
    pytest.importorskip("zopfli")
    (frontend / "js" / "PlotlyChart.Mn34Op56.js").write_bytes(JS * 2)
    root = precompress.ensure(tmp_path / "cache", source=frontend)
    twin = root / "static" / "js" / "PlotlyChart.Mn34Op56.js.gz"
    assert gzip.decompress(twin.read_bytes()) == JS * 2
    assert twin.stat().st_size < len(gzip.compress(JS * 2, compresslevel=9, mtime=0))
    other = root / "static" / "js" / "index.Ab12Cd34.js.gz"  # the rest: gzip -9 at first
    assert other.read_bytes() == gzip.compress(JS, compresslevel=9, mtime=0)


def test_the_background_pass_goes_biggest_first_and_resumes_where_it_stopped(
    frontend: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("zopfli")
    (frontend / "js" / "bigger.Qr78St90.js").write_bytes(JS * 3)
    root = precompress.ensure(tmp_path / "cache", source=frontend)
    squeeze, seen = precompress._zopfli, []

    def stopped_after_one(data: bytes) -> bytes | None:
        if data and seen:
            raise KeyboardInterrupt  # the classroom stopped mid-pass
        seen.extend([len(data)] if data else [])
        return squeeze(data)

    monkeypatch.setattr(precompress, "_zopfli", stopped_after_one)
    with pytest.raises(KeyboardInterrupt):
        precompress.recompress(root)
    assert seen == [len(JS) * 3]  # the biggest first
    assert not (root / precompress.ZOPFLI_DONE).exists()
    monkeypatch.setattr(precompress, "_zopfli", lambda d: seen.append(len(d)) or squeeze(d))
    seen.clear()
    count, _, _ = precompress.recompress(root)
    assert [n for n in seen if n] == [len(JS)] and count == 1  # only what was left
    assert (root / precompress.ZOPFLI_DONE).is_file()


def test_serve_takes_streamlit_run_options_as_st_app_config() -> None:
    """serve.py starts the server through st.App.run(config=...) (issue 45, item 8): the
    options make run, make classroom and the Dockerfile pass, in both spellings, typed as
    Streamlit's config file would type them."""
    argv = ["--server.port", "8501", "--server.address=0.0.0.0", "--server.headless=true",
            "--server.fileWatcherType", "none"]  # fmt: skip
    expected = {"server.port": 8501, "server.address": "0.0.0.0", "server.headless": True,
                "server.fileWatcherType": "none"}  # fmt: skip
    assert serve.flags(argv) == expected
    with pytest.raises(SystemExit, match=r"'app\.py'"):
        serve.flags(["app.py"])  # `streamlit run`'s script argument is not one of them
