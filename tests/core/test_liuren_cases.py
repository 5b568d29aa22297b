"""Worked lessons printed in the classical texts (tests/data/liuren_cases.toml), each reproduced by
the method under the settings its book follows; and the coverage the data promises (two cases at
least for each of the nine methods, every case with its source)."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from shensha_plates.core.cycle import BRANCHES, parse_pillar, stem_palace
from shensha_plates.core.liuren import KeOptions, compute_ke, course, liuren_tables
from shensha_plates.core.liuren.tables import METHOD_IDS
from tests.conftest import DATA

CASES = tomllib.loads((DATA / "liuren_cases.toml").read_text(encoding="utf-8"))["case"]


def turn_of(case: dict[str, str]) -> int:
    """The heaven branch over 子 (the plate's turn) from however the book states the plate."""
    day = case["day"]
    if "gan_shang" in case:
        return (BRANCHES.index(case["gan_shang"]) - stem_palace(day[0])) % 12
    if "zhi_shang" in case:
        return (BRANCHES.index(case["zhi_shang"]) - BRANCHES.index(day[1])) % 12
    if "general" in case:
        return (BRANCHES.index(case["general"]) - BRANCHES.index(case["hour"])) % 12
    return BRANCHES.index(case["over_zi"])


def label(case: dict[str, str]) -> str:
    return f"{case['day']}-{case['transmissions']}-{case['method']}"


@pytest.mark.parametrize("case", CASES, ids=label)
def test_classical_case(case: dict[str, object]) -> None:
    options = KeOptions.from_choices(case.get("variants", []))  # type: ignore[arg-type]
    c = course(parse_pillar(str(case["day"])), turn_of(case), options)  # type: ignore[arg-type]
    assert "".join(BRANCHES[b] for b in c.transmissions) == case["transmissions"]
    assert c.method == case["method"]
    if "ke" in case:
        assert c.ke == case["ke"]
    assert all(step.rule in liuren_tables().rules for step in c.steps)


@pytest.mark.parametrize("case", [c for c in CASES if "hour" in c and ("generals" in c or "initial_general" in c)],
                         ids=label)
def test_classical_generals(case: dict[str, str]) -> None:
    ke = compute_ke(parse_pillar(case["day"]), BRANCHES.index(case["hour"]), BRANCHES.index(case["general"]))
    gens = liuren_tables().generals
    if "generals" in case:
        assert "".join(gens[t.general].short for t in ke.transmissions) == case["generals"]
    if "initial_general" in case:
        assert gens[ke.transmissions[0].general].name == case["initial_general"]


def test_every_method_has_two_sourced_cases() -> None:
    count = Counter(c["method"] for c in CASES)
    assert {m: count[m] for m in METHOD_IDS if count[m] < 2} == {}
    for c in CASES:
        assert c["source"]["book"] and c["source"]["quote"].strip(), label(c)


def test_default_and_depth_disagree_where_the_books_do() -> None:
    # 《大全》's 丁卯 亥将丑时 takes the deeper 亥; 《指南》's 孟仲 rule takes 丑 on the 仲 卯.
    case = next(c for c in CASES if c["day"] == "丁卯" and c.get("general") == "亥")
    default = course(parse_pillar("丁卯"), turn_of(case))
    assert "".join(BRANCHES[b] for b in default.transmissions) == "丑亥酉" and default.ke == "察微"
