"""What deploy/ promises that no test here can run (Docker's daemon does not run on this
machine or in CI), read from the files themselves (issue 45, items 1, 2, 4 and 6):

- compose.yml: every service restarts unless stopped; nothing starts before what it needs is
  healthy, and each service waited for has a health check; the public address defaults to
  nothing (the teacher's own address), never to localhost.
- nginx-compose.conf: `app` is found again by name (`resolve`, a `resolver` on Docker's DNS
  server and the upstream's shared `zone`), by an nginx that has `resolve` (1.27.3 or later).
  What stays unproven here: that Docker's DNS answers a recreated replica's new address, and
  that nginx 1.30 really follows it (Debian's nginx is 1.22: the compose stack's test runs a
  copy without `resolve`, tests/deploy/compose_stack.py).
- every image (the Dockerfile's base, compose's redis and nginx) is pinned by a digest, so a
  rebuild gets the same bytes whatever the tag points at by then (issue 45, item 3).
- the root .dockerignore is deploy/Dockerfile.dockerignore, for the builders that read only it.
- uploads: Streamlit and every nginx in front of it refuse what the app would refuse anyway.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from attention_core.scenario import MAX_JSON_BYTES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
MB = 1024 * 1024  # Streamlit's and nginx's megabyte
MULTIPART_MB = 1  # Streamlit's own margin over maxUploadSize for a multipart body


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yml").read_text())


def test_every_service_restarts_unless_stopped(compose: dict) -> None:
    services = compose["services"]
    assert {name: s.get("restart") for name, s in services.items()} == dict.fromkeys(
        services, "unless-stopped"
    )


def test_nothing_starts_before_what_it_needs_is_healthy(compose: dict) -> None:
    services = compose["services"]
    needs = {name: s.get("depends_on", {}) for name, s in services.items()}
    assert needs["app"] and needs["lb"], needs
    for name, deps in needs.items():
        assert isinstance(deps, dict), f"{name}: depends_on without conditions: {deps}"
        for dep, how in deps.items():
            assert how == {"condition": "service_healthy"}, (name, dep, how)
            assert services[dep].get("healthcheck", {}).get("test"), f"{dep} has no check"


def test_the_app_checks_its_health_as_the_image_does(compose: dict) -> None:
    check = compose["services"]["app"]["healthcheck"]["test"]
    image = re.search(r"^HEALTHCHECK .*CMD (.+?)( \|\| exit 1)?$",
                      (DEPLOY / "Dockerfile").read_text(), re.M)  # fmt: skip
    assert image and " ".join(check[1:]) == image.group(1), (check, image)


def test_the_public_address_defaults_to_nothing_not_localhost(compose: dict) -> None:
    value = compose["services"]["app"]["environment"]["ATTENTION_LAB_PUBLIC_URL"]
    assert value == "${ATTENTION_LAB_PUBLIC_URL:-}", value


def nginx_compose() -> str:
    conf = (DEPLOY / "nginx-compose.conf").read_text()
    return re.sub(r"#.*", "", conf)  # what nginx reads


def test_nginx_finds_app_again_by_name(compose: dict) -> None:
    conf = nginx_compose()
    upstream = re.search(r"upstream attention_lab \{(.*?)\}", conf, re.S)
    assert upstream, conf
    servers = re.findall(r"^\s*server\s+([^;]+);", upstream.group(1), re.M)
    assert servers and all(s.split()[0].startswith("app:") and "resolve" in s.split()[1:]
                           for s in servers), servers  # fmt: skip
    assert re.search(r"^\s*zone attention_lab \d+k;", upstream.group(1), re.M)
    # Docker's embedded DNS server, answering for the compose network's names
    assert re.search(r"^\s*resolver 127\.0\.0\.11\b[^;]*\bvalid=\d+s", conf, re.M), conf
    image = compose["services"]["lb"]["image"]
    version = tuple(int(n) for n in re.match(r"nginx:(\d+)\.(\d+)", image).groups())
    assert version >= (1, 27), f"{image}: `resolve` in an upstream needs nginx 1.27.3"


# the tag for the reader, then the digest
PINNED = re.compile(r"^[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}$")


def test_every_image_is_pinned_by_digest(compose: dict) -> None:
    built = [img for svc in compose["services"].values() if (img := svc.get("image"))]
    bases = re.findall(r"^FROM\s+(\S+)", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert len(built) == 2 and len(bases) == 1, (built, bases)
    unpinned = [img for img in (*built, *bases) if not PINNED.match(img)]
    assert not unpinned, f"pin these by digest (deploy/Dockerfile says how): {unpinned}"


def test_the_root_dockerignore_is_the_dockerfiles() -> None:
    assert (ROOT / ".dockerignore").read_bytes() == (
        DEPLOY / "Dockerfile.dockerignore"
    ).read_bytes()


def test_streamlit_and_nginx_take_no_more_than_the_app_loads() -> None:
    """Streamlit's default is 200 MB and nginx was told the same, where the app refuses a
    scenario file over 8,000,000 bytes: a 199 MB upload reached memory to be refused."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    most = config["server"]["maxUploadSize"]
    assert (most - 1) * MB < MAX_JSON_BYTES <= most * MB, (most, MAX_JSON_BYTES)
    confs = {
        "nginx-compose.conf": nginx_compose(),
        "nginx-lb.conf": (DEPLOY / "nginx-lb.conf").read_text(),
        "classroom.sh": (DEPLOY / "classroom.sh").read_text(),
    }
    for name, text in confs.items():
        sizes = re.findall(r"^\s*client_max_body_size (\d+)m;", text, re.M)
        assert sizes == [str(most + MULTIPART_MB)], (name, sizes)
