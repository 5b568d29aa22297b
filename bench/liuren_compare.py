"""The 720 Liu Ren lessons against kinliuren's (installed for the benchmark only: pip install kinliuren).

    python bench/liuren_compare.py [--variant ID=CHOICE …]

For every day and every heaven branch over 子 (hour 子, the printed tables' convention) prints where
the transmissions differ and, for each, the method that chose ours; then how many of the 720 turns
give kinliuren a different answer for a different hour with the same turn (ours never do: the
transmissions depend on the day and the turn alone), and how many inputs make kinliuren raise.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shensha_plates.core.cycle import BRANCHES, PILLARS, STEMS  # noqa: E402
from shensha_plates.core.liuren import KeOptions, course  # noqa: E402

# kinliuren takes the month general from a solar term name (traditional characters): 雨水 → 亥 …
_QI = ("雨水", "春分", "穀雨", "小滿", "夏至", "大暑", "處暑", "秋分", "霜降", "小雪", "冬至", "大寒")


def kinliuren_transmissions(day: int, general: int, hour: int) -> str | None:
    from kinliuren.kinliuren import Liuren
    hour_stem = (day % 10 % 5 * 2 + hour) % 10  # 五鼠遁
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            r = Liuren(_QI[(11 - general) % 12], "十", PILLARS[day], STEMS[hour_stem] + BRANCHES[hour]).result(0)
    except Exception:  # kinliuren raises on a few inputs; counted, not hidden
        return None
    return "".join(r["三傳"][k][0] for k in ("初傳", "中傳", "末傳"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args(argv)
    try:
        import kinliuren  # noqa: F401
    except ImportError:
        print("kinliuren is not installed (pip install kinliuren): nothing to compare")
        return 0
    options = KeOptions.from_choices(args.variant)
    differ: Counter[str] = Counter()
    hour_dependent = errors = 0
    for day in range(60):
        for turn in range(12):
            ours = course(day, turn, options)
            mine = "".join(BRANCHES[b] for b in ours.transmissions)
            answers = [kinliuren_transmissions(day, (hour + turn) % 12, hour) for hour in range(12)]
            errors += answers.count(None)
            if len({a for a in answers if a is not None}) > 1:
                hour_dependent += 1
            theirs = answers[0]
            if theirs != mine:
                kind = ("伏吟" if turn == 0 else "返吟" if turn == 6 else
                        "重课" if any(x.repeat_of for x in ours.lessons) and any(x.relation for x in ours.lessons)
                        else ours.method)
                differ[kind] += 1
                print(f"{PILLARS[day]} {BRANCHES[turn]}加子  ours {mine} ({ours.ke})  kinliuren {theirs}")
    print(f"differ at hour 子: {sum(differ.values())} of 720 — {dict(differ)}")
    print(f"turns whose kinliuren answer changes with the hour: {hour_dependent} of 720; kinliuren errors: {errors}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
