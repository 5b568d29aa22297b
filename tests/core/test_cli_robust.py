"""The command line under hostile conditions: terminals that cannot show the output, output that
cannot be written, locales that are not UTF-8, clock times that do not exist or occur twice,
contradictory or unknown options, Unicode digits and enormous arguments."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from shensha_plates.core.cli import main
from shensha_plates.core.terminal import emit
from tests.conftest import REPO

STATE = ["--year", "丙午", "--month", "11", "--xun", "甲辰"]
CLI = "import sys; from shensha_plates.core.cli import main; sys.exit(main())"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def one_error(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("shensha-plates: error: ") and needle in err, err


def cli(*argv: str, env: dict[str, str] | None = None, shell_suffix: str = "") -> subprocess.CompletedProcess[bytes]:
    """The command line in a process of its own (the locale and the standard streams are the process's)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO", "PYTHONUTF8"))}
    full_env.update(env or {})
    cmd = [sys.executable, "-c", CLI, *argv]
    if shell_suffix:
        import shlex
        return subprocess.run(["sh", "-c", " ".join(map(shlex.quote, cmd)) + " " + shell_suffix],
                              capture_output=True, env=full_env, cwd=REPO, timeout=60)
    return subprocess.run(cmd, capture_output=True, env=full_env, cwd=REPO, timeout=60)


# -- output that cannot be encoded or written (item 8) ---------------------------------------------

def stream(encoding: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="strict")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_text_the_terminal_cannot_show_is_one_line(encoding: str) -> None:
    out, err = stream(encoding), io.StringIO()
    assert main(["show", *STATE], out, err) == 2
    one_error(2, err.getvalue(), f"encoding ({encoding}) cannot show")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("command", [["show", *STATE], ["select", *STATE], ["relate", "寅", "亥"],
                                     ["bazi", "--date", "1990-05-17T08:30"]])
def test_json_falls_back_to_ascii_escapes(encoding: str, command: list[str]) -> None:
    out, err = stream(encoding), io.StringIO()
    assert main([*command, "--format", "json"], out, err) == 0 and err.getvalue() == ""
    out.seek(0)
    written = out.buffer.read()
    assert written.isascii()
    assert json.loads(written) == json.loads(run(*command, "--format", "json")[1])


class Full(io.StringIO):
    def flush(self) -> None:
        raise OSError(28, "No space left on device")


def test_output_that_cannot_be_written_is_one_line() -> None:
    err = io.StringIO()
    assert main(["show", *STATE], Full(), err) == 2
    one_error(2, err.getvalue(), "No space left on device")
    err = io.StringIO()
    closed = io.StringIO()
    closed.close()
    assert emit("x", closed, err) == 2 and "closed" in err.getvalue()


ENVIRONMENTS = [
    pytest.param({"PYTHONIOENCODING": "ascii"}, "", "cannot show", id="ascii"),
    pytest.param({"PYTHONIOENCODING": "latin-1"}, "", "cannot show", id="latin-1"),
    pytest.param({"PYTHONIOENCODING": "ascii:strict", "LC_ALL": "C", "PYTHONUTF8": "0",
                  "PYTHONCOERCECLOCALE": "0"}, "", "cannot show", id="C-locale"),
    pytest.param({}, "> /dev/full", "No space left", id="dev-full"),
    pytest.param({}, ">&-", "standard output is closed", id="closed-stdout"),
]


@pytest.mark.parametrize("env,redirect,needle", ENVIRONMENTS)
def test_unwritable_output_in_a_real_process(env: dict[str, str], redirect: str, needle: str) -> None:
    proc = cli("show", *STATE, env=env, shell_suffix=redirect)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1 and needle in err, err


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                 {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_json_in_a_real_process_succeeds_in_ascii(env: dict[str, str]) -> None:
    proc = cli("show", *STATE, "--format", "json", env=env)
    assert proc.returncode == 0 and proc.stderr == b"" and proc.stdout.isascii()
    assert json.loads(proc.stdout)["state"]["year"] == "丙午"


def test_help_on_an_ascii_terminal_is_one_line() -> None:
    proc = cli("show", "--help", env={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


# -- arguments under a locale that is not UTF-8, enormous arguments (item 16) -------------------

NOT_UTF8 = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": "utf-8"}


def test_arguments_under_an_ascii_locale_are_read_as_utf8() -> None:
    proc = cli("show", *STATE, "--format", "json", env=NOT_UTF8)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["state"]["xun"] == "甲辰"


def test_undecodable_arguments_are_shown_readably() -> None:
    proc = cli("show", "--year", "丙x", "--month", "11", env=NOT_UTF8)
    assert proc.returncode == 2 and "'丙x'" in proc.stderr.decode() and "udc" not in proc.stderr.decode()
    bad = os.fsdecode(b"\xe5\xe5")  # Latin-1 bytes, not UTF-8
    proc = subprocess.run([sys.executable, "-c", CLI, "show", "--year", bad, "--month", "1"], capture_output=True,
                          env={**os.environ, **NOT_UTF8}, cwd=REPO, timeout=60)
    assert proc.returncode == 2 and b"'\\xe5\\xe5'" in proc.stderr and b"udc" not in proc.stderr


@pytest.mark.parametrize("where", ["--year", "--date", "--variant", "--lang", "stray"])
def test_an_enormous_argument_is_cut_in_the_message(where: str) -> None:
    huge = "午" * 40_000
    argv = ["show", *STATE, huge] if where == "stray" else ["show", *STATE, where, huge]
    if where in ("--year", "--date"):
        argv = ["show", where, huge] + (["--month", "1"] if where == "--year" else [])
    code, _, err = run(*argv)
    one_error(code, err, "40,000 characters")
    assert len(err) < 600


# -- contradictory and unknown options (items 13, 14) ------------------------------------------

@pytest.mark.parametrize("command", ["show", "select", "bazi"])
def test_now_and_date_together_are_refused(command: str) -> None:
    one_error(*run(command, "--now", "--date", "2026-12-02T18:00")[::2], "not allowed with")
    one_error(*run(command, "--date", "2026-12-02T18:00", "--now")[::2], "not allowed with")


@pytest.mark.parametrize("choice", ["nonsense=zzz", "da_huo=zzz", "zzz", "=x", "tian_xi=shun_twelve"])
def test_select_refuses_unknown_variants_as_show_does(choice: str) -> None:
    one_error(*run("select", *STATE, "--variant", choice)[::2], "variant")


def test_select_still_takes_its_own_variants() -> None:
    from shensha_plates.core.selection import default_selection
    sp = next(s for s in default_selection().spirits if s.variants)
    code, out, err = run("select", *STATE, "--variant", f"{sp.id}={sp.variants[0].id}", "--format", "json")
    assert code == 0 and err == ""


# -- clock times that do not exist or occur twice (item 15) --------------------------------------

@pytest.mark.parametrize("command", ["show", "select", "bazi"])
@pytest.mark.parametrize("date,tz", [("2026-03-08T02:30", "America/New_York"), ("2026-03-29T02:15", "Europe/Berlin"),
                                     ("2026-10-04T02:10", "Australia/Lord_Howe")])
def test_a_time_the_clocks_skip_is_refused(command: str, date: str, tz: str) -> None:
    one_error(*run(command, "--date", date, "--tz", tz)[::2], "does not exist")


@pytest.mark.parametrize("command", ["show", "select", "bazi"])
def test_a_time_shown_twice_says_which_was_taken(command: str) -> None:
    code, out, err = run(command, "--date", "2026-11-01T01:30", "--tz", "America/New_York", "--format", "json")
    assert code == 0 and err.startswith("shensha-plates: note: ") and err.count("\n") == 1
    assert "took the first, 2026-11-01T01:30-04:00" in err and "2026-11-01T01:30-05:00" in err
    code2, out2, err2 = run(command, "--date", "2026-11-01T01:30-05:00", "--tz", "America/New_York",
                            "--format", "json")
    assert code2 == 0 and err2 == ""
    if command == "show":
        assert json.loads(out)["state"]["date"] == "2026-11-01T01:30-04:00"
        assert json.loads(out2)["state"]["date"] == "2026-11-01T01:30-05:00"


# -- Unicode digits (item 6) ----------------------------------------------------------------------

@pytest.mark.parametrize("digit", ["²", "¹", "⑪", "⁵", "１１", "١١"])
@pytest.mark.parametrize("command", ["show", "select"])
def test_unicode_digits_are_not_a_month(command: str, digit: str) -> None:
    one_error(*run(command, "--year", "丙午", "--month", digit, "--xun", "甲辰")[::2], "invalid month")


# -- a real Latin-1 locale (compiled into a temporary folder when localedef is there) -------------

@pytest.fixture(scope="module")
def latin1(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    import shutil
    if not shutil.which("localedef"):
        pytest.skip("no localedef to build a Latin-1 locale")
    folder = tmp_path_factory.mktemp("locale")
    subprocess.run(["localedef", "-i", "en_US", "-f", "ISO-8859-1", str(folder / "en_US.ISO-8859-1")],
                   capture_output=True, timeout=120)
    env = {"LOCPATH": str(folder), "LC_ALL": "en_US.ISO-8859-1"}
    probe = subprocess.run([sys.executable, "-c", "import sys; print(sys.stdout.encoding)"], capture_output=True,
                           env={**os.environ, **env}, timeout=60)
    if probe.stdout.strip().lower() not in (b"iso8859-1", b"latin-1"):
        pytest.skip("the Latin-1 locale could not be built here")
    return env


def test_a_latin1_locale(latin1: dict[str, str]) -> None:
    text = cli("show", *STATE, env=latin1)
    assert text.returncode == 2 and b"encoding (iso8859-1) cannot show" in text.stderr
    assert text.stderr.count(b"\n") == 1 and b"Traceback" not in text.stderr
    data = cli("show", *STATE, "--format", "json", env=latin1)  # the CJK arguments are read as typed
    assert data.returncode == 0 and data.stdout.isascii() and json.loads(data.stdout)["state"]["xun"] == "甲辰"
    latin = subprocess.run([sys.executable, "-c", CLI, "show", "--year", b"caf\xe9", "--month", "1"],
                           capture_output=True, env={**os.environ, **latin1}, cwd=REPO, timeout=60)
    assert latin.returncode == 2 and b"'caf\xe9'" in latin.stderr  # a Latin-1 argument, shown in Latin-1
