"""What `docker build -f deploy/Dockerfile .` would make, without Docker (tests/deploy).

No image registry can be reached here, so the image is not built. Instead:

- the build context is the checkout filtered by ``deploy/Dockerfile.dockerignore``, with
  Docker's own rules (below: they are not .gitignore's);
- the Dockerfile is parsed (``dockerfile-parse``), and its files are laid out under a
  folder that stands for the image's ``/`` as its COPY lines say: a source missing from
  the context fails as the build would;
- its RUN steps are replayed by what each does; a step this module does not know fails,
  so a new step must be taught here. Installing the lock: the interpreter running the
  tests must hold exactly the lock's versions (it stands for the image's). Fetching a
  model: the checkout's own ``.model`` folder (fetched by the same script) is linked in.
  ``useradd``, ``mkdir -p`` and ``chown``: made, and the chowned folders are the only ones
  the image's user may write; every other file is read-only to it.

Docker's .dockerignore rules (moby's patternmatcher): patterns are matched against the
path from the context's root (``*`` matches one level only, ``**`` any number), a pattern
that matches a parent folder matches everything in it, and the last matching pattern
wins, a ``!`` pattern bringing a path back. (``pathspec``'s gitignore rules differ: there
``*`` matches at every depth, so ``!app_pages/`` could not bring back the files in it.)
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path, PurePosixPath

from dockerfile_parse import DockerfileParser
from packaging.markers import Marker

REPO_ROOT = Path(__file__).resolve().parents[2]
# what each model's fetch script makes, in the checkout (make model)
FETCHED = {"scripts/fetch_model.py": ".model/all-MiniLM-L6-v2",
           "scripts/fetch_decoder.py": ".model/SmolLM2-135M-Instruct"}  # fmt: skip


BIG = 16 * 2**20  # bytes: a file this large is linked into the layout, not copied


class BuildError(AssertionError):
    """What would stop `docker build`, or a step this replay does not know."""


# ---- .dockerignore -----------------------------------------------------------------------
@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    negated: bool
    text: str


def _pattern(line: str) -> Pattern:
    negated = line.startswith("!")
    text = os.path.normpath(line.removeprefix("!").strip()).lstrip("/")
    out, i = "", 0
    while i < len(text):
        if text.startswith("**", i):
            out += ".*"
            i += 2
            if text.startswith("/", i):  # "**/x" also matches "x" itself
                out, i = out[:-2] + "(?:.*/)?", i + 1
        elif text[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif text[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(text[i]), i + 1
    return Pattern(re.compile(out + r"\Z"), negated, text)


def read_dockerignore(path: Path) -> list[Pattern]:
    lines = [ln.strip() for ln in path.read_text().splitlines()]
    return [_pattern(ln) for ln in lines if ln and not ln.startswith("#")]


def ignored(rel: str, patterns: list[Pattern]) -> bool:
    """Docker's answer for the context path ``rel`` ("a/b/c"): left out of the context?"""
    parents = ["/".join(rel.split("/")[: i + 1]) for i in range(rel.count("/"))]
    out = False
    for p in patterns:
        if p.regex.match(rel) or any(p.regex.match(parent) for parent in parents):
            out = not p.negated
    return out


def build_context(root: Path, patterns: list[Pattern]) -> set[str]:
    """Every file the build would send, as paths relative to ``root``."""
    files: set[str] = set()
    for folder, dirs, names in os.walk(root):
        rel_dir = os.path.relpath(folder, root)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        # a folder left out whole, with no "!" pattern reaching inside it, is not walked
        dirs[:] = [
            d for d in dirs
            if not ignored(rel_dir + d, patterns)
            or any(p.negated and p.text.startswith(rel_dir + d + "/") for p in patterns)
        ]  # fmt: skip
        files |= {rel_dir + n for n in names if not ignored(rel_dir + n, patterns)}
    return files


# ---- the image ---------------------------------------------------------------------------
@dataclass
class Image:
    """The image laid out under ``root`` (its "/"), and what its last lines say."""

    root: Path
    workdir: str = "/"
    user: str = "root"
    env: dict[str, str] = field(default_factory=dict)
    entrypoint: list[str] = field(default_factory=list)
    healthcheck: str = ""
    exposed: list[str] = field(default_factory=list)
    users: dict[str, str] = field(default_factory=dict)  # name -> home (image path)
    writable: dict[str, set[str]] = field(default_factory=dict)  # user -> image paths
    base: str = ""

    def host(self, image_path: str) -> Path:
        """Where an image path is in the layout."""
        path = PurePosixPath(self.workdir) / image_path  # an absolute path stays itself
        return self.root / str(path).lstrip("/")

    def host_env(self) -> dict[str, str]:
        """The image's environment, its absolute paths moved into the layout."""
        return {k: str(self.host(v)) if v.startswith("/") else v for k, v in self.env.items()}


