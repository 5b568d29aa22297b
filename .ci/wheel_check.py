"""The wheel check of .ci/run: what a user gets from `pip install shensha-plates`, not from the checkout.

1. Build the wheel from a copy of the tracked files (no stale build/ folder can slip into it).
2. Install it, not editable, into a fresh virtual environment.
3. From a folder outside the checkout, check that the packages load from that environment and run
   every command of .ci/wheel-commands.txt, once with QT_QPA_PLATFORM=offscreen and once with no
   display at all (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM).

    python3 .ci/wheel_check.py [--keep DIR]

Standard library only; prints one line per check and exits 1 on the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = REPO / ".ci" / "wheel-commands.txt"
PROGRAM = "shensha-plates"
MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}
NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONPATH")


def fail(message: str) -> None:
    print(f"wheel check: FAILED: {message}", flush=True)
    raise SystemExit(1)


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=cwd, env=env)


def tracked_files() -> list[str]:
    """The files a clean clone has (tracked, plus any not yet committed but not ignored)."""
    if (REPO / ".git").exists():
        proc = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO)
        if proc.returncode == 0:
            return [f for f in proc.stdout.splitlines() if (REPO / f).is_file()]
    return [str(p.relative_to(REPO)) for p in REPO.rglob("*")
            if p.is_file() and not {".git", ".venv", "__pycache__", "build", "dist"} & set(p.parts)]


def build_wheel(work: Path) -> Path:
    src = work / "src"
    for rel in tracked_files():
        dest = src / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest)
    dist = work / "dist"
    proc = run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(src), "-w", str(dist)])
    if proc.returncode != 0:
        fail("pip wheel: " + proc.stdout + proc.stderr)
    wheels = list(dist.glob("*.whl"))
    if len(wheels) != 1:
        fail(f"expected one wheel, found {wheels}")
    print(f"built {wheels[0].name}", flush=True)
    return wheels[0]


def install(wheel: Path, work: Path) -> Path:
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    py = env_dir / "bin" / "python"
    proc = run([str(py), "-m", "pip", "install", "-q", str(wheel)])
    if proc.returncode != 0:
        fail("pip install: " + proc.stdout + proc.stderr)
    print(f"installed into {env_dir}", flush=True)
    return env_dir


def environment(env_dir: Path, offscreen: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY and k != "VIRTUAL_ENV"}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    if offscreen:
        env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def check_imports(env_dir: Path, cwd: Path) -> None:
    code = ("import shensha_plates.core, shensha_plates.resources.systems, shensha_plates.resources.catalog\n"
            "import shensha_plates.resources.fonts, shensha_plates.gui.shell.launcher\n"
            "import shensha_plates.gui.shell.main_window, shensha_plates.gui.panels.classroom\n"
            "import shensha_plates.gui.export.snapshot\n"
            "print(shensha_plates.core.__file__)")
    proc = run([str(env_dir / "bin" / "python"), "-c", code], cwd=cwd, env=environment(env_dir, True))
    if proc.returncode != 0:
        fail("import: " + proc.stderr)
    where = Path(proc.stdout.strip()).resolve()
    if REPO in where.parents or env_dir.resolve() not in where.parents:
        fail(f"core was imported from {where}, not from the installed wheel")
    print(f"packages load from the wheel ({where.parent})", flush=True)


def commands() -> list[tuple[bool, list[str]]]:
    out = []
    for line in COMMANDS.read_text("utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        optional = line.startswith("?")
        out.append((optional, shlex.split(line.lstrip("?").strip())))
    return out


def check_command(env_dir: Path, args: list[str], cwd: Path, offscreen: bool) -> None:
    label = f"{PROGRAM} {shlex.join(args)}" + ("" if offscreen else "  [no display]")
    exe = str(env_dir / "bin" / PROGRAM)
    outputs = [Path(args[i + 1]) for i, a in enumerate(args[:-1]) if a in ("-o", "--output")]
    for path in outputs:
        path.unlink(missing_ok=True)
    proc = run([exe, *args], cwd=cwd, env=environment(env_dir, offscreen))
    if proc.returncode != 0:
        fail(f"{label}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    if "Traceback" in proc.stderr:
        fail(f"{label}: a traceback on stderr: {proc.stderr[-2000:]}")
    for path in outputs:
        if not path.is_file():
            fail(f"{label}: {path} was not written")
        head = path.read_bytes()[:64]
        magic = MAGIC.get(path.suffix.lower())
        if magic is not None and not head.startswith(magic):
            fail(f"{label}: {path} does not start as a {path.suffix} file: {head!r}")
        if path.suffix.lower() == ".svg" and b"<svg" not in path.read_bytes()[:4096]:
            fail(f"{label}: {path} has no <svg> element")
    if not outputs:
        if not proc.stdout.strip():
            fail(f"{label}: printed nothing")
        if "--format" in args and args[args.index("--format") + 1] == "json":
            try:
                json.loads(proc.stdout)
            except ValueError as e:
                fail(f"{label}: not JSON: {e}")
    size = ", ".join(f"{p.name} {p.stat().st_size} bytes" for p in outputs) or f"{len(proc.stdout)} chars"
    print(f"ok  {label}  ({size})", flush=True)


def has_subcommand(env_dir: Path, name: str, cwd: Path) -> bool:
    proc = run([str(env_dir / "bin" / PROGRAM), name, "--help"], cwd=cwd, env=environment(env_dir, True))
    return proc.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="work in this folder and leave it (default: a temporary one)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="shensha-wheel-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        wheel = build_wheel(work)
        env_dir = install(wheel, work)
        cwd = work / "run"  # outside the checkout: nothing can be imported from it by accident
        cwd.mkdir(exist_ok=True)
        check_imports(env_dir, cwd)
        ran = skipped = 0
        for optional, cmd in commands():
            cmd = [a.replace("{out}", str(cwd)) for a in cmd]
            if optional and not has_subcommand(env_dir, cmd[0], cwd):
                print(f"--  {PROGRAM} {cmd[0]}: not in this version, skipped", flush=True)
                skipped += 1
                continue
            for offscreen in (True, False):
                check_command(env_dir, cmd, cwd, offscreen)
                ran += 1
        print(f"wheel check: passed ({ran} runs, {skipped} commands not present)", flush=True)
        return 0
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
