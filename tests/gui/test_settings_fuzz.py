"""A settings file damaged in any way: the window still starts, with a valid state, and says so."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtWidgets import QApplication

from shensha_plates.core.engine import State, compute_plate
from shensha_plates.gui.shell.main_window import MainWindow
from shensha_plates.gui.shell.settings import DEFAULTS, Settings

GOOD = (
    b"[General]\nschema_version=1\nlang=zh-Hant\nlayout=stacked\norientation=north\ntext_mode=upright\n"
    b"mountains=true\nenglish=true\nreduce_motion=true\nvariants=tian_xi=shun_twelve\n"
    b"[state]\nyear=\\x4e19\\x5348\nmonth=11\nxun=\\x7532\\x8fb0\nday=\\x5e9a\\x620c\nhour=\\x5348\n"
    b"[calendar]\nzone=Asia/Shanghai\nyear_start=lichun\nmonth_basis=jie\nzi_hour=next-day\n"
)
VALUES = [b"", b"13", b"-1", b"true", b"@Invalid()", b"\xff\xfe", b"\\x4e19\\x4e11", b"tian_xi=zz", b"[", b"=",
          b"\"\"", b"99999999999999999999", b"@ByteArray(\x00)", b"\\x7532\\x5b50"]


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    lines = GOOD.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(("value", "drop", "noise", "cut")))
        if op == "value" and b"=" in lines[i]:
            lines[i] = lines[i].split(b"=", 1)[0] + b"=" + draw(st.sampled_from(VALUES))
        elif op == "drop":
            del lines[i]
        elif op == "noise":
            lines.insert(i, draw(st.binary(max_size=24)))
        else:
            lines = lines[:i]
        if not lines:
            break
    return b"\n".join(lines)


@settings(max_examples=60)
@given(damaged())
def test_any_settings_file_starts_the_window(qapp: object, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shensha-plates.ini"
        path.write_bytes(data)
        s = Settings(path)
        for key in DEFAULTS:
            assert type(s.get(key)) is type(DEFAULTS[key])  # every value typed, whatever the file says
        w = MainWindow(settings=s)
        try:
            QApplication.processEvents()
            assert isinstance(w.model.state, State)
            assert w.model.plate == compute_plate(w.model.state, w.model.options)
        finally:
            w.close()
            w.deleteLater()
            QApplication.processEvents()


def test_the_undamaged_file_is_read(qapp: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shensha-plates.ini"
        path.write_bytes(GOOD)
        w = MainWindow(settings=Settings(path))
        try:
            assert w.model.state.label().startswith("丙午年 冬月 甲辰旬 庚戌日")
            assert w.model.lang == "zh-Hant"
        finally:
            w.close()
