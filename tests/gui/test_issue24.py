"""Issue 24, nothing crashes and nothing is lost: every item checked in a real process where the
fault lives in a process (signals, displays, locales, closed streams, time zones)."""

from __future__ import annotations

import os
import re
import stat
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

STATE = ["--year", "丙午", "--month", "11", "--xun", "甲辰"]
LAUNCHER = [sys.executable, "-m", "shensha_plates.gui.shell.launcher"]


def env_with(**changes: str | None) -> dict[str, str]:
    """The process's environment with ``changes`` (None: the variable removed)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def launch(*args: str, cwd: Path, suffix: str = "", **env: str | None) -> subprocess.CompletedProcess[str]:
    cmd = [*LAUNCHER, *args]
    if suffix:
        cmd = ["sh", "-c", " ".join(map(shlex.quote, cmd)) + " " + suffix]
    return subprocess.run(cmd, cwd=cwd, env=env_with(**env), capture_output=True, text=True, timeout=120)


# -- item 9: booklet -o t.pdf/ ---------------------------------------------------------------------

def test_booklet_refuses_a_name_ending_in_a_slash(tmp_path: Path) -> None:
    proc = launch("booklet", "--year", "丙午", "--quiet", "-o", "t.pdf/", cwd=tmp_path)
    assert proc.returncode == 2 and "names a folder" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "t.pdf").exists()


# -- items 10 and 11: ke's note on a repeated clock time; warnings on rejected readings --------------

def test_ke_notes_a_clock_time_shown_twice(tmp_path: Path) -> None:
    proc = launch("ke", "--date", "2026-11-01T01:30", "--tz", "America/New_York", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "note: 2026-11-01T01:30 occurs twice in America/New_York" in proc.stderr
    assert "2026-11-01T01:30-05:00" in proc.stderr


@pytest.mark.parametrize("command", [["ke", "--day", "辛巳", "--hour", "午", "--general", "寅"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "b.pdf"]])
def test_a_rejected_reading_is_never_chosen_silently(tmp_path: Path, command: list[str]) -> None:
    proc = launch(*command, "--variant", "tian_xi=shun_twelve", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "warning: tian_xi=shun_twelve (天喜) is a reading Zhuang rejects" in proc.stderr


# -- item 12: no locale warning from Qt ----------------------------------------------------------------

@pytest.mark.parametrize("locale_env", [{"LANG": "C"}, {"LC_ALL": "POSIX"}, {"LC_ALL": "xx_YY.UTF-8"},
                                        {"LANG": "de_DE.ISO-8859-1"}])
@pytest.mark.parametrize("command", [["snapshot", *STATE, "--size", "300", "-o", "p.png"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "b.pdf"]])
def test_no_locale_warning_under_a_locale_that_is_not_utf8(tmp_path: Path, locale_env: dict[str, str],
                                                            command: list[str]) -> None:
    cleared = {k: None for k in os.environ if k.startswith("LC_") or k in ("LANG", "LANGUAGE")}
    proc = launch(*command, cwd=tmp_path, **{**cleared, **locale_env})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert (tmp_path / command[-1]).stat().st_size > 0


# -- item 14: the same PDF in every time zone -----------------------------------------------------------

def _xref_holds(data: bytes) -> None:
    """Every offset of the cross-reference table points at its object; startxref at the table."""
    start = int(re.search(rb"startxref\s+([0-9]+)\s+%%EOF\s*\Z", data).group(1))  # type: ignore[union-attr]
    assert data[start:start + 4] == b"xref"
    for number, offset in enumerate(int(m.group(1)) for m in re.finditer(rb"([0-9]{10}) [0-9]{5} n", data[start:])):
        assert data[offset:].startswith(b"%d 0 obj" % (number + 1)), (number + 1, data[offset:offset + 20])


@pytest.mark.parametrize("command", [["snapshot", *STATE, "-o", "p.pdf"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "p.pdf"]])
def test_the_same_pdf_bytes_in_every_time_zone(tmp_path: Path, command: list[str]) -> None:
    files = []
    for tz in ("UTC", "America/New_York", "Asia/Kolkata"):
        folder = tmp_path / tz.replace("/", "-")
        folder.mkdir()
        proc = launch(*command, cwd=folder, TZ=tz)
        assert proc.returncode == 0, proc.stderr
        files.append((folder / "p.pdf").read_bytes())
    assert files[0] == files[1] == files[2]
    assert b"(D:20000101000000Z)" in files[0] and b"-05'00'" not in files[1] and b"-05:00" not in files[1]
    _xref_holds(files[1])
    import pypdf
    reader = pypdf.PdfReader(tmp_path / "America-New_York" / "p.pdf", strict=True)
    assert reader.metadata is not None and reader.metadata["/CreationDate"] == "D:20000101000000Z"
    assert len(reader.pages) >= 2


# -- item 15: standard output closed -------------------------------------------------------------------

@pytest.mark.parametrize("command", [["snapshot", *STATE, "--size", "300", "-o", "p.png"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "p.pdf"]])
def test_a_closed_standard_output_does_not_fail_a_written_file(tmp_path: Path, command: list[str]) -> None:
    proc = launch(*command, cwd=tmp_path, suffix=">&-")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert (tmp_path / command[-1]).stat().st_size > 0


# -- item 1: Ctrl+C at several moments of the work ------------------------------------------------------

# The process says "go" once the program's first lines have run (the launcher's module, which sets up
# the handling of signals before anything else is imported), so that the moments are counted from the
# program's start, not from the interpreter's, which on a loaded machine takes a varying time. A signal
# in the interpreter's own start-up (before any line of the program) is Python's, and not tested here.
_GO = ("import sys; from shensha_plates.gui.shell.launcher import main; sys.stderr.write('go\\n'); "
       "sys.stderr.flush(); sys.exit(main())")
INTERRUPTED = {
    "booklet": (["booklet", "--year", "丙午", "-o", "out.pdf"], "out.pdf"),
    "png": (["snapshot", *STATE, "--size", "5000", "-o", "out.png"], "out.png"),
    "pdf": (["snapshot", *STATE, "-o", "out.pdf"], "out.pdf"),
    "show": (["show", *STATE, "--format", "json"], None),
    "ke": (["ke", "--all"], None),
}


def interrupt_at(delay: float, args: list[str], cwd: Path, sig: int) -> tuple[int, str, str]:
    import signal  # noqa: F401 - the caller's numbers
    import time
    proc = subprocess.Popen([sys.executable, "-c", _GO, *args], cwd=cwd, env=env_with(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    assert proc.stderr.readline() == b"go\n"
    time.sleep(delay)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("what", list(INTERRUPTED))
def test_an_interrupt_at_any_moment_is_a_quiet_exit_that_writes_nothing(tmp_path: Path, what: str,
                                                                        sig: str) -> None:
    import signal
    signum = getattr(signal, sig)
    args, target = INTERRUPTED[what]
    if sig == "SIGTERM" and what in ("show", "ke"):
        pytest.skip("one signal is enough for the text commands")
    stopped = 0
    moments = (0.0, 0.01, 0.03, 0.1, 0.25, 0.5, 0.8, 1.2, 2.0)
    for delay in moments:
        if target is not None:
            (tmp_path / target).write_bytes(b"the old file")
        code, out, err = interrupt_at(delay, args, tmp_path, signum)
        assert "Traceback" not in err and "Error" not in err, (delay, code, err)
        assert code != -11 and code != -6 and code != 134 and code != 139, (delay, code)  # no crash
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")], delay
        if code == 128 + signum:
            stopped += 1
            if target is not None:
                assert (tmp_path / target).read_bytes() == b"the old file", delay  # untouched
            assert err.endswith("\n") or err == "", err  # a progress line is ended, not left open
        else:  # the work was done before the signal came (or it came as the interpreter ended)
            assert code in (0, -signum), (delay, code, err)
            assert out, (delay, code)
            if target is not None:
                assert (tmp_path / target).read_bytes() != b"the old file"
    assert stopped >= 3, stopped


# -- item 2: a display that is named but cannot be reached -------------------------------------------

class RefusingServer:
    """A TCP "X server" on 127.0.0.1:6000+N that takes each connection and closes it unanswered."""

    def __enter__(self) -> str:
        import socket
        import threading
        self.sock = socket.socket()
        for port in range(6417, 6999):
            try:
                self.sock.bind(("127.0.0.1", port))
                break
            except OSError:
                continue
        self.sock.listen(8)
        self.port = port

        def serve() -> None:
            while True:
                try:
                    conn, _ = self.sock.accept()
                except OSError:
                    return
                conn.recv(64)
                conn.close()
        threading.Thread(target=serve, daemon=True).start()
        return f"127.0.0.1:{port - 6000}"

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


UNREACHABLE = [{"DISPLAY": ":987"}, {"DISPLAY": "garbage::"}, {"WAYLAND_DISPLAY": "nowhere"},
               {"WAYLAND_DISPLAY": "nowhere", "QT_QPA_PLATFORM": "wayland"},
               {"DISPLAY": ":987", "QT_QPA_PLATFORM": "xcb"}, {"DISPLAY": "refusing"}]


@pytest.mark.parametrize("display", UNREACHABLE, ids=lambda d: ",".join(f"{k}={v}" for k, v in d.items()))
def test_an_unreachable_display_is_one_line_not_a_core_dump(tmp_path: Path, display: dict[str, str]) -> None:
    assert not Path("/tmp/.X11-unix/X987").exists()
    env: dict[str, str | None] = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "QT_QPA_PLATFORM": None,
                                  "XDG_RUNTIME_DIR": str(tmp_path)}
    with RefusingServer() as refusing:
        env.update({k: refusing if v == "refusing" else v for k, v in display.items()})
        proc = launch("gui", cwd=tmp_path, **env)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("shensha-plates: error: cannot open the window: ")
    assert "cannot reach the display" in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", [["snapshot", *STATE, "--size", "300", "-o", "p.png"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "p.pdf"]])
@pytest.mark.parametrize("display", [{"DISPLAY": ":987"}, {"DISPLAY": "garbage::"}, {"DISPLAY": "refusing"},
                                     {"WAYLAND_DISPLAY": "nowhere"}])
def test_snapshot_and_booklet_fall_back_to_offscreen(tmp_path: Path, command: list[str],
                                                     display: dict[str, str]) -> None:
    env: dict[str, str | None] = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "XDG_RUNTIME_DIR": str(tmp_path),
                                  "QT_QPA_PLATFORM": "wayland" if "WAYLAND_DISPLAY" in display else "xcb"}
    with RefusingServer() as refusing:
        env.update({k: refusing if v == "refusing" else v for k, v in display.items()})
        proc = launch(*command, cwd=tmp_path, **env)
    assert proc.returncode == 0 and proc.stderr == "", (proc.returncode, proc.stderr)
    assert (tmp_path / command[-1]).stat().st_size > 0


def test_a_missing_plugin_library_is_named() -> None:
    from shensha_plates.gui import qt_start
    real = qt_start.ctypes.CDLL

    def cdll(path: str, *args: object, **kwargs: object) -> object:
        if path.endswith("libqxcb.so"):
            raise OSError("libxcb-icccm.so.4: cannot open shared object file: No such file or directory")
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(qt_start.ctypes, "CDLL", cdll)
        mp.setattr(qt_start, "_x11_unreachable", lambda name: None)  # the display answers
        problem = qt_start.display_problem({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"})
    assert problem is not None and "the library libxcb-icccm.so.4 is missing" in problem, problem


@pytest.mark.skipif(not Path("/usr/bin/Xvfb").exists(), reason="needs Xvfb")
def test_a_reachable_display_is_no_problem(tmp_path: Path) -> None:
    import random
    import time
    number = random.randint(300, 900)
    server = subprocess.Popen(["/usr/bin/Xvfb", f":{number}", "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.05)
        from shensha_plates.gui.qt_start import display_unreachable
        assert display_unreachable("xcb", f":{number}", {}) is None
    finally:
        server.terminate()
        server.wait(10)


# -- items 7 and 13 on the command line: names too long, read-only targets ------------------------------

@pytest.mark.parametrize("command", [["snapshot", *STATE, "--size", "300", "-o"], ["booklet", "--year", "丙午", "-o"]])
def test_a_name_too_long_is_one_line(tmp_path: Path, command: list[str]) -> None:
    name = "/".join(["x" * 200] * 25) + "/p.pdf"  # over PATH_MAX (4,096 bytes)
    proc = launch(*command, name, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "cannot write" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", [["snapshot", *STATE, "--size", "300", "-o", "r.png"],
                                     ["booklet", "--year", "丙午", "--quiet", "-o", "r.pdf"]])
def test_a_read_only_file_is_refused(tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / command[-1]
    target.write_bytes(b"old")
    target.chmod(0o444)
    proc = launch(*command, cwd=tmp_path)
    assert proc.returncode == 2 and "is read-only" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert target.read_bytes() == b"old" and not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_the_writer_refuses_a_read_only_file_unless_told(tmp_path: Path) -> None:
    from shensha_plates.core.datafile import ReadOnlyTarget, write_atomic
    target = tmp_path / "f.json"
    target.write_bytes(b"old")
    target.chmod(0o444)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    for name in (target, link):
        with pytest.raises(ReadOnlyTarget):
            write_atomic(name, b"new")
    assert target.read_bytes() == b"old"
    write_atomic(link, b"new", replace_read_only=True)
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o444 and link.is_symlink()


# -- item 8: a large PNG is encoded in strips ----------------------------------------------------------

_PEAK = """
import resource, sys
from shensha_plates.gui.export.cli import main, _ensure_app
_ensure_app()
from shensha_plates.core.catalog import default_catalog
default_catalog()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
code = main(["--year", "丙午", "--month", "11", "--xun", "甲辰", "-o", "big.png", "--size", sys.argv[1]] + sys.argv[2:])
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)
"""


@pytest.mark.slow
@pytest.mark.parametrize("transparent", [False, True])
def test_a_large_png_needs_little_more_than_its_image(tmp_path: Path, transparent: bool) -> None:
    side = 7000
    proc = subprocess.run([sys.executable, "-c", _PEAK, f"{side}x{side}", *(["--transparent"] if transparent else [])],
                          cwd=tmp_path, env=env_with(), capture_output=True, text=True, timeout=300)
    before, after, code = (int(v) for v in proc.stdout.split()[-3:])
    assert code == 0, proc.stderr
    image_kb = side * side * 4 / 1024
    grown = after - before
    assert grown < 1.4 * image_kb, (grown / image_kb)  # it grew by 3 to 4 images before the strips
    import zlib
    data = (tmp_path / "big.png").read_bytes()
    assert data[12:16] == b"IHDR" and int.from_bytes(data[16:20], "big") == side
    idat = data.index(b"IDAT")
    length = int.from_bytes(data[idat - 4:idat], "big")
    raw = zlib.decompress(data[idat + 4:idat + 4 + length])
    assert len(raw) == side * (1 + side * (4 if transparent else 3))  # every row, each with its filter byte


def test_a_signal_after_the_file_is_in_place_lets_the_command_finish(tmp_path: Path) -> None:
    """The race the timed runs above can hit: the signal comes after the rename. The file is whole
    and new, so the command ends as it would have (status 0, its name printed) rather than reporting
    an interrupt (130) with the file changed."""
    import os
    import signal

    from shensha_plates.core import interrupt
    from shensha_plates.core.datafile import write_atomic

    target = tmp_path / "out.pdf"
    target.write_bytes(b"the old file")
    restore = interrupt.install()
    try:
        write_atomic(target, b"the new file")
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once, in this (the main) thread
        assert target.read_bytes() == b"the new file"
    finally:
        restore()
