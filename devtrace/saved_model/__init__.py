"""``tf.saved_model.save`` / ``load`` for modules whose methods are ``tf.function``s.

The directory holds ``saved_model.json`` (devtrace's format, version 3: every traced concrete
function of the object's ``tf.function`` attributes as its graph — nodes with op type, name,
inputs as ``[node, output index]``, requested device and attributes; its argument and capture
placeholders; its outputs; the branches of its ``tf.cond``/``tf.while_loop`` nodes as graphs of
their own)
and ``variables/variables.{index,data-00000-of-00001}`` (a ``tf.train.Checkpoint`` of the
object). Constants' values are kept in ``saved_model.npz``. TensorFlow cannot read it and
devtrace cannot read TensorFlow's ``saved_model.pb``; a model saved by devtrace loads and runs
in a new process, with the same values.
"""

from __future__ import annotations

import json
import os

import numpy as np

from ..errors import NotFoundError
from ..polymorphic_function.function import ConcreteFunction, Function, TensorSpec
from ..util.nest import flatten as _flatten
from ..module.module import Module
from ..runtime.dtypes import DType, as_dtype
from ..runtime.graph.func_graph import FuncGraph
from ..runtime.tensor import Tensor
from ..runtime.values import constant
from ..runtime.eager.variables import Variable
from ..train import Checkpoint, _variables, read_values
from ..util.namespace import Namespace, missing
from .options import (ASSETS_DIRECTORY, ASSETS_KEY, CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME,  # noqa: F401
                      CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB,
                      DEFAULT_SERVING_SIGNATURE_DEF_KEY, GPU, PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS,
                      REGRESS_INPUTS, REGRESS_METHOD_NAME, REGRESS_OUTPUTS, SAVED_MODEL_FILENAME_PB,
                      SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION, SERVING, TPU, TRAINING,
                      VARIABLES_DIRECTORY, VARIABLES_FILENAME, Asset, Fingerprint, LoadOptions, SaveOptions,
                      TrackableResource, VariablePolicy, contains_saved_model, read_fingerprint)

FORMAT = "devtrace-saved-model"


def _functions(obj) -> dict:
    """``{attribute name: Function bound to obj}`` for the object's tf.function attributes."""
    out = {}
    for name in dir(type(obj)):
        if isinstance(getattr(type(obj), name, None), Function):
            out[name] = getattr(obj, name)
    for name, value in vars(obj).items():
        if isinstance(value, Function) and not name.startswith("_tf_function_"):
            out[name] = value
    return out


def _attr(value, arrays: list):
    """A node attribute as JSON: arrays by number, dtypes by name, a control-flow node's branch
    graphs as records of their own."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        arrays.append(np.asarray(value))
        return {"array": len(arrays) - 1}
    if isinstance(value, DType):
        return {"dtype": value.name}
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], FuncGraph):
        return {"branch": _branch_record(value[0], arrays), "positions": list(value[1])}
    if isinstance(value, tuple):
        return {"tuple": [_attr(v, arrays) for v in value]}
    if isinstance(value, list):
        return [_attr(v, arrays) for v in value]
    return value


def _unattr(value, arrays, graph):
    if isinstance(value, dict) and "array" in value:
        return arrays[f"a{value['array']}"]
    if isinstance(value, dict) and "dtype" in value:
        return as_dtype(value["dtype"])
    if isinstance(value, dict) and "branch" in value:
        return _rebuild_branch(value["branch"], arrays, graph), tuple(value["positions"])
    if isinstance(value, dict) and "tuple" in value:
        return tuple(_unattr(v, arrays, graph) for v in value["tuple"])
    if isinstance(value, list):
        return [_unattr(v, arrays, graph) for v in value] if any(isinstance(v, (dict, list)) for v in value) \
            else tuple(value)
    return value


def _nodes(graph, arrays: list) -> list:
    return [{"name": op.name, "op": op.type, "inputs": [[t._op._id, t._index] for t in op._inputs],
             "device": op._device, "colocation": list(op._colocation or ()),
             "dtype": op._kernel_dtype, "output_dtype": op._outputs[0]._dtype.name if op._outputs else None,
             "shape": None if not op._outputs or op._outputs[0]._shape is None else list(op._outputs[0]._shape),
             "attrs": {k: _attr(v, arrays) for k, v in (op._attrs or {}).items()}
             | ({"_host_inputs": op._n_host} if op._n_host else {})} for op in graph._ops]


def _branch_record(graph: FuncGraph, arrays: list) -> dict:
    """A branch or loop body: its nodes, loop-variable placeholders, outer captures, outputs."""
    return {"name": graph.name, "nodes": _nodes(graph, arrays), "inputs": [t._op._id for t in graph.inputs],
            "outer": [node._op._id for _, node in graph.outer_captures],
            "outputs": [[t._op._id, t._index] for t in graph.flat_outputs]}


def _graph_record(concrete: ConcreteFunction, variable_paths: dict, arrays: list) -> dict:
    graph = concrete.graph
    captures = []
    for value, node in graph.captures.values():
        if isinstance(value, Variable):
            captures.append({"node": node._op._id, "variable": variable_paths[id(value)]})
        else:
            arrays.append(value.numpy())
            captures.append({"node": node._op._id, "array": len(arrays) - 1})
    args, kwargs = concrete.structured_input_signature
    return {"name": graph.name, "nodes": _nodes(graph, arrays), "inputs": [t._op._id for t in graph.inputs],
            "captures": captures, "outputs": [None if t is None else t._op._id for t in _flatten(graph.outputs)],
            "single_output": isinstance(graph.outputs, Tensor),
            "signature": [[None if s.shape.rank is None else list(s.shape), s.dtype.name, s.name]
                          for s in args if isinstance(s, TensorSpec)]}


def _arg_names(function) -> list:
    """The Python parameters an input signature binds (``args_<i>`` for ``*args``), TensorFlow's names."""
    import inspect

    names = []
    for p in inspect.signature(function.python_function).parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            names += [f"{p.name}_{i}" for i in range(len(function.input_signature) - len(names))]
            break
        names.append(p.name)
    return names[:len(function.input_signature)]


