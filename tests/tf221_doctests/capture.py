"""Capture TensorFlow 2.21's (and Keras 3's) docstring examples and what they print under real
TensorFlow, into ``captures/tf.jsonl`` and ``captures/keras.jsonl`` (run by hand; see README.md).

    python tests/tf221_doctests/capture.py --python /work/tfvenv/bin/python [--jobs 2] [tf|keras]

The driver (any Python) asks the TensorFlow interpreter for every docstring of the public symbols
of the namespaces below (a class's methods and properties included), deduplicated (a function that
``tf`` and ``tf.math`` both export is captured once, under the namespace named first below: ``tf``
itself comes last), then runs them namespace by namespace, one interpreter per namespace, with
``doclib``'s conventions (TensorFlow's). One JSON line per docstring:
``{"id", "ns", "globs"?, "ex": [{"src", "want"?, "exc"?, "opts"?, "tf": outcome, "got"?}]}`` where ``got``
(TensorFlow's output) is left out when it is the expected text itself, and ``globs`` (Keras's only)
the defining module's names the docstring uses, by their public paths (``_module_names``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CAPTURES = HERE / "captures"

# TensorFlow's core namespaces (issue 28), each with the sub-namespaces that belong to it; "" is tf
TF_NAMESPACES = (
    "math", "math.special", "nn", "nn.experimental", "linalg", "linalg.experimental", "signal", "image", "strings",
    "ragged", "sparse", "random", "random.experimental", "dtypes", "dtypes.experimental", "bitwise", "data",
    "data.experimental", "io", "io.gfile", "train", "train.experimental", "saved_model", "saved_model.experimental",
    "summary", "summary.experimental", "lookup", "lookup.experimental", "distribute", "debugging",
    "debugging.experimental", "errors", "config", "config.experimental", "config.optimizer", "config.threading",
    "test", "test.experimental", "nest", "autograph", "autograph.experimental", "autodiff", "types",
    "types.experimental", "experimental", "experimental.numpy", "experimental.numpy.random",
    "experimental.extension_type", "experimental.dlpack", "version", "sysconfig", "")
# the Keras 3 namespaces tf.keras exposes (issue 29); "" is keras itself
KERAS_NAMESPACES = (
    "activations", "callbacks", "config", "constraints", "dtype_policies", "export", "initializers", "layers",
    "losses", "metrics", "mixed_precision", "models", "ops", "ops.image", "ops.linalg", "ops.nn", "ops.numpy",
    "optimizers", "optimizers.schedules", "quantizers", "random", "regularizers", "tree", "utils", "")

ENV = {"CUDA_VISIBLE_DEVICES": "", "TF_ENABLE_ONEDNN_OPTS": "0", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
       "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8", "TF_CPP_MIN_LOG_LEVEL": "3", "KERAS_BACKEND": "tensorflow",
       "COLUMNS": "80"}
TIMEOUT = 120.0


# ---- in the TensorFlow interpreter ----

def _root(kind):
    import tensorflow as tf

    return (tf, "tf") if kind == "tf" else (tf.keras, "keras")


def _resolve(root, ns):
    obj = root
    for part in ns.split(".") if ns else ():
        obj = getattr(obj, part)
    return obj


def _list(kind) -> list:
    import doctest
    import inspect

    sys.path.insert(0, str(HERE))
    import doclib

    root, prefix = _root(kind)
    finder = doctest.DocTestFinder(exclude_empty=True)
    chosen: dict = {}  # id(object) → (its preferred position, namespace, name, object)
    for rank, ns in enumerate(TF_NAMESPACES if kind == "tf" else KERAS_NAMESPACES):
        module = _resolve(root, ns)
        for name in sorted(n for n in dir(module) if not n.startswith("_")):
            try:
                obj = getattr(module, name)
            except Exception:  # noqa: BLE001 (a lazily loaded name that fails to load has no examples)
                continue
            owner = obj if inspect.isclass(obj) or callable(obj) and hasattr(obj, "__module__") else type(obj)
            if inspect.ismodule(obj) or not (getattr(owner, "__module__", None) or "").startswith(("tensorflow", "keras")):
                continue  # NumPy's and Python's own objects re-exported (tnp.float32, tf.data.AUTOTUNE) are not TensorFlow's
            # an object with several names is captured once: under the first of the names TensorFlow
            # exports it as (tf_export's record), else under the first namespace here
            exported = getattr(obj, "_tf_api_names", None)
            if not isinstance(exported, tuple):
                exported = ()
            path = f"{ns}.{name}" if ns else name
            position = (exported.index(path) if path in exported else len(exported), rank)
            if id(obj) not in chosen or position < chosen[id(obj)][0]:
                chosen[id(obj)] = (position, ns, name, obj)
    public = _public_index(root) if kind == "keras" else {}
    seen, docs = set(), []
    for _, ns, name, obj in sorted(chosen.values(), key=lambda c: (c[0][1], c[2])):
        qual = ".".join(p for p in (prefix, ns, name) if p)
        try:
            tests = finder.find(obj, qual, module=False, globs={})
        except Exception:  # noqa: BLE001 (objects doctest cannot inspect)
            continue
        for t in sorted(tests, key=lambda t: t.name):
            member = t.name[len(qual) + 1:]
            private = any(p.startswith("_") and not p.startswith("__") for p in member.split("."))
            key = (t.docstring, t.filename, t.lineno)
            if not t.examples or private or key in seen:
                continue
            seen.add(key)
            doc = {"id": t.name, "ns": ns, "ex": doclib.from_examples(t.examples)}
            if kind == "keras":
                names = _module_names(_member(obj, member), obj, t.examples, public)
                if names:
                    doc["globs"] = names
            docs.append(doc)
    return docs


def _public_index(root) -> dict:
    """``{id(object): its public path}`` over Keras's public namespaces (the first path found)."""
    index = {}
    for ns in KERAS_NAMESPACES:
        module = _resolve(root, ns)
        for name in sorted(n for n in dir(module) if not n.startswith("_")):
            try:
                obj = getattr(module, name)
            except Exception:  # noqa: BLE001 (a lazily loaded name that fails to load)
                continue
            index.setdefault(id(obj), ".".join(p for p in ("keras", ns, name) if p))
    return index


