"""Which patterns (课体, 格, 卦) and 毕法赋 lines every reading of a fixed set forms: the digest kept in
``tests/data/detection_digest.json``, so that a change in how detection is computed (issue 25: making
it faster) is shown not to change what it finds.

The readings: each of the 720 lessons (60 days × 12 turns of the heaven plate) at a night hour (子)
and a day hour (午) — so with the night 贵人 and the day 贵人 and their generals — each read bare (no
date, no querent) and with a month, a querent and a partner of the other sex given (the rules that
read the season, the querent's years or the couple's); and 120 moments of real dates read with their
plates (the 卦 that name a spirit, the year's spirits), the facts of their day and a querent. For each rule the digest keeps the readings at which it forms, as
a bitmap (hex) over the readings in that order.

The digest records the rule ids it covers: a rule added later is not compared (its id is not in the
file); a covered rule whose readings change fails, by id. Regenerate, when a rule's change is meant,
with ``python -m tests.support.detection_digest`` (from the repository's root) and say why in the
commit; it is made by trying every rule on every reading (not through the index of
``core/liuren/patterns.py``), and the test checks both ways against it.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import replace
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, Literal

__all__ = ["DIGEST_PATH", "readings", "compute_digest", "compare", "main"]

DIGEST_PATH = Path(__file__).resolve().parent.parent / "data" / "detection_digest.json"
FORMAT = 1
_SEXES: Final[tuple[Literal["m"], Literal["f"]]] = ("m", "f")


def readings() -> Iterator[tuple[Any, Any, Any, int | None, Any]]:
    """(ke, plate, nian_ming, month, the date's day facts) of each reading, in the digest's order."""
    from shensha_plates.core.liuren import compute_ke
    from shensha_plates.core.liuren.nianming import nian_ming
    for hour in (0, 6):  # 子 (night 贵人), 午 (day 贵人)
        for day in range(60):
            for turn in range(12):
                ke = compute_ke(day, hour, (turn + hour) % 12)
                yield ke, None, None, None, None
                hp = ke.plate
                birth, sex, age = (day * 7 + turn * 5) % 60, _SEXES[(day + turn) % 2], 1 + (day * 11 + turn * 7) % 90
                nm = nian_ming(hp.heaven, hp.generals, birth, sex, age)
                other = _SEXES[(day + turn + 1) % 2]  # a partner of the other sex (繁昌 旺孕 解离 read the two)
                partner = nian_ming(hp.heaven, hp.generals, (birth + 3 * day + turn) % 60, other, 1 + (age + turn * 3) % 90)
                yield ke, None, replace(nm, partner=partner), (day + 5 * turn + hour) % 12, None
    yield from _dated()


def _dated() -> Iterator[tuple[Any, Any, Any, int | None, Any]]:
    """120 moments, 37 days and 5 hours apart from 2001-01-01 (Beijing time), with their plates and the
    facts of their day (its solar term, lunar day and lodging: 天祸 天寇 二烦)."""
    import zoneinfo

    from shensha_plates.core.engine import compute_plate
    from shensha_plates.core.liuren import compute_ke_at
    from shensha_plates.core.liuren.lodging import day_facts
    from shensha_plates.core.liuren.nianming import nian_ming
    tz = zoneinfo.ZoneInfo("Asia/Shanghai")
    start = _dt.datetime(2001, 1, 1, 0, 30, tzinfo=tz)
    for i in range(120):
        moment = start + _dt.timedelta(days=37 * i, hours=5 * i)
        ke, _, info = compute_ke_at(moment)
        plate = compute_plate(info.state)
        hp = ke.plate
        nm = nian_ming(hp.heaven, hp.generals, (i * 13) % 60, _SEXES[i % 2], 1 + (i * 17) % 90)
        yield ke, plate, nm, None, day_facts(info)


def compute_digest() -> dict[str, Any]:
    """The digest of the current rules: for each pattern id and each 毕法赋 line number, the bitmap of
    the readings at which it forms."""
    from shensha_plates.core.liuren.patterns import bifa_lines, patterns, read_lesson
    pats: dict[str, int] = {p.id: 0 for p in patterns()}
    lines: dict[str, int] = {str(b.number): 0 for b in bifa_lines() if b.tests}
    n = 0
    for ke, plate, nm, month, dayf in readings():
        hits, bifa = read_lesson(ke, plate, nm, month, dayf)
        bit = 1 << n
        for h in hits:
            pats[h.id] |= bit
        for b in bifa:
            lines[str(b.number)] |= bit
        n += 1
    return {"format": FORMAT, "readings": n, "patterns": {k: f"{v:x}" for k, v in pats.items()},
            "bifa": {k: f"{v:x}" for k, v in lines.items()}}


def compare(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """The covered rules whose readings differ (or that are gone), each said in one line; rules the
    expected digest does not name are not compared."""
    problems = []
    if expected["readings"] != actual["readings"]:
        return [f"the digest has {expected['readings']} readings, now {actual['readings']}: the readings changed"]
    for group, label in (("patterns", "pattern"), ("bifa", "毕法赋 line")):
        for rid, bits in expected[group].items():
            now = actual[group].get(rid)
            if now is None:
                problems.append(f"{label} {rid}: covered by the digest but no longer detected (removed or renamed?)")
                continue
            if now != bits:
                was, is_ = int(bits, 16), int(now, 16)
                gained = [i for i in range(actual["readings"]) if is_ >> i & 1 and not was >> i & 1]
                lost = [i for i in range(actual["readings"]) if was >> i & 1 and not is_ >> i & 1]
                problems.append(f"{label} {rid}: now forms at {len(gained)} readings more (first: {gained[:5]}) "
                                f"and {len(lost)} fewer (first: {lost[:5]})")
    return problems


def main() -> int:
    from shensha_plates.core.liuren import patterns as patterns_module
    patterns_module._INDEX_AFTER = 10**9  # made by trying every rule on every reading, not through the index
    digest = compute_digest()
    DIGEST_PATH.write_text(json.dumps(digest, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {DIGEST_PATH}: {digest['readings']} readings, {len(digest['patterns'])} patterns, "
          f"{len(digest['bifa'])} 毕法赋 lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