def _signature_functions(obj, signatures) -> dict:
    """``{signature key: ConcreteFunction}``: those given (one function is ``serving_default``), or
    else, as TensorFlow, the object's one ``tf.function`` with an input signature, if only one has one."""
    if signatures is None:
        found = [f for f in _functions(obj).values()
                 if f.input_signature is not None and _valid_signature(f.get_concrete_function())]
        signatures = {} if len(found) != 1 else found[0]
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    out = {}
    for key, function in signatures.items():
        if isinstance(function, Function) and function.input_signature is not None:
            function = function.get_concrete_function()
        if not isinstance(function, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but got "
                             f"{function}. Only `tf.functions` with an input signature or concrete functions can "
                             f"be used as a signature.")
        out[key] = function
    return out


def _valid_signature(concrete) -> bool:
    """TensorFlow's test of a function found to be the default signature: it has outputs, all tensors
    (a function returning nothing — an assignment — is none)."""
    outputs = _flatten(concrete.graph.outputs)
    return bool(outputs) and all(isinstance(t, Tensor) for t in outputs)


def _output_keys(outputs) -> list:
    """TensorFlow's names of a signature's outputs: a dict's keys (in the flattened order), else
    ``output_<i>``."""
    if isinstance(outputs, dict):
        return sorted(outputs)
    return [f"output_{i}" for i in range(len(outputs) if isinstance(outputs, (list, tuple)) else 1)]


def save(obj, export_dir, signatures=None, options=None) -> None:
    if not isinstance(obj, Module):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
                         f"`Trackable` class, for export. Got {obj} with type {type(obj)}.")
    export_dir = os.fspath(export_dir)
    os.makedirs(os.path.join(export_dir, "variables"), exist_ok=True)
    os.makedirs(os.path.join(export_dir, "assets"), exist_ok=True)
    checkpoint = Checkpoint(root=obj)
    variable_paths = {}
    for path, v in _variables(checkpoint).items():  # a distributed variable's copies: its path too
        for copy in (v, *getattr(v, "_values", ())):
            variable_paths.setdefault(id(copy), path)
    arrays: list = []
    functions = {}
    signature_functions = _signature_functions(obj, signatures)
    for name, function in _functions(obj).items():
        if function.input_signature is not None:
            function.get_concrete_function()
        functions[name] = [_graph_record(c, variable_paths, arrays) for c in function._concrete.values()]
        if function.input_signature is not None and all(isinstance(x, TensorSpec) for x in function.input_signature):
            functions[name][0]["bound"] = {"names": _arg_names(function), "specs": [
                [None if x.shape.rank is None else list(x.shape), x.dtype.name, x.name] for x in function.input_signature]}
    saved_signatures = {key: dict(_graph_record(c, variable_paths, arrays), output_keys=_output_keys(c.graph.outputs))
                        for key, c in signature_functions.items()}
    checkpoint.write(os.path.join(export_dir, "variables", "variables"))
    np.savez(os.path.join(export_dir, "saved_model.npz"), **{f"a{i}": a for i, a in enumerate(arrays)})
    with open(os.path.join(export_dir, "saved_model.json"), "w", encoding="utf-8") as f:
        names = {path: v.name.rsplit(":", 1)[0] for path, v in _variables(checkpoint).items()}
        json.dump({"format": FORMAT, "version": 3, "variable_names": names, "functions": functions,
                   "signatures": saved_signatures}, f, indent=1)


