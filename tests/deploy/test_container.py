"""deploy/Dockerfile and deploy/compose.yml, proven without Docker (tests/deploy/image.py).

The image's files are laid out as its COPY and RUN lines say, then its entry point runs as
an unprivileged user with the image's environment, on a layout it can write only where the
Dockerfile lets it: the health check, a walkthrough page, both labs with their models and a
live class's watch file. Then the compose stack, as compose runs it: Redis, two app
processes of the same image and nginx with deploy/nginx-compose.conf as its whole
nginx.conf, each on its own loopback address under its service's name, in a network and
mount namespace of their own (tests/deploy/compose_stack.py).

What this cannot see (no Docker daemon runs here or in CI, and no registry answers):
- the base image (python:3.11-slim) and its `apt-get install curl`: the health check runs
  this machine's curl;
- `pip install --require-hashes -r requirements.lock` on that image: the replay runs this
  machine's Python with the .venv's packages (the same lock, installed by uv);
- the models' download during the build (the fallback when .model/ was not fetched): the
  replay copies in the checkout's .model/ (`make model`) and runs the scripts' own check;
- Docker's DNS: the services are named in an /etc/hosts of the namespace, so nginx's
  `resolve` (nginx 1.27.3+, the image's 1.30) finding a recreated replica is not run; with
  Debian's nginx 1.22 the stack runs the configuration without `resolve`;
- Docker applying compose.yml's restart policies and health-gated start.
tests/deploy/test_restart_policies.py reads those from the files themselves.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy import image as img
from tests.deploy.page_client import open_page
from tests.ports import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO_ROOT / "deploy" / "Dockerfile"
COMPOSE_NGINX = REPO_ROOT / "deploy" / "nginx-compose.conf"
NEEDS_MODELS = pytest.mark.skipif(
    not all((REPO_ROOT / d).is_dir() for d in img.FETCHED.values()),
    reason="the models are not fetched: run `make model`",
)


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[img.Image]:
    root = tmp_path_factory.mktemp("image")
    os.chmod(root, 0o755)  # the image's user must reach its files
    yield img.lay_out(root, DOCKERFILE)
    img.unlock(root)


def entry_argv(image: img.Image, address: str, port: int) -> list[str]:
    """The entry point with the test's interpreter as `python`, on ``address:port``."""
    swap = {"--server.port=8501": f"--server.port={port}",
            "--server.address=0.0.0.0": f"--server.address={address}"}  # fmt: skip
    argv = [swap.get(a, a) for a in image.entrypoint]
    return [sys.executable if a == "python" else a for a in argv]


