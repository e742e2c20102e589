"""The one-op function TensorFlow 2.21 builds the first time an op signature runs eagerly: its
``_Arg`` nodes (one per OpDef input, a list input's ``name_0``, ``name_1`` …), the op, its
``_Retval`` nodes (``name_RetVal``, a list output's ``name_0_RetVal`` …), named after the OpDef's
args (``ops/arg_names.py``) with ``_`` doubled. TensorFlow keeps int32 args and retvals on the
device (``_DeviceArg`` / ``_DeviceRetval``) unless the op is ``_EagerConst`` or its CPU kernel keeps
an output in host memory (``Shape``). An op without inputs and with one output is a generator: the
placer places it after its ``_Retval``. The signature (op, device, input dtypes, the attrs that are
no TensorFlow input, a variable's shape) is TensorFlow's kernel cache key: the same signature again
builds nothing (tensor shapes do not count).

Built only while the placement log is on; handed to its listeners (``KernelGraph``), not recorded.
"""

from __future__ import annotations

from ...trace import events as ev


def announce(ctx, opdef, inputs, attrs, dtype, device, resource=None) -> None:
    """Tell the placement log about the function ``opdef`` runs as, the first time its signature
    runs. ``resource``: a variable's handle, whose shape the signature holds (and whether the
    variable is being initialised: its first assignment is a signature of its own)."""
    names = opdef.arg_names
    if names is None:
        return
    ins, outs = ([_parsed(a) for a in group] for group in names[:2])
    host = names[2]
    values = set(opdef.host_args) | {name for name, _, _ in ins}  # TensorFlow's inputs, attrs in devtrace
    kept = () if not attrs else tuple(sorted((k, repr(v)) for k, v in attrs.items() if k not in values))
    key = (opdef.name, device.name, tuple(t._dtype for t in inputs), dtype, kept, _resource_key(resource, inputs))
    if key in ctx.kernel_graphs:
        return
    ctx.kernel_graphs.add(key)
    on_device = opdef.name != "_EagerConst" and not any(name in host for name, _, _ in outs)
    kind = dtype.name if dtype is not None else None
    kind = attrs["dtype"] if attrs and isinstance(attrs.get("dtype"), str) else kind  # OneHot's T
    dtypes = [t._dtype.name for t in inputs]
    t_outputs = {"T"} if any(by == "T" for _, _, by in outs) else set()  # T is the kernel's dtype (OneHot's on_value)
    if (resource is not None or (ins and ins[0][2] == "resource")) and len(dtypes) < len(ins):
        dtypes.insert(0, "resource")  # the handle (a variable's, a table's, a writer's) is not among devtrace's inputs
    args = [(name, "_DeviceArg" if on_device and t == "int32" else "_Arg")
            for name, t in _args(ins, dtypes, opdef.host_args, dict(attrs or {}, **dict.fromkeys(t_outputs)), kind)]
    retvals = [(name, "_DeviceRetval" if on_device and t == "int32" else "_Retval")
               for name, t in _retvals(outs, _output_dtypes(opdef, inputs, attrs, dtype, kind),
                                       opdef.output_lists(attrs or {}) if opdef.output_lists else None)]
    op = [(opdef.name, opdef.name)]
    nodes = args + (retvals + op if not ins and len(retvals) == 1 else op + retvals)  # a generator: last
    ctx.trace.announce(ev.KernelGraph([(name, node, device.name) for name, node in nodes]))


def _parsed(arg: str):
    """``(name, is a list, fixed dtype, "T" or None)`` of an ``arg_names`` entry (``split_dim:int32``,
    ``on_value@T``)."""
    arg, _, by = arg.partition("@")
    name, _, fixed = arg.partition(":")
    return name.rstrip("*"), name.endswith("*"), fixed or (by or None)


def _resource_key(resource, inputs):
    if resource is None:
        return None
    variable = resource.variable
    value = None if variable is None else variable._value
    if value is None:
        return "init", tuple(inputs[0]._value.shape) if inputs else ()
    return "set", tuple(value._value.shape)


def _escaped(name: str) -> str:
    return name.replace("_", "__")


def _args(ins, dtypes, host_args, given, kind) -> list:
    """``(name, dtype name)`` per input: devtrace's inputs in order; an input devtrace passes as an
    attr of the same name (``given``: Fill's ``value``; ``T`` in it: so do the ``T``-typed) has the
    kernel's dtype ``kind``; another
    host argument (named in ``host_args``, or a trailing input devtrace does not pass) an int32."""
    lists = sum(1 for _, many, _ in ins if many)
    singles = [name for name, many, _ in ins if not many and name not in host_args]
    per_list = max(len(dtypes) - len(singles), 0) // lists if lists else 0
    attr_args = set(host_args) | (set(singles[len(dtypes):]) if not lists else set())
    nodes, i = [], 0
    for name, many, fixed in ins:
        if name in attr_args:
            by_kernel = "T" in given if fixed == "T" else name in given and name not in host_args
            held = getattr(given.get(name), "dtype", None)  # a host argument kept as an array (Transpose's perm)
            nodes.append((_escaped(name), kind if by_kernel else fixed if fixed not in (None, "T") else
                          "int32" if held is None else str(held)))
            continue
        for k in range(per_list if many else 1):
            nodes.append((f"{_escaped(name)}_{k}" if many else _escaped(name), dtypes[i] if i < len(dtypes) else None))
            i += 1
    return nodes


def _retvals(outs, dtypes, counts=None) -> list:
    """``(name, dtype name)`` per output; ``counts``: each list output's length (else the lists
    share the outputs evenly)."""
    lists = sum(1 for _, many, _ in outs if many)
    per_list = max(len(dtypes) - (len(outs) - lists), 0) // lists if lists else 0
    counts = iter(counts or ())
    nodes, i = [], 0
    for name, many, fixed in outs:
        for k in range(next(counts, per_list) if many else 1):
            t = fixed if fixed != "T" and fixed else (dtypes[i] if i < len(dtypes) else None)
            nodes.append((f"{_escaped(name)}_{k}_RetVal" if many else f"{_escaped(name)}_RetVal", t))
            i += 1
    return nodes


def _output_dtypes(opdef, inputs, attrs, dtype, kind) -> list:
    """The dtype name of each output, from the op's shape function (the kernel has not run yet);
    without one, the kernel's dtype."""
    if opdef.shape is None:
        return [kind]
    try:
        out, _ = opdef.shape(opdef.name, [tuple(t._value.shape) for t in inputs], attrs or {}, dtype)
    except Exception:  # noqa: BLE001 (a shape function that cannot tell: the kernel will raise)
        return [kind]
    if isinstance(out, list):
        return [getattr(d, "name", None) for d, _ in out]
    return [getattr(out, "name", None)]