class _UserObject(Module):
    """What ``load`` returns: the saved object's variables (by attribute path) and functions."""

    def __init__(self):
        super().__init__(name="user_object")

    def __call__(self, *args, **kwargs):
        """A saved ``__call__`` (Python looks special methods up on the class)."""
        call = self.__dict__.get("__call__")
        if call is None:
            raise TypeError("'_UserObject' object is not callable")
        return call(*args, **kwargs)


class _SignatureFunction:
    """A loaded signature: called with tensors by argument name (or in order), it returns a dict of
    its outputs by name (``output_0`` … for a function that returned no dict)."""

    def __init__(self, concrete, keys):
        self._concrete, self._keys = concrete, keys
        self._names = [s.name for s in concrete.structured_input_signature[0]]
        # TensorFlow's signatures take keywords only: ((), {name: spec})
        self.structured_input_signature = ((), {s.name: s for s in concrete.structured_input_signature[0]})
        self.structured_outputs = {k: TensorSpec(None if t.shape.rank is None else tuple(t.shape), t.dtype, k)
                                   for k, t in zip(keys, _flatten(concrete.graph.outputs))}

    def __call__(self, *args, **kwargs):
        names = self._names
        tensors = list(args) + [kwargs[n] for n in names[len(args):] if n in kwargs]
        outputs = _flatten(self._concrete._call_flat([constant(t) if not isinstance(t, Tensor) else t
                                                      for t in tensors]))
        return dict(zip(self._keys, outputs))


class _SignatureMap(dict):
    """``loaded.signatures``: signature keys to their functions."""

    def __repr__(self):
        return f"_SignatureMap({dict(self)})"


class _RestoredFunction:
    def __init__(self, name, concretes, bound=None):
        self.__name__ = name
        self._concretes = concretes
        self._bound = bound  # a function saved with an input signature: its parameters' names and specs

    def __call__(self, *args):
        tensors = [constant(a) if isinstance(a, (np.ndarray, np.generic)) else a  # NumPy arguments: as tensors
                   for a in _flatten(list(args)) if isinstance(a, (Tensor, np.ndarray, np.generic))]
        if self._bound is not None:
            self._bind(args, tensors)
        for concrete in self._concretes:
            specs = [TensorSpec(None if t.shape.rank is None else tuple(t.shape), t.dtype) for t in concrete.graph.inputs]
            if len(specs) == len(tensors) and all(s.is_compatible_with(t) for s, t in zip(specs, tensors)):
                return concrete._call_flat(tensors)
        raise ValueError(f"Could not find matching concrete function to call loaded from the SavedModel. Got: "
                         f"{list(args)}")

    def _bind(self, args, tensors) -> None:
        """TensorFlow's error for arguments the saved input signature does not accept."""
        specs = [TensorSpec(None if shape is None else tuple(shape), dtype, name)
                 for shape, dtype, name in self._bound["specs"]]
        for value, spec in zip(tensors, specs):
            if not spec.is_compatible_with(value):
                shown = ", ".join(f"{n}: {x!r}" for n, x in zip(self._bound["names"], specs))
                raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast "
                                f"{TensorSpec(tuple(value.shape), value.dtype, spec.name)!r} to {spec!r}`. Received "
                                f"args: {tuple(args)} and kwargs: {{}} for signature: ({shown}).")