def _member(obj, member):
    import inspect

    for part in member.split(".") if member else ():
        try:
            obj = inspect.getattr_static(obj, part)
        except AttributeError:
            obj = getattr(obj, part, None)
    return obj


def _module_names(member, obj, examples, public) -> dict:
    """The names Keras's docstring uses from its defining module's globals (``ops``, ``layers``,
    ``Dense`` … unqualified), each as the public path of the same object (``keras.ops``,
    ``keras.layers.Dense``; a module outside Keras by its own name): the docstring runs with those
    names bound, as a doctest run in the defining module's globals would, through the public API
    (``doclib.bind``)."""
    import builtins
    import inspect
    import re
    import types

    target = getattr(member, "__func__", getattr(member, "fget", member))
    module = inspect.getmodule(target) or inspect.getmodule(obj)
    if module is None:
        return {}
    used = set(re.findall(r"\b[A-Za-z_]\w*\b", "".join(e.source for e in examples)))
    out = {}
    for name in sorted(used):
        if name in ("keras", "np") or hasattr(builtins, name) or name not in vars(module):
            continue
        value = vars(module)[name]
        if isinstance(value, types.ModuleType):
            path = value.__name__
            if path.startswith("keras.src."):
                path = "keras." + path[len("keras.src."):]
                try:
                    _resolve(_root("keras")[0], path[len("keras."):])
                except AttributeError:
                    continue
            elif path.startswith("keras"):
                continue
        elif id(value) in public:
            path = public[id(value)]
        else:
            continue
        out[name] = path
    return out


def _setup(kind, seed):
    import random

    import numpy as np
    import tensorflow as tf

    random.seed(seed)
    np.random.seed(seed)
    tf.compat.v1.reset_default_graph()
    tf.random.set_seed(seed)
    if kind == "keras":
        import keras

        keras.backend.clear_session()
        keras.utils.set_random_seed(seed)


