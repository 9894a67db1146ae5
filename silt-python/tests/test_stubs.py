"""The type stubs name what the module has."""

import ast
import pathlib

import silt

STUBS = pathlib.Path(silt.__file__).parent


def defined(path):
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def test_ops_stub_lists_every_operation():
    assert defined(STUBS / "ops.pyi") == set(silt.ops.__all__)


def test_package_stub_lists_the_public_names():
    names = defined(STUBS / "__init__.pyi")
    # the functions named as builtins are in the module, not in __all__
    from silt import _functions
    assert names == (set(silt.__all__) | set(_functions.SHADOWING)) - {"ops", "nn", "special", "linalg"}
    tensor = next(n for n in ast.parse((STUBS / "__init__.pyi").read_text()).body
                  if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    methods = {f.name for f in tensor.body if isinstance(f, ast.FunctionDef)}
    public = {m for m in dir(silt.Tensor) if not m.startswith("_")}
    assert public <= methods
