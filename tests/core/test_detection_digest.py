"""Detection finds what it found: every covered pattern and 毕法赋 line forms at exactly the readings the
checked-in digest records (tests/data/detection_digest.json; see tests/support/detection_digest.py for
the readings and how to regenerate it when a rule's change is meant). Rules added after the digest was
made are not compared."""

from __future__ import annotations

import json

import pytest

from shensha_plates.core.liuren import patterns as patterns_module
from tests.support.detection_digest import DIGEST_PATH, compare, compute_digest


def _expected() -> dict:
    return json.loads(DIGEST_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("index_after", [0, 10**9], ids=["indexed", "every rule tried"])
def test_covered_rules_form_where_the_digest_says(monkeypatch: pytest.MonkeyPatch, index_after: int) -> None:
    """Both ways of detecting (the rules left by the index, and every rule) find what the digest records."""
    monkeypatch.setattr(patterns_module, "_INDEX_AFTER", index_after)
    expected = _expected()
    assert expected["readings"] == 3000 and len(expected["patterns"]) >= 85 and len(expected["bifa"]) >= 75
    problems = compare(expected, compute_digest())
    assert not problems, ("detection changed for covered rules (if meant, regenerate with "
                          "`python -m tests.support.detection_digest` and say why):\n" + "\n".join(problems))


def test_compare_names_a_changed_rule_and_ignores_a_new_one() -> None:
    expected = {"readings": 8, "patterns": {"a": "5", "b": "0"}, "bifa": {"3": "80"}}
    same = {"readings": 8, "patterns": {"a": "5", "b": "0", "new": "ff"}, "bifa": {"3": "80", "99": "1"}}
    assert compare(expected, same) == []
    changed = {"readings": 8, "patterns": {"a": "7", "b": "0"}, "bifa": {"3": "0"}}
    problems = compare(expected, changed)
    assert len(problems) == 2
    assert problems[0].startswith("pattern a: now forms at 1 readings more (first: [1])")
    assert problems[1].startswith("毕法赋 line 3:") and "1 fewer (first: [7])" in problems[1]
    gone = {"readings": 8, "patterns": {"a": "5"}, "bifa": {"3": "80"}}
    assert compare(expected, gone) == ["pattern b: covered by the digest but no longer detected (removed or renamed?)"]


def test_the_index_keys_tests_by_what_they_read_and_leaves_most_rules_untried() -> None:
    """Each test is tabled on the smallest key that fixes what it reads (a test reading the settings' two
    贵人 is not); a chart tries well under half the rules."""
    from shensha_plates.core.liuren import compute_ke
    from shensha_plates.core.liuren.patterns import Test, _Lesson, _Probes, _default_index

    probes = _Probes()
    key, holds = probes.keyed(Test("initial_in", branches=(3, 9), branch_set=frozenset({3, 9}))) or ((), ())
    assert key == ("initial",) and holds == (3, 9)
    assert (probes.keyed(Test("initial_general", general=7)) or ((),))[0] == ("gen", "initial")
    assert (probes.keyed(Test("cross")) or ((),))[0] == ("day", "turn")
    assert probes.keyed(Test("two_nobles", names=("加",))) is None  # it reads the settings
    ix = _default_index()
    tried = [bin(ix.candidates(_Lesson(compute_ke(day, 0, turn), None, None, None)) & ix.allowed[0]).count("1")
             for day in range(60) for turn in range(12)]
    assert sum(tried) / len(tried) < 0.45 * bin(ix.allowed[0]).count("1")


def test_indexed_and_plain_agree_under_every_setting() -> None:
    """The index reads facts (the transmissions, 贵人's branch …), not the settings that gave them: under each
    other choice of the methods and of 贵人 (and all of them at once), every lesson at a night and a day hour,
    bare and with a month and a querent, forms the same patterns and lines, with the same words, either way."""
    from dataclasses import replace

    from shensha_plates.core.liuren import compute_ke, liuren_tables
    from shensha_plates.core.liuren.nianming import nian_ming
    from shensha_plates.core.liuren.patterns import _default_index, _default_plain, _detect, _detect_plain, _has, _Lesson
    from shensha_plates.core.liuren.plate import KeOptions

    settings = liuren_tables().settings
    chosen = [(sid, c.id) for sid in ("shehai", "fuyin_back", "bazhuan_yaoke", "biezhe_yin", "fanyin_wu", "noble",
                                      "daynight")
              for c in settings[sid].choices if c.id != settings[sid].default]
    assert len(chosen) >= 10
    every = {}
    for sid, cid in chosen:
        every.setdefault(sid, cid)
    options = [KeOptions.from_choices([f"{sid}={cid}"]) for sid, cid in chosen] + [KeOptions.from_choices(every)]
    ix, plain = _default_index(), _default_plain()
    compared = 0
    for n, opts in enumerate(options):
        for day in range(60):
            for turn in range(12):
                hour = 6 * ((day + turn + n) % 2)
                ke = compute_ke(day, hour, (turn + hour) % 12, opts)
                hp = ke.plate
                nm = nian_ming(hp.heaven, hp.generals, (day * 7 + n) % 60, "m", 1 + (turn * 13 + day) % 90)
                nm = replace(nm, partner=nian_ming(hp.heaven, hp.generals, (day + 5 * turn) % 60, "f", 1 + day % 70))
                for x in (_Lesson(ke, None, None, None), _Lesson(ke, None, nm, (day + turn + n) % 12)):
                    have = _has(x)
                    a = _detect(x, ix, ix.allowed[have])
                    b = _detect_plain(x, plain.of(have, 3))
                    assert [(h.id, h.why) for h in a[0]] == [(h.id, h.why) for h in b[0]], (opts, day, turn)
                    assert [(h.number, h.why) for h in a[1]] == [(h.number, h.why) for h in b[1]], (opts, day, turn)
                    compared += 1
    assert compared == len(options) * 1440
