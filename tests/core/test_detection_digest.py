"""Detection finds what it found: every covered pattern and 毕法赋 line forms at exactly the readings the
checked-in digest records (tests/data/detection_digest.json; see tests/support/detection_digest.py for
the readings and how to regenerate it when a rule's change is meant). Rules added after the digest was
made are not compared."""

from __future__ import annotations

import json

from tests.support.detection_digest import DIGEST_PATH, compare, compute_digest


def _expected() -> dict:
    return json.loads(DIGEST_PATH.read_text(encoding="utf-8"))


def test_covered_rules_form_where_the_digest_says() -> None:
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
