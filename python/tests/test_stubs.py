"""The type stubs of the compiled module (``_arcadekit.pyi``) name exactly
what it holds: every class, function and constant, and every public method
of each class, so an editor's completion and a type checker see the real
API (a stub that drifts silently hides new methods and keeps dead ones)."""

import ast
from pathlib import Path

import arcadekit
from arcadekit import _arcadekit as native

STUB = Path(arcadekit.__file__).parent / "_arcadekit.pyi"


def stubbed():
    """(classes → their public methods, module-level functions and names)."""
    tree = ast.parse(STUB.read_text())
    classes = {
        n.name: {m.name for m in n.body if isinstance(m, ast.FunctionDef) and not m.name.startswith("_")}
        for n in tree.body
        if isinstance(n, ast.ClassDef)
    }
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    names |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    return classes, names


def test_the_stub_names_every_class_function_and_constant():
    classes, names = stubbed()
    public = {n for n in dir(native) if not n.startswith("_")}
    missing = public - set(classes) - names
    dead = {n for n in set(classes) | names if not hasattr(native, n)}
    assert not missing, f"missing from _arcadekit.pyi: {sorted(missing)}"
    assert not dead, f"in _arcadekit.pyi but not in the module: {sorted(dead)}"
    assert len(public) >= 40


def test_each_stubbed_class_lists_exactly_its_public_methods():
    classes, _ = stubbed()
    assert len(classes) >= 10
    for name, methods in classes.items():
        cls = getattr(native, name, None)
        assert cls is not None, f"_arcadekit.pyi has a class {name} the module does not"
        real = {m for m in dir(cls) if not m.startswith("_")}
        assert real == methods, f"{name}: missing from the stub {sorted(real - methods)}, not in the module {sorted(methods - real)}"