def image_env(image: img.Image, **extra: str) -> dict[str, str]:
    home = image.host(image.users[image.user])
    return {"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(home), "LANG": "C.UTF-8", **image.host_env(), **extra}  # fmt: skip


def as_user(argv: list[str]) -> list[str]:
    """``argv`` as the image's user (tests/deploy/image.py, run_as_uid)."""
    return img.as_image_user(img.run_as_uid()) + argv


@pytest.fixture(scope="module")
def container(image: img.Image) -> Iterator[str]:
    port = free_port()
    log = image.root.parent / "container.log"
    with log.open("w") as out:
        proc = subprocess.Popen(as_user(entry_argv(image, "127.0.0.1", port)),
                                cwd=image.host(image.workdir), env=image_env(image),
                                stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while not healthy(image, port):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the image's entry point did not answer:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def healthy(image: img.Image, port: int) -> bool:
    """The image's own HEALTHCHECK command (curl), on the test's port."""
    command = image.healthcheck.replace("localhost:8501", f"localhost:{port}")
    return subprocess.run(["sh", "-c", command], capture_output=True).returncode == 0


def test_the_context_holds_what_the_image_copies_and_nothing_of_the_checkouts_own() -> None:
    patterns = img.read_dockerignore(DOCKERFILE.with_name("Dockerfile.dockerignore"))
    sent = img.build_context(REPO_ROOT, patterns)
    assert {"serve.py", "app.py", "requirements.lock", "scripts/fetch_model.py",
            "static/README.md", ".streamlit/config.toml"} <= sent  # fmt: skip
    assert any(f.startswith("attention_ui/live/") for f in sent)
    tops = {f.split("/")[0] for f in sent}
    assert not tops & {".venv", ".git", "tests", "bench", ".runtime", "docs"}, tops
    # of .model, the two models `make model` made, never its GGUF download (issue 45, item 3)
    models = {"/".join(f.split("/")[:2]) for f in sent if f.startswith(".model/")}
    assert models <= set(img.FETCHED.values()), models
    assert not [f for f in sent if "__pycache__" in f or f.startswith("static/live/")]


@NEEDS_MODELS
def test_the_image_takes_the_models_fetched_before_the_build(image: img.Image) -> None:
    """After `make model`, the models come in with the build context (COPY .mode[l]) and the
    fetch scripts only check them: each file in the image is the checkout's own."""
    for fetched in img.FETCHED.values():
        folder = image.host(fetched)
        assert folder.is_dir() and not folder.is_symlink(), folder  # copied, not fetched
        names = {p.name for p in (REPO_ROOT / fetched).iterdir()}
        assert names and {p.name for p in folder.iterdir()} == names
        for name in names:
            assert (folder / name).resolve() == (REPO_ROOT / fetched / name).resolve() or (
                (folder / name).read_bytes() == (REPO_ROOT / fetched / name).read_bytes()
            )
    assert not image.host(".model/requirements.lock").exists()  # COPY's companion, removed
    assert not image.host(".model/smollm2-gguf").exists()


def test_without_fetched_models_the_build_goes_on_to_download_them(tmp_path: Path) -> None:
    """The fallback: a context without .model passes its COPY and reaches the fetch step
    (which the replay cannot run: it has no network, so it says to run `make model`)."""
    head = DOCKERFILE.read_text().split("\n# The app;")[0]
    assert "COPY requirements.lock .mode[l] .model/" in head
    context = tmp_path / "context"
    for rel in ("requirements.lock", "scripts/fetch_model.py", "scripts/fetch_decoder.py"):
        (context / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / rel, context / rel)
    (context / "attention_core").mkdir()
    (context / "attention_core" / "__init__.py").write_text("")
    (tmp_path / "Dockerfile").write_text(head + "\n")
    shutil.copy(DOCKERFILE.with_name("Dockerfile.dockerignore"), tmp_path)
    with pytest.raises(
        img.BuildError, match=r"\.model/all-MiniLM-L6-v2 is missing: run `make model`"
    ):
        img.lay_out(tmp_path / "root", tmp_path / "Dockerfile", context=context)


def test_dockerignore_follows_dockers_rules_not_gitignores() -> None:
    patterns = [img._pattern(p) for p in ("*", "!app.py", "!pkg/", "pkg/live/", "**/__pycache__")]
    assert not img.ignored("app.py", patterns)
    assert img.ignored("sub/app.py", patterns)  # "*" and "!app.py" are anchored at the root
    assert not img.ignored("pkg/a/b.py", patterns)  # "!pkg/" brings back all that is in it
    assert img.ignored("pkg/live/CODE", patterns)
    assert img.ignored("pkg/a/__pycache__/b.pyc", patterns)


def test_a_copy_of_a_file_the_context_does_not_send_stops_the_build(tmp_path: Path) -> None:
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text("FROM python:3.11-slim\nWORKDIR /app\nCOPY app.py serve.py ./\n")
    (tmp_path / "Dockerfile.dockerignore").write_text("*\n!app.py\n")
    with pytest.raises(img.BuildError, match=r"COPY serve\.py: not in the build context"):
        img.lay_out(tmp_path / "root", dockerfile)


def test_the_image_runs_as_a_user_that_writes_only_its_two_folders(image: img.Image) -> None:
    assert image.user == "lab" and image.exposed == ["8501"]
    assert image.writable["lab"] == {"/home/lab", "/app/.runtime", "/app/static/live"}
    assert image.env["ATTENTION_LAB_RUNTIME"] == "/app/.runtime"
    probe = ("import pathlib, sys\n"
             "for p in sys.argv[1:]:\n"
             "    try: pathlib.Path(p, 'probe').write_text('x'); print('wrote', p)\n"
             "    except OSError: print('refused', p)\n")  # fmt: skip
    paths = [image.host(p) for p in ("/app", "/app/attention_ui", "/app/.runtime",
                                     "/app/static/live")]  # fmt: skip
    out = subprocess.run(
        as_user([sys.executable, "-c", probe, *map(str, paths)]),
        capture_output=True,
        text=True,
        check=True,
        env=image_env(image),
    ).stdout
    assert out.split("\n")[:4] == [f"refused {paths[0]}", f"refused {paths[1]}",
                                   f"wrote {paths[2]}", f"wrote {paths[3]}"]  # fmt: skip


def test_the_image_compiles_every_language_catalogue(image: img.Image) -> None:
    """The .mo files are not in the repository: the build compiles one per .po (issue 36)."""
    locale = image.host("/app/attention_ui/i18n/locale")
    built = sorted(p.parents[1].name for p in locale.glob("*/LC_MESSAGES/messages.mo"))
    assert built == ["de", "es", "fr", "zh"]
    for code in built:  # a whole catalogue, not an empty one
        mo = locale / code / "LC_MESSAGES" / "messages.mo"
        assert mo.stat().st_size > 10_000


@NEEDS_MODELS
def test_the_image_serves_health_a_walkthrough_page_and_both_labs(container: str) -> None:
    with urllib.request.urlopen(f"{container}/_stcore/health", timeout=10) as r:
        assert r.read() == b"ok"
    scores = open_page(container, "scores")
    assert not scores.exceptions and "Q K" in scores.text.replace("K^T", "K")
    real = open_page(container, "real-model")
    assert not real.exceptions, real.exceptions
    assert "not on this machine" not in real.text and "heads have a clear pattern" in real.text
    decoder = open_page(container, "decoder")
    assert not decoder.exceptions, decoder.exceptions
    assert "not on this machine" not in decoder.text
    assert "The tokens, as the model reads them" in decoder.text


def test_a_followed_room_gets_its_watch_file_from_the_image(
    image: img.Image, container: str
) -> None:
    opened = ("from attention_core import default_scenario\n"
              "from attention_ui.classroom.rooms import Rooms\n"
              "from attention_ui.storage.store import open_store\n"
              "room, _ = Rooms(open_store()).open('present', 1, default_scenario().to_url())\n"
              "print(room.code, room.version)\n")  # fmt: skip
    out = subprocess.run(as_user([sys.executable, "-c", opened]), cwd=image.host(image.workdir),
                         env=image_env(image), capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    code, version = out.split()
    assert image.host("/app/.runtime/live.db").is_file()  # the store, where the lab user writes
    follower = open_page(container, "", f"join={code}")
    assert not follower.exceptions, follower.exceptions
    body, deadline = b"", time.monotonic() + 10
    while body != version.encode() and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            with urllib.request.urlopen(f"{container}/app/static/live/{code}", timeout=5) as r:
                body = r.read().strip()
        except OSError:
            continue
    assert body == version.encode()
    assert (image.host("/app/static/live") / code).stat().st_uid == img.run_as_uid()


# ---- the compose stack ----------------------------------------------------------------------
def in_namespace(*argv: str) -> list[str]:
    """``argv`` in a network and mount namespace of its own."""
    return ["unshare", "--net", "--mount", *argv]


def need_namespaces() -> None:
    """As root (CI is): nginx, redis-server and a namespace of our own; CI must have them."""
    tools = all(shutil.which(t) for t in ("unshare", "nginx", "redis-server"))
    if os.geteuid() == 0 and tools and subprocess.run(in_namespace("true")).returncode == 0:
        return
    if os.environ.get("CI"):
        pytest.fail("CI must run the compose stack: root, unshare, and .ci/run's nginx and redis")
    pytest.skip("needs root, nginx, redis-server and unshare (a network namespace)")


def test_the_compose_nginx_conf_passes_nginx_t_as_its_whole_config(tmp_path: Path) -> None:
    need_namespaces()
    from tests.deploy.compose_stack import HOSTS, conf_for_this_nginx

    hosts = tmp_path / "hosts"
    hosts.write_text(HOSTS)
    conf = conf_for_this_nginx(str(COMPOSE_NGINX), tmp_path)
    script = (f"mount --bind {hosts} /etc/hosts && "
              f"exec nginx -t -c {conf} -e {tmp_path}/error.log "
              f"-g 'pid {tmp_path}/nginx.pid;'")  # fmt: skip
    result = subprocess.run(in_namespace("sh", "-c", script), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr and "test is successful" in result.stderr


@NEEDS_MODELS
def test_the_compose_stack_serves_through_nginx_with_the_room_in_redis(
    image: img.Image, tmp_path: Path
) -> None:
    """compose_stack.py starts the services in their namespace and reports what it saw."""
    need_namespaces()
    os.chmod(tmp_path, 0o755)
    app = {"argv": entry_argv(image, "{address}", 8501), "cwd": str(image.host(image.workdir)),
           "env": image_env(image), "uid": img.run_as_uid()}  # fmt: skip
    spec = tmp_path / "app.json"
    spec.write_text(json.dumps(app))
    result = subprocess.run(
        in_namespace(sys.executable, "-m", "tests.deploy.compose_stack", str(spec),
                     str(COMPOSE_NGINX), str(tmp_path)),
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["health"] == ["ok", "ok", "ok"]  # app 1, app 2, and through nginx
    assert seen["page_errors"] == [] and seen["scores_drawn"]
    assert seen["watch_file"] == seen["room_version"]  # through nginx, the room in Redis
    assert seen["rooms_in_redis"] == 1