def lay_out(root: Path, dockerfile: Path, context: Path = REPO_ROOT) -> Image:
    """Replay ``dockerfile`` with ``context`` into ``root``; BuildError where the build
    would stop or a step is not known here."""
    patterns = read_dockerignore(dockerfile.with_name(dockerfile.name + ".dockerignore"))
    sent = build_context(context, patterns)
    parsed = DockerfileParser(path=str(dockerfile))
    image = Image(root)
    for step in parsed.structure:
        kind, value = step["instruction"], step["value"]
        if kind in ("COMMENT",):
            continue
        if kind == "FROM":
            image.base = value
        elif kind == "WORKDIR":
            image.workdir = str(PurePosixPath(image.workdir) / value)
            image.host(image.workdir).mkdir(parents=True, exist_ok=True)
        elif kind == "COPY":
            _copy(image, shlex.split(value), context, sent)
        elif kind == "ENV":
            name, _, env_value = value.partition("=")
            image.env[name.strip()] = env_value.strip().strip('"')
        elif kind == "RUN":
            for command in re.split(r"\s*&&\s*", value.strip()):
                _run(image, shlex.split(command), context)
        elif kind == "USER":
            image.user = value.strip()
        elif kind == "EXPOSE":
            image.exposed += value.split()
        elif kind == "HEALTHCHECK":
            image.healthcheck = value.split(" CMD ", 1)[1].strip()
        elif kind in ("ENTRYPOINT", "CMD"):
            image.entrypoint = json.loads(value)
        else:
            raise BuildError(f"{kind} {value}: this replay does not know the instruction")
    _lock_down(image)
    return image


def _copy(image: Image, args: list[str], context: Path, sent: set[str]) -> None:
    if args[0].startswith("--"):
        raise BuildError(f"COPY {' '.join(args)}: options are not replayed here")
    *sources, dest = args
    into_dir = dest.endswith("/") or len(sources) > 1 or dest == "."
    found = False
    for source in sources:
        pattern = any(c in source for c in "*?[")
        # a pattern may match nothing (Docker needs one source of the COPY to be there)
        src = os.path.normpath(source)
        tops = sorted({top for f in sent if fnmatch.fnmatchcase(top := f.split("/")[0], src)})
        for top in tops if pattern else [src]:
            files = sorted(f for f in sent if f == top or f.startswith(top + "/"))
            if not files and not pattern:
                raise BuildError(f"COPY {source}: not in the build context (see the .dockerignore)")
            found = found or bool(files)
            for rel in files:
                _place(image, context / rel, _target(image, rel, top, dest, into_dir))
    if not found:
        raise BuildError(f"COPY {' '.join(sources)}: no source in the build context")


def _target(image: Image, rel: str, src: str, dest: str, into_dir: bool) -> Path:
    if rel == src:  # a file
        return image.host(dest) / Path(src).name if into_dir else image.host(dest)
    return image.host(dest) / os.path.relpath(rel, src)  # a folder: its contents go into dest


