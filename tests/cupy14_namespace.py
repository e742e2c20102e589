"""Write ``cupy14_namespace.json``: the names CuPy 14 provides, which ``fake_cupy`` answers and
nothing else (a routine CuPy lacks is CuPy's ``AttributeError`` there as on a real GPU).

    pip install cupy-cuda12x==14.2.0 && python tests/cupy14_namespace.py

CuPy imports without a GPU or driver, so any machine can run it; the JSON is checked in.
"""

import json
import pathlib
import types

import cupy

OUT = pathlib.Path(__file__).with_suffix(".json")
SUBMODULES = ("linalg", "fft", "random")


def _public(module):
    return sorted(n for n in dir(module) if not n.startswith("_"))


def describe(module):
    """{"ufuncs": …, "functions": …, "other": …} of one module's public names."""
    out = {"ufuncs": [], "functions": [], "other": []}
    for name in _public(module):
        value = getattr(module, name)
        if isinstance(value, cupy.ufunc):
            out["ufuncs"].append(name)
        elif isinstance(value, types.ModuleType):
            continue
        elif callable(value) and not isinstance(value, type):
            out["functions"].append(name)
        else:
            out["other"].append(name)
    return out


def main():
    data = {"version": cupy.__version__, "cupy": describe(cupy),
            "ndarray": sorted(n for n in dir(cupy.ndarray) if not n.startswith("_") or n.startswith("__")),
            "ufunc_methods": _public(cupy.add)}
    data.update({name: describe(getattr(cupy, name)) for name in SUBMODULES})
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: CuPy {cupy.__version__}")


if __name__ == "__main__":
    main()