def _run(kind, docs) -> list:
    import numpy as np

    sys.path.insert(0, str(HERE))
    import doclib

    if kind == "tf":
        import tensorflow as tf

        globs = {"__name__": "__main__", "tf": tf, "np": np, "os": os}
    else:
        import keras

        globs = {"__name__": "__main__", "keras": keras, "np": np}
    out, home = [], os.getcwd()
    for doc in docs:
        examples = doclib.to_examples(doc["ex"])
        if any("set_backend(" in r["src"] for r in doc["ex"]):  # would switch this interpreter's Keras away
            for record in doc["ex"]:
                record["tf"] = "not run"
            out.append(doc)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                _setup(kind, doclib.SEED)
                steps = doclib.run(doc["id"], examples, doclib.bind(globs, doc.get("globs", {}), globs.get("keras")), TIMEOUT)
            finally:
                os.chdir(home)
        for record, example, step in zip(doc["ex"], examples, steps):
            record["tf"] = step.outcome
            if step.got != example.want and step.outcome != "skip":
                record["got"] = step.got
        out.append(doc)
    return out


def worker(argv) -> None:
    mode, kind, path = argv
    if mode == "list":
        result = _list(kind)
    else:
        result = _run(kind, json.loads(pathlib.Path(path).read_text()))
        path = path + ".out"
    pathlib.Path(path).write_text(json.dumps(result))
    sys.stdout.flush()
    os._exit(0)  # not waiting for threads an example left running (MirroredStrategy's hang at exit)


# ---- the driver ----

def _call(python, mode, kind, path) -> None:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": tempfile.gettempdir(), **ENV}
    done = subprocess.run([python, __file__, "--worker", mode, kind, path], env=env, capture_output=True, text=True,
                          cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"{mode} {kind} {path}: exit {done.returncode}\n{done.stderr[-3000:]}")


def capture(python, kind, jobs) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        listing = os.path.join(tmp, "list.json")
        _call(python, "list", kind, listing)
        docs = json.loads(pathlib.Path(listing).read_text())
        by_ns: dict = {}
        for doc in docs:
            by_ns.setdefault(doc["ns"], []).append(doc)
        paths = []
        for i, (ns, group) in enumerate(sorted(by_ns.items(), key=lambda kv: -len(kv[1]))):
            path = os.path.join(tmp, f"{i}.json")
            pathlib.Path(path).write_text(json.dumps(group))
            paths.append(path)
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            list(pool.map(lambda p: _call(python, "run", kind, p), paths))
        result = []
        for path in paths:
            result.extend(json.loads(pathlib.Path(path + ".out").read_text()))
    return sorted(result, key=lambda d: d["id"])


def _versions(python) -> str:
    code = ("import sys, platform, numpy, tensorflow as tf, keras; print(f'tensorflow {tf.__version__}, "
            "keras {keras.__version__}, numpy {numpy.__version__}, python {platform.python_version()}')")
    return subprocess.run([python, "-c", code], capture_output=True, text=True, env={**os.environ, **ENV}).stdout.strip()


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        return worker(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with tensorflow-cpu==2.21.0")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("kinds", nargs="*", default=["tf", "keras"], choices=["tf", "keras"])
    args = parser.parse_args()
    versions = _versions(args.python)
    if not versions.startswith("tensorflow 2.21.0,"):
        raise SystemExit(f"{args.python}: not TensorFlow 2.21.0 ({versions or 'no tensorflow'})")
    CAPTURES.mkdir(exist_ok=True)
    for kind in args.kinds:
        docs = capture(args.python, kind, args.jobs)
        with open(CAPTURES / f"{kind}.jsonl", "w", encoding="utf-8") as f:
            for doc in docs:
                f.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        steps = [e for d in docs for e in d["ex"]]
        print(f"{kind}: {len(docs)} docstrings, {len(steps)} examples, "
              f"{sum(e['tf'] == 'ok' for e in steps)} ran as shown under TensorFlow")
    (CAPTURES / "ENVIRONMENT").write_text(
        f"{versions}\nplatform {platform.platform()}\ndate {datetime.date.today().isoformat()}\n"
        f"environment {' '.join(f'{k}={v}' for k, v in ENV.items())}\n")


if __name__ == "__main__":
    main()