def _place(image: Image, source: Path, target: Path) -> None:
    """A copy; a model's file (hundreds of MB) is linked instead, read-only like a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.stat().st_size > BIG:
        target.symlink_to(source)
    else:
        shutil.copy2(source, target)


def _run(image: Image, argv: list[str], context: Path) -> None:
    cmd = argv[0]
    if cmd in ("apt-get",) or (
        argv[:2] == ["rm", "-rf"] and argv[2].startswith(("/tmp/", "/var/lib/apt"))
    ):
        return  # system packages (curl: the health check) and their leftovers
    if argv[:3] == ["pip", "install", "--no-cache-dir"] and "--require-hashes" in argv:
        _check_lock(image.host(argv[argv.index("-r") + 1]))
    elif argv[:2] == ["rm", "-f"]:
        for path in argv[2:]:
            image.host(path).unlink(missing_ok=True)
    elif cmd == "python" and argv[1] in FETCHED and _image_arg(image, argv, "--dest").is_dir():
        # the models copied in from the context: the script itself checks them (no index:
        # a broken copy would make it download, and fail here)
        script = image.host(str(PurePosixPath(image.workdir) / argv[1]))
        dest = _image_arg(image, argv, "--dest")
        subprocess.run([sys.executable, str(script), "--dest", str(dest)], check=True,
                       env={**os.environ, "PIP_NO_INDEX": "1"})  # fmt: skip
    elif cmd == "python" and argv[1] in FETCHED:
        dest = image.host(argv[argv.index("--dest") + 1])
        fetched = context / FETCHED[argv[1]]
        if not fetched.is_dir():
            raise BuildError(f"{fetched} is missing: run `make model` first")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.symlink_to(fetched, target_is_directory=True)
    elif cmd == "python" and argv[1] == "scripts/compile_catalogue.py":
        # the language catalogues' .mo files, compiled in the image's tree (issue 36)
        script = image.host(str(PurePosixPath(image.workdir) / argv[1]))
        subprocess.run([sys.executable, str(script), *argv[2:]], check=True)
    elif cmd == "useradd" and "--create-home" in argv:
        image.users[argv[-1]] = f"/home/{argv[-1]}"
        image.host(f"/home/{argv[-1]}").mkdir(parents=True)
        image.writable.setdefault(argv[-1], set()).add(f"/home/{argv[-1]}")
    elif argv[:2] == ["mkdir", "-p"]:
        for path in argv[2:]:
            image.host(path).mkdir(parents=True, exist_ok=True)
    elif cmd == "chown" and not argv[1].startswith("-"):
        user = argv[1].split(":")[0]
        if user not in image.users:
            raise BuildError(f"chown {argv[1]}: no such user in the image")
        for path in argv[2:]:
            image.writable.setdefault(user, set()).add(str(PurePosixPath(image.workdir) / path))
    else:
        raise BuildError(f"RUN {shlex.join(argv)}: a step this replay does not know")


def _image_arg(image: Image, argv: list[str], option: str) -> Path:
    """The image path given after ``option``, in the layout."""
    return image.host(argv[argv.index(option) + 1])


def _check_lock(lock: Path) -> None:
    """The interpreter running the tests stands for the image's: it must hold the lock."""
    if not lock.is_file():
        raise BuildError(f"{lock.name} was not copied before it is installed")
    wrong = []
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)(?: ; ([^\\\n]+?))?\s*\\?$",
                      lock.read_text(), re.M)  # fmt: skip
    for name, version, marker in pins:
        if marker and not Marker(marker).evaluate():  # another platform's (a universal lock)
            continue
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = "absent"
        if have != version:
            wrong.append(f"{name} {have} (lock: {version})")
    if wrong:
        raise BuildError(f"{sys.executable} does not hold {lock.name}: {wrong}")


def _lock_down(image: Image) -> None:
    """Everything read-only; each user's folders its own (when we may chown, as root)."""
    uid = run_as_uid()
    for folder, dirs, names in os.walk(image.root):
        for name in dirs:
            os.chmod(Path(folder) / name, 0o555)
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink():
                os.chmod(path, 0o444)
    for paths in image.writable.values():
        for path in paths:
            host = image.host(path)
            os.chmod(host, 0o755)
            if os.geteuid() == 0:
                os.chown(host, uid, uid)


def run_as_uid() -> int:
    """The image's user: as root, nobody's uid (65534), which owns nothing here; else our own
    (whose missing write bits then keep the rest read-only)."""
    return 65534 if os.geteuid() == 0 else os.geteuid()


def as_image_user(uid: int) -> list[str]:
    """The command prefix that runs a program as ``uid`` when we are root (setpriv, from
    util-linux), keeping one capability: to read and search any file, as the image's user
    can read its image's files; so the interpreter and the models, wherever the checkout
    put them (/root/.pyenv is 700), stand for the image's. It writes only where ``uid``
    may. Not root: nothing to switch."""
    if os.geteuid() != 0 or uid == 0:
        return []
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", "--"]  # fmt: skip


def unlock(root: Path) -> None:
    """Give the layout back to its owner, so that it can be removed."""
    for folder, dirs, _ in os.walk(root):
        for name in dirs:
            os.chmod(Path(folder) / name, 0o755)
    os.chmod(root, 0o755)