def _rebuild_nodes(graph, nodes, arrays) -> None:
    ops = graph._ops
    for node in nodes:
        dtype = as_dtype(node["dtype"]) if node["dtype"] else None
        shape = None if node["shape"] is None else tuple(node["shape"])
        with graph.device(node["device"] or None):
            graph._create_op(node["op"], tuple(ops[i]._outputs[k] for i, k in node["inputs"]),
                             {k: _unattr(v, arrays, graph) for k, v in node["attrs"].items()} or None,
                             node["name"] + "/", dtype, shape)
        ops[-1]._colocation = tuple(node["colocation"]) or None
        if ops[-1]._outputs and node["output_dtype"] and len(ops[-1]._outputs) == 1:
            ops[-1]._outputs[0]._dtype = as_dtype(node["output_dtype"])


def _rebuild_branch(record, arrays, outer) -> FuncGraph:
    graph = FuncGraph(record["name"], outer=outer)
    _rebuild_nodes(graph, record["nodes"], arrays)
    ops = graph._ops
    graph.inputs = [ops[i]._outputs[0] for i in record["inputs"]]
    graph.outer_captures = [(None, ops[i]._outputs[0]) for i in record["outer"]]
    graph.flat_outputs = [ops[i]._outputs[k] for i, k in record["outputs"]]
    return graph


def _rebuild(record, variables, arrays) -> ConcreteFunction:
    graph = FuncGraph(record["name"])
    ops = graph._ops
    _rebuild_nodes(graph, record["nodes"], arrays)
    graph.inputs = [ops[i]._outputs[0] for i in record["inputs"]]
    for cap in record["captures"]:
        value = variables[cap["variable"]] if "variable" in cap else constant(arrays[f"a{cap['array']}"])
        graph.captures[id(value)] = (value, ops[cap["node"]]._outputs[0])
        if "variable" in cap:
            graph.variables.append(value)
    outputs = [None if i is None else ops[i]._outputs[0] for i in record["outputs"]]
    graph.outputs = outputs[0] if record["single_output"] else tuple(outputs)
    signature = tuple(TensorSpec(None if s is None else tuple(s), d, n) for s, d, n in record["signature"])
    return ConcreteFunction(None, graph, signature, {})


def load(export_dir, tags=None, options=None):
    export_dir = os.fspath(export_dir)
    try:
        with open(os.path.join(export_dir, "saved_model.json"), encoding="utf-8") as f:
            model = json.load(f)
        arrays = np.load(os.path.join(export_dir, "saved_model.npz"))
    except (OSError, ValueError):
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}{{saved_model.pbtxt|saved_model.pb}}") \
            from None
    if model.get("format") != FORMAT:
        raise NotFoundError(f"{export_dir}: not a devtrace SavedModel")
    saved = read_values(os.path.join(export_dir, "variables", "variables"))
    obj = _UserObject()
    variables = {}
    for path, value in saved.items():
        if path.startswith("root/"):
            variables[path] = Variable(value, name=model.get("variable_names", {}).get(path, path.rsplit("/", 1)[-1]))
            _attach(obj, path[len("root/"):].split("/"), variables[path])
    for name, records in model["functions"].items():
        setattr(obj, name, _RestoredFunction(name, [_rebuild(r, variables, arrays) for r in records],
                                             records[0].get("bound") if records else None))
    obj.signatures = _SignatureMap((key, _SignatureFunction(_rebuild(r, variables, arrays), r["output_keys"]))
                                   for key, r in sorted(model.get("signatures", {}).items()))
    return obj


def _attach(obj, parts, variable) -> None:
    """``variable`` at its attribute path; a path's numbered steps (``variables/0``) are a list's items,
    as TensorFlow restores a saved list (also under a name a Module's property has: ``variables``)."""
    for i, part in enumerate(parts[:-1]):
        child = _child(obj, part)
        if child is None:
            child = [] if parts[i + 1].isdigit() else _UserObject()
            _put(obj, part, child)
        obj = child
    _put(obj, parts[-1], variable)


def _child(obj, part):
    if isinstance(obj, list):
        return obj[int(part)] if int(part) < len(obj) else None
    return obj.__dict__.get(part)


def _put(obj, part, value) -> None:
    if isinstance(obj, list):
        obj.extend([None] * (int(part) + 1 - len(obj)))
        obj[int(part)] = value
    else:
        obj.__dict__[part] = value


experimental = Namespace(_prefix="saved_model.experimental", Fingerprint=Fingerprint,
                         TrackableResource=TrackableResource, VariablePolicy=VariablePolicy,
                         read_fingerprint=read_fingerprint)

__getattr__ = missing("saved_model")  # a name devtrace lacks says so (util.namespace)
