"""The ``>>>`` examples in core/'s docstrings are run, module by module, so that they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

from shensha_plates import core
ALL_MODULES = sorted(m.name for m in pkgutil.walk_packages(core.__path__, "shensha_plates.core."))


def _examples(name: str) -> int:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return sum(len(t.examples) for t in finder.find(importlib.import_module(name), name))


# Only the modules that have examples: a module without any would "pass" whatever happened.
MODULES = [name for name in ALL_MODULES if _examples(name)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    for test in doctest.DocTestFinder(exclude_empty=True).find(module, name):
        runner.run(test, out=out.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(out)


def test_the_examples_are_found() -> None:
    # a finder that silently found nothing would make the test above pass for nothing
    counts = {name: _examples(name) for name in ALL_MODULES}
    for name in ("shensha_plates.core.cycle", "shensha_plates.core.engine", "shensha_plates.core.calendar", "shensha_plates.core.errors", "shensha_plates.core.relations"):
        assert counts[name] > 0, name
