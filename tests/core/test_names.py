"""No module imports a name that starts with an underscore from another module
(docs/architecture.md): what another module needs is public. Walks the application packages (the
import-linter root packages of pyproject.toml) and the tests, which share their helpers through
helper modules (``tests/<app>/helpers.py``, ``tests/support.py``) and conftests instead."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def walked_packages() -> list[str]:
    """The application packages import-linter checks, and the tests."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages: list[str] = config["tool"]["importlinter"]["root_packages"]
    return [*packages, "tests"]


def module_name(path: Path, root: Path = ROOT) -> str:
    """``tests/core/test_names.py`` -> ``tests.core.test_names``; a package's ``__init__.py`` is
    the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def private_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Each ``from X import _name`` in ``source`` (the text of ``module``) where X is another
    module, as ``line: from X import _name``. Relative imports are resolved against ``module``;
    dunder names (``__version__``) are not private."""
    found = []
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join([*base, *([node.module] if node.module else [])])
        else:
            target = node.module or ""
        if target == module:
            continue
        for alias in node.names:
            name = alias.name
            if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
                found.append(f"{node.lineno}: from {target} import {name}")
    return found


def test_no_module_imports_a_private_name_from_another() -> None:
    problems = []
    count = 0
    for package in walked_packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            count += 1
            module = module_name(path)
            found = private_imports(
                path.read_text(encoding="utf-8"), module, is_package=path.name == "__init__.py"
            )
            problems += [f"{path.relative_to(ROOT)}:{line}" for line in found]
    assert count > 500, f"walked only {count} files: are the packages where they were?"
    assert problems == [], "make these names public (a helpers module, a fixture):\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize(
    ("source", "module", "is_package", "expected"),
    [
        ("from tests.scoring.test_live import _match\n", "tests.scoring.x", False, ["1"]),
        ("def f():\n    from a.b import _c\n", "a.d", False, ["2"]),
        ("from .views import _helper\n", "printing.apis", False, ["1"]),
        ("from .. import _helper\n", "printing.views.pages", False, ["1"]),
        ("from a.b import c, _d as e\n", "x", False, ["1"]),
        # Not private, or not from another module:
        ("from a.b import helper, __version__\n", "x", False, []),
        ("from .apis import _helper\n", "printing.apis", False, []),
        ("import a._b\n", "x", False, []),
        # A package's own private submodule, from its __init__:
        ("from . import _helper\n", "printing", True, []),
        ("from ._helper import _x\n", "printing", True, ["1"]),
    ],
)
def test_the_walk_sees_a_private_import(
    source: str, module: str, is_package: bool, expected: list[str]
) -> None:
    found = private_imports(source, module, is_package=is_package)
    assert [line.split(":")[0] for line in found] == expected, found


def test_relative_imports_are_resolved_against_the_module() -> None:
    assert private_imports("from ..core import _x\n", "a.b.c") == ["1: from a.core import _x"]
    assert private_imports("from .c import _x\n", "a.b", is_package=True) == [
        "1: from a.b.c import _x"
    ]
    assert private_imports("from .c import _x\n", "a.b") == ["1: from a.c import _x"]
