# Issue 11 (AutoGraph, a corpus): `tf.autograph.to_code` of 60 functions with control flow taken from devtrace's own source (try/except, imports, closures, attribute and item assignment, nested loops, early returns, break/continue): AutoGraph's analyses (liveness, reaching definitions, the order of its sets) on real code. The functions are only converted, never run.
import tensorflow as tf
import sys


def cell(label, f):
    """One cell: a '--- label' marker on stdout and stderr, then the result or the error."""
    print(f"--- {label}", flush=True)
    print(f"--- {label}", file=sys.stderr, flush=True)
    try:
        r = f()
        if r is not None:
            print(r, flush=True)
    except Exception as e:
        print(type(e).__name__, e, flush=True)


def default_session_0(session, what):
    session = session or get_default_session()
    if session is None:
        if what == 'Tensor':
            raise ValueError('Cannot evaluate tensor using `eval()`: No default session is registered. Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`')
        raise ValueError('Cannot execute operation using `run()`: No default session is registered. Use `with sess.as_default():` or pass an explicit session to `run(session=sess)`')
    return session


def call_1(self, *args):
    tensors = [a for a in _flatten(list(args)) if isinstance(a, Tensor)]
    for concrete in self._concretes:
        specs = [TensorSpec(tuple(t.shape), t.dtype) for t in concrete.graph.inputs]
        if len(specs) == len(tensors) and all((s.is_compatible_with(t) for s, t in zip(specs, tensors))):
            return concrete._call_flat(tensors)
    raise ValueError(f'Could not find matching concrete function to call loaded from the SavedModel. Got: {list(args)}')


def node_2(self, ctx, op, device, values):
    if op.type in CONTROL_FLOW:
        return self._control_flow(ctx, op, device, values)
    trace = ctx.trace
    trace._seq = seq = trace._seq + 1
    if op.type == 'Const':
        array = op._attrs['value']
        dtype = op._outputs[0]._dtype
        value = onto_device(ctx, device, lambda: device.backend.from_host(array), array, 'Const', seq, dtype, op.name)
        trace._events.append(ev.OpPlaced(seq, 'Const', op.name, op._device, device.name, self.reasons[op._id], [], list(array.shape), dtype.name))
        return Tensor(value, device, allocate(ctx, device, value, 'Const', seq, dtype, op.name), dtype, seq)
    inputs = [value_of(values, t) for t in op._inputs]
    variable = None
    if op.type in RESOURCE_OPS:
        variable, inputs = (inputs[0], inputs[1:])
        inputs = ([variable._value] if op.type != 'AssignVariableOp' else []) + inputs
    copies = [self._on(ctx, t, device, seq, op, k) for k, t in enumerate(inputs)]
    record = (seq, op.type, op.name, op._device, device.name, self.reasons[op._id], [t._seq for t in inputs])
    out = run_step(ctx, device, REGISTRY[op.type], [c._value for c in copies], op._attrs or None, record)
    if variable is not None and op.type.startswith('Assign'):
        variable._value = out
        return out
    if ctx.tapes and out is not None:
        if variable is not None:
            variable_accessed(ctx, variable)
        tape_record(ctx, op.type, op._attrs, inputs, out, device)
    return out


def bucket_count_3(n):
    if n < len(_FAST_BUCKETS):
        return _FAST_BUCKETS[n]
    while not _is_prime(n):
        n += 1
    return n


def initial_tensor_4(graph, initial_value, dtype, validate_shape, name=None):
    if initial_value is None:
        raise ValueError('initial_value must be specified.')
    if callable(initial_value):
        initial_value = initial_value()
    init = graph_tensor(graph, initial_value, dtype, name)
    if validate_shape and init._shape is not None and (None in init._shape):
        raise ValueError(f'initial_value must have a shape specified: {init}')
    return init


def render_5(events):
    out = []
    calls = 0
    for event in events:
        if event.kind == 'function_call':
            calls += -1 if event.end else 1
        elif event.kind == 'op_placed' and event.seq == 0:
            out.append(f'{event.node}: ({event.op}): {event.device}')
        elif not (calls and event.kind == 'op_placed'):
            text = line(event)
            if text is not None:
                out.append(text)
    return '\n'.join(out) + '\n' if out else ''


def check_model_inputs_6(self, inputs):
    flat_in = self._inputs if isinstance(self._inputs, (list, tuple)) else [self._inputs]
    given = inputs if isinstance(self._inputs, (list, tuple)) else [inputs]
    for i, (spec, value) in enumerate(zip(flat_in, given)):
        shape = tuple(tf.convert_to_tensor(value).shape)
        if len(shape) == len(spec.shape) and any((s is not None and s != d for s, d in zip(spec.shape, shape))):
            raise ValueError(f"Input {i} with name '{spec._layer.name}' of layer '{self.name}' is incompatible with the layer: expected shape={spec.shape}, found shape={shape}")


def model_input_shape_7(layer):
    inputs = getattr(layer, '_inputs', None)
    if isinstance(inputs, KerasTensor):
        return inputs.shape
    stack = getattr(layer, '_stack', None)
    if stack and stack[0]._inbound_nodes:
        return stack[0]._inbound_nodes[0].input_tensors[0].shape
    return None


def resource_8(self, op, arrays, device, seq):
    ref, kind = (arrays[0], op.type)
    variables = self.session._variables
    if kind in ('VarIsInitializedOp', 'IsVariableInitialized'):
        return self.materialize(op, np.array(ref.var_id in variables), device, seq)
    if kind == 'AssignVariableOp':
        self.assign(op, arrays, device, seq)
        return None
    current = variables.get(ref.var_id)
    if current is None:
        detail = f'Resource localhost/{ref.name}/N10tensorflow3VarE does not exist.' if variables else f'Container localhost does not exist. (Could not find resource: localhost/{ref.name})'
        raise FailedPreconditionError(f'Could not find variable {ref.name}. This could mean that the variable has been deleted. In TF1, it can also mean the variable is uninitialized. Debug info: container=localhost, status error message={detail}\n\t [[{{{{node {op.name}}}}}]]', op=kind)
    event = self.session._events[op._id]
    out = run_step(self.ctx, device, REGISTRY[kind], [current._value] + arrays[1:], None, event, op.name)
    if kind != 'ReadVariableOp':
        self.assign(op, [ref, out._value], device, seq)
        return None
    return out


def str_9(self):
    lines = [f'name: "{self.name}"', f'op: "{self.op}"'] + [f'input: "{i}"' for i in self.input]
    if self.device:
        lines.append(f'device: "{self.device}"')
    dtype = self.attr.get('T')
    if dtype is not None:
        lines += ['attr {', '  key: "T"', '  value {', f'    type: {dtype.enum_name}', '  }', '}']
    return ''.join((line + '\n' for line in lines))


def walk_10(obj, path):
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Variable):
        out[path] = obj
        return
    for name, child in _children(obj):
        walk(child, f'{path}/{name}' if path else name)


def unique_list_11(items):
    seen, out = (set(), [])
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def map_structure_12(fn, *structures):
    first = structures[0]
    if isinstance(first, dict):
        return {k: map_structure(fn, *[s[k] for s in structures]) for k in sorted(first)}
    if isinstance(first, tuple):
        return tuple((map_structure(fn, *parts) for parts in zip(*structures)))
    return fn(*structures)


def device_counts_13(config):
    counts = {}
    for device_type, n in config.device_count.items():
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"{n!r} has type {type(n).__name__}, but expected one of: int (ConfigProto.device_count['{device_type}'])")
        if n < 0:
            raise InvalidArgumentError(f"ConfigProto.device_count['{device_type}'] = {n}: a device count cannot be negative (devtrace refuses it; TensorFlow reads a negative GPU count as 'no limit' through an unsigned conversion)")
        counts[device_type.upper()] = n
    return counts


def folded_shape_14(tensor, axis, n):
    if context().eager:
        leading = reduction_ops.reduce_prod(array_ops.shape(tensor)[axis:axis + n], [0])
        before, after = (array_ops.shape(tensor)[:axis], array_ops.shape(tensor)[axis + n:])
        return array_ops.concat([before, array_ops.stack([leading]), after], 0)
    shape = tuple(tensor.shape)
    if None in shape:
        raise NotImplementedError('devtrace does not implement tf.boolean_mask in a graph for a tensor of unknown shape yet')
    return list(shape[:axis]) + [int(np.prod(shape[axis:axis + n]))] + list(shape[axis + n:])


def regroup_15(values):
    first = values[0]
    if all((v is first for v in values)):
        return first
    if isinstance(first, (tuple, list)) and all((type(v) is type(first) and len(v) == len(first) for v in values)):
        return type(first)((regroup([v[k] for v in values]) for k in range(len(first))))
    if isinstance(first, dict) and all((isinstance(v, dict) and v.keys() == first.keys() for v in values)):
        return {k: regroup([v[k] for v in values]) for k in first}
    return PerReplica(values)


def attach_16(ctx, stream=None, placement_log=None):
    trace = ctx.trace
    for listener in trace.message_listeners:
        console = getattr(listener, '__self__', None)
        if isinstance(console, Console):
            console.stream, console.placement_log = (stream, placement_log)
            return console
    console = Console(trace, stream, placement_log)
    trace.message_listeners.append(console.message)
    trace.placement_listeners.append(console.placement)
    trace.set_placement_logging(bool(trace.listeners) or ctx.log_device_placement)
    return console


def merged_17(outer, name):
    hit = _MERGED.get((outer, name))
    if hit is None:
        merged = DeviceSpecV2.from_string(outer).make_merged_spec(DeviceSpecV2.from_string(name)).to_string()
        if len(_MERGED) >= 4096:
            _MERGED.clear()
        hit = _MERGED[outer, name] = (merged, parse_full_name(merged))
    return hit


def new_symbol_18(self, root, reserved):
    pieces = root.split('_')
    n = 0
    if pieces[-1].isdigit():
        root, n = ('_'.join(pieces[:-1]), int(pieces[-1]))
    name = root
    while name in self.namespace or name in reserved or name in self.generated:
        n += 1
        name = f'{root}_{n}'
    self.generated.add(name)
    return name


def parse_19(text, name=None, program=None, progress=None):
    if isinstance(text, (bytes, bytearray)):
        if b'\x00' in text:
            raise UsageError(f'{name}: binary data, not a TensorFlow log')
        text = bytes(text).decode('utf-8', errors='replace')
    if '\x00' in text:
        raise UsageError(f'{name}: binary data, not a TensorFlow log')
    if not text.strip():
        raise UsageError(f'{name}: empty, no TensorFlow log to import')
    parser = _Parser()
    for lineno, raw in enumerate(text.splitlines(), 1):
        parser.feed(lineno, raw)
        if progress is not None and (not lineno & 4095):
            progress(lineno)
    events = parser.finish(program)
    if len(events) == 1:
        raise UsageError(f"{name}: no device placement lines in {_n(parser.stats.lines, 'line')} (was log_device_placement on?)")
    return (events, parser.stats)


def init_20(self, path, option=None):
    self.path = os.fspath(path)
    where = f'{option} {self.path}' if option else self.path
    if os.path.isdir(self.path):
        raise UsageError(f'{where}: is a directory')
    directory = os.path.dirname(os.path.abspath(self.path))
    if not os.path.isdir(directory):
        raise UsageError(f'{where}: directory {directory} does not exist')
    self.tmp = os.path.join(directory, f'.{os.path.basename(self.path)}.{os.getpid()}.tmp')
    if os.path.exists(self.path) and (not os.path.isfile(self.path)):
        self.tmp = None
    try:
        self.file = open(self.tmp or self.path, 'w', encoding='utf-8')
    except OSError as e:
        raise UsageError(f'{where}: cannot write ({e.strerror or e})') from None
    self._where = where


def save_21(self, checkpoint_number=None):
    if checkpoint_number is not None:
        self._checkpoint.save_counter.assign(int(checkpoint_number) - 1)
    path = self._checkpoint.save(self._prefix)
    self._checkpoints.append(path)
    self._timestamps.append(time.time())
    while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:
        old = self._checkpoints.pop(0)
        self._timestamps.pop(0)
        for suffix in ('.index', DATA_SUFFIX):
            if os.path.exists(old + suffix):
                os.unlink(old + suffix)
    _write_state(self._directory, self._checkpoints, self._timestamps, self._created)
    return path


def called_with_tracing_22(self, function):
    self.call_count += 1
    self.calls_per_tracing.append(1)
    while self.calls_per_tracing and self.call_count - self.calls_per_tracing[0] > _MAX_CALL_HISTORY:
        self.call_count -= self.calls_per_tracing.pop(0)
    if self.warnings >= _MAX_WARNINGS or len(self.calls_per_tracing) < _THRESHOLD:
        return
    self.warnings += 1
    sys.stderr.write(f'WARNING:tensorflow:{len(self.calls_per_tracing)} out of the last {self.call_count} calls to {function!r} triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), please define your @tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and https://www.tensorflow.org/api_docs/python/tf/function for  more details.\n')


def visit_FunctionDef_23(self, node):
    self.level += 1
    name = self.ctx.namer.new_symbol('fscope', self.ctx.reserved)
    node.ag_fscope = name
    self.generic_visit(node)
    top = self.level == 2
    self.level -= 1
    if top:
        node.decorator_list = []
    else:
        node.decorator_list.append(ast.parse('ag__.autograph_artifact', mode='eval').body)
    docstring = []
    if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
        docstring, node.body = (node.body[:1], node.body[1:])
    options = ast.parse(self.options if top else 'ag__.STD', mode='eval').body
    wrapped = templates.replace('with ag__.FunctionScope(function_name, context_name, options) as function_context:\n    body', function_name=ast.Constant(node.name), context_name=ast.Constant(name), options=options, function_context=name, body=node.body or [ast.Pass()])
    node.body = docstring + templates.locate(wrapped, node)
    return node


def take_best_fit_24(self, rounded):
    k = self._sizes.successor(rounded >> 8)
    if k is None:
        return None
    heap, size, free_at = (self._heaps[k], k << 8, self._free_at)
    while True:
        chunk = free_at.get(heap[0])
        if chunk is not None and chunk.size == size:
            break
        heapq.heappop(heap)
    self._remove_free(chunk)
    return chunk


def indices_25(text, flag):
    out = []
    for part in text.split(','):
        part = part.strip()
        if not (part.isascii() and part.isdigit()):
            raise UsageError(f"{flag} {text}: '{part}' is not a GPU index (expected e.g. {flag} 0,2)")
        if int(part) in out:
            raise UsageError(f'{flag} {text}: GPU {int(part)} is listed twice')
        out.append(int(part))
    return out


def batch_jacobian_26(self, target, source, unconnected_gradients=None, parallel_iterations=None, experimental_use_pfor=None):
    full = self.jacobian(target, source, unconnected_gradients)
    if full is None:
        return None
    t_rest = len(target.shape) - 1
    if not context().eager:
        summed = math_ops.reduce_sum(full, 0)
        rank = len(full.shape) - 1
        return array_ops.transpose(summed, [t_rest] + list(range(t_rest)) + list(range(t_rest + 1, rank)))
    summed = full.numpy().sum(axis=0)
    return array_ops.constant(np.moveaxis(summed, t_rest, 0))


def verify_cond_vars_27(body_vars, orelse_vars, names):
    from ..runtime.values import convert_to_tensor
    for name, main, other in zip(names, body_vars, orelse_vars):
        if main is None:
            raise ValueError(f"'{name}' is None at the end of the main branch.")
        if other is None:
            raise ValueError(f"'{name}' is None at the end of the else branch.")
        main, other = (convert_to_tensor(v) if isinstance(v, _PY_VALUES) else v for v in (main, other))
        if isinstance(main, Tensor) and isinstance(other, Tensor) and (main.dtype != other.dtype):
            raise TypeError(f"'{name}' has dtype {main.dtype.name} in the main branch, but dtype {other.dtype.name} in the else branch")


def check_28(true, num_true, num_sampled, unique, range_max):
    if true.ndim != 2:
        raise ValueError('true_classes must be a matrix')
    if true.shape[1] != num_true:
        raise ValueError(f'true_classes must have num_true columns, expected: {true.shape[1]} was: {num_true}')
    if unique and num_sampled > range_max:
        raise ValueError("Sampler's range is too small.")
    for value in true.reshape(-1).tolist():
        if not 0 <= value < range_max:
            raise ValueError(f'`true_candidate` out of range [0, {range_max}), received {value}')


def model_name_29(description):
    for part in (description or '').split(', '):
        if part.startswith('name: '):
            return part[len('name: '):]
    return ''


def after_30(self, node):
    state = self.blocks[-1]
    if not state.used:
        return (node, None)
    target = None
    if state.guard_now:
        cond, = templates.replace('if not do_return_var_name:\n    original_node', do_return_var_name=self.names[-1][0], original_node=node if isinstance(node, list) else [node])
        templates.locate([cond], node[0] if isinstance(node, list) else node)
        node, target = (cond, cond.body)
    state.guard_now, state.guard_next = (state.guard_next, False)
    return (node, target)


def control_flow_31(self, ctx, op, device, values):
    inputs = [value_of(values, t) for t in op._inputs]
    attrs = op._attrs
    trace = ctx.trace
    trace._seq = seq = trace._seq + 1
    trace._events.append(ev.OpPlaced(seq, op.type, op.name, op._device, device.name, self.reasons[op._id], [getattr(t, '_seq', 0) for t in inputs]))
    if op.type in lowering.IF_OPS or op.type in lowering.CASE_OPS:
        if op.type in lowering.IF_OPS:
            branch, positions = attrs['then_branch' if _truth(inputs[0]) else 'else_branch']
        else:
            index = int(inputs[0]._device.backend.to_host(inputs[0]._value))
            branches = attrs['branches']
            branch, positions = branches[index if 0 <= index < len(branches) else -1]
        return self.run_branch(ctx, branch, [], [inputs[1 + k] for k in positions])
    n = attrs['num_loop_vars']
    loop, outer = (inputs[:n], inputs[n:])
    (cond, cond_positions), (body, body_positions) = (attrs['cond'], attrs['body'])
    places = {id(p): k for (_, p), k in zip(body.outer_captures, body_positions)}
    carried = [places[id(p)] for p, _ in body.carried]
    while _truth(self.run_branch(ctx, cond, loop, [outer[k] for k in cond_positions])[0]):
        out = self.run_branch(ctx, body, loop, [outer[k] for k in body_positions])
        loop = list(out[:n])
        for k, value in zip(carried, out[n:]):
            outer[k] = value
    return tuple(loop) + tuple(outer)


def to_float_32(x, dtype):
    dtype = np.dtype(dtype)
    if dtype.name == 'bfloat16':
        return (x & np.uint32(127) | np.uint32(16256)).astype(np.uint16).view(dtype) - dtype.type(1)
    if dtype == np.float16:
        return (x & np.uint32(1023) | np.uint32(15360)).astype(np.uint16).view(np.float16) - np.float16(1)
    if dtype == np.float64:
        hi, lo = (x[0::2].astype(np.uint64), x[1::2].astype(np.uint64))
        bits = (hi & np.uint64(1048575)) << _32 | lo | np.uint64(4607182418800017408)
        return bits.view(np.float64) - 1.0
    return (x & np.uint32(8388607) | np.uint32(1065353216)).view(np.float32) - np.float32(1)


def outputs_33(ctx, device, opdef, arrays, record, node, duration):
    types = [_BY_NP.get(a.dtype) or dtypes.as_dtype(a.dtype) for a in arrays]
    shape, dtype_name = (arrays[0].shape, types[0].name) if arrays else ((), None)
    seq = record[0] if type(record) is tuple else record.seq
    alloc, out = (device.allocator, [])
    for array, dtype in zip(arrays, types):
        handle = alloc.allocate(array.nbytes, (opdef.name, array.shape, dtype.name))
        if handle is None:
            _record(ctx, record, node, shape, dtype_name, duration)
            raise oom(ctx, device, array, opdef.name, seq, dtype, node)
        out.append(Tensor(array, device, handle, dtype, seq))
    if type(record) is tuple:
        ctx.trace._events.append(record + (shape, dtype_name, duration, alloc.bytes_in_use))
    else:
        _record(ctx, record, node, shape, dtype_name, duration)
        if node is None or record.mem_in_use is None:
            record.mem_in_use = alloc.bytes_in_use
    return tuple(out)


def function_call_34(self, t, e, ts, dur):
    pid = self.pid(t)
    if pid not in self.function_track_named:
        self.function_track_named.add(pid)
        self.emit({'ph': 'M', 'name': 'thread_name', 'pid': pid, 'tid': FUNCTION_TID, 'args': {'name': 'tf.function'}})
        self.emit({'ph': 'M', 'name': 'thread_sort_index', 'pid': pid, 'tid': FUNCTION_TID, 'args': {'sort_index': FUNCTION_TID}})
    args = {'function': e.function, 'call': e.index, 'ops_executed': e.ops}
    if e.error:
        args['error'] = e.error
    self.emit({'ph': 'X', 'cat': 'function_call', 'name': f'{e.function} #{e.index}', 'ts': self.t(ts), 'dur': self.t(dur), 'pid': pid, 'tid': FUNCTION_TID, 'args': args})


def build_35(self, var_list):
    for var in var_list:
        for name, initial in self.slots:
            self._slot(var, name, initial)
    self.built = True


def add_36(self, k):
    for level in self.levels:
        w = k >> 6
        old = level.get(w, 0)
        level[w] = old | 1 << (k & 63)
        if old:
            return
        k = w


def ensure_shape_37(xp, x, shape=None):
    if shape is None:
        return x.copy()
    if len(shape) != x.ndim or any((d is not None and d != n for d, n in zip(shape, x.shape))):
        expected = ','.join(('?' if d is None else str(d) for d in shape))
        raise ValueError(f'Shape of tensor input {shape_text(x.shape)} is not compatible with expected shape [{expected}].')
    return x.copy()


def solve_ls_38(xp, a, b, l2_regularizer=None, fast=None):
    a, b = (on_host(xp, a), on_host(xp, b))
    if not fast:
        pairs = zip(a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:]))
        x = np.stack([np.linalg.lstsq(p, q, rcond=None)[0] for p, q in pairs])
        return xp.asarray(x.reshape(a.shape[:-2] + x.shape[-2:]).astype(a.dtype))
    ah = np.conj(np.swapaxes(a, -1, -2))
    m, n = a.shape[-2:]
    if m >= n:
        x = np.linalg.solve(ah @ a + l2_regularizer * np.eye(n), ah @ b)
    else:
        x = ah @ np.linalg.solve(a @ ah + l2_regularizer * np.eye(m), b)
    return xp.asarray(x.astype(a.dtype))


def candidates_39(self, sequence, narrowed):
    parent, find, cands = (self.parent, self.find, self.cands)
    req, res, types, cand_cache, cand_reason = (self.req, self.res, self.types, self.cand_cache, self.cand_reason)
    last = (False, None, None)
    for k, i in enumerate(sequence):
        r = parent[i]
        if parent[r] != r:
            r = find(i)
        if cands[r] is None and narrowed[r] is None:
            request, supported = (req[r], types[r])
            if request is last[0] and supported is last[1] and (not res):
                hit = last[2]
            else:
                key = (request, res.get(r) if res else None, supported)
                hit = cand_cache.get(key)
                if hit is None:
                    logged = len(self.messages)
                    hit = cand_cache[key] = self.compute(*key)
                    if len(self.messages) > logged:
                        level, text = self.messages[-1]
                        self.messages[-1] = (level, f'{text}\nSee below for details of this colocation group:' + self.debug_info(r))
                last = (request, supported, hit) if not res else (False, None, None)
            if not hit[0]:
                return (k, self.placement_error(i, r))
            cands[r], cand_reason[r] = hit
    return None


def find_spec_40(self, fullname, path=None, target=None):
    if fullname != _NAME and (not fullname.startswith(_NAME + '.')):
        return None
    import devtrace
    if fullname == _NAME:
        _rename()
    if fullname in _INTERNAL or fullname in _PACKAGES:
        value = importlib.import_module(_INTERNAL[fullname][0]) if fullname in _INTERNAL else types.SimpleNamespace()
        return importlib.util.spec_from_loader(fullname, _Loader(value))
    value = devtrace
    for part in fullname.split('.')[1:]:
        try:
            value = getattr(value, part)
        except AttributeError:
            internal = fullname.rpartition('.')[0] in _PACKAGES
            raise ModuleNotFoundError(f'devtrace does not implement {fullname} yet', name=None if internal else fullname) from None
    return importlib.util.spec_from_loader(fullname, _Loader(value))


def forward_value_41(self, tensor):
    forward = self.forward
    if tensor._op.type == 'Placeholder':
        return self._deferred(next((o for o, p in forward.outer_captures if p is tensor)))
    outputs = forward.flat_outputs
    index = next((k for k, t in enumerate(outputs) if t is tensor), None)
    if index is None and tensor._op.type == 'Const':
        return self.constant_like(tensor)
    if index is None:
        index = _wrapped(forward, tensor)
    handle = self._deferred(_node_output(self.node, index))
    if outputs[index] is tensor:
        return handle
    with self.as_default(), self.name_scope(self.op_scope()):
        return execute('OptionalGetValue', (handle,), {'output_types': [tensor.dtype.name], 'output_shapes': [tensor._shape]}, dtype=tensor.dtype)


def capture_42(self, value):
    hit = self.captures.get(id(value))
    if hit is not None:
        return hit[1]
    if self.outer is not None and (not self.scratch):
        node = self.capture_symbolic(self.outer.capture(value))
        if isinstance(value, Variable):
            self.variables.append(value)
        self.captures[id(value)] = (value, node)
        return node
    if isinstance(value, Variable):
        self.variables.append(value)
        node = self.placeholder(value._dtype, tuple(value.shape), 'resource', value.device)
        node._dtype, node._shape = (dtypes.resource, ())
    else:
        node = self.placeholder(value._dtype, tuple(value.shape), 'capture', value.device)
    self.captures[id(value)] = (value, node)
    return node


def strided_slice_43(xp, x, begin=None, end=None, strides=None, **masks):
    idx = _index(begin, end, strides, **masks)
    if idx.count(Ellipsis) > 1:
        raise ValueError('Multiple ellipses in slice spec not allowed')
    if x.ndim == 0 and idx:
        raise ValueError('Attempting to slice scalar input.')
    dims = [i for i in idx if i is not None and i is not Ellipsis]
    if len(dims) > x.ndim:
        raise ValueError(f'Index out of range using input dim {x.ndim}; input has only {x.ndim} dims')
    for k, item in enumerate(dims):
        if isinstance(item, int) and (not -x.shape[k] <= item < x.shape[k]):
            raise ValueError(f'slice index {item} of dimension {k} out of bounds.')
    out = x[idx]
    return out.copy() if isinstance(out, np.ndarray) else np.asarray(out, dtype=x.dtype)


def set_visible_devices_44(self, devices, device_type=None, keep_order=None):
    if not isinstance(devices, list):
        devices = [devices]
    for d in devices:
        self.check_known(d)
        if device_type is not None and d.device_type != device_type:
            raise ValueError(f'Unrecognized device: {d!r}')
    keep = [d for d in self.visible_devices if device_type is not None and d.device_type != device_type]
    chosen = set(keep) | set(devices)
    new = [d for d in self.physical_devices if d in chosen]
    if keep_order:
        new = keep + [d for d in dict.fromkeys(devices) if d not in keep]
    if new == self.visible_devices:
        return
    if self.initialized:
        raise self.frozen_error('Visible devices')
    self._visible = new


def convert_to_tensor_45(value, dtype=None, name=None):
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            raise ValueError(f'Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with dtype {value.dtype.name}: {value!r}')
        return value
    convert = getattr(type(value), '__tf_tensor__', None)
    if convert is not None:
        return convert(value, dtype, name)
    return constant(value, dtype, name=name)


def branch_gradients_46(node, pairs, upstream, n_outputs):
    outer = get_default_graph()
    n_inputs = len(node._inputs) - 1
    graphs, results = ([], [])
    for graph, positions in pairs:
        grad_graph = _GradBranch(f'{graph.name}_grad', outer, graph, node)
        xs = [None] * n_inputs
        for (_, placeholder), p in zip(graph.outer_captures, positions):
            xs[p] = placeholder
        with grad_graph.as_default():
            grads = gradients(graph, graph.flat_outputs[:n_outputs], xs, upstream)
        graphs.append(grad_graph)
        results.append([convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads])
    return (graphs, results)


def cond_47(pred, true_fn=None, false_fn=None, name=None):
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("'true_fn' must be callable." if not callable(true_fn) else "'false_fn' must be callable.")
    if _symbolic(pred) and control_flow_v2.in_function_graph():
        return control_flow_v2.cond(pred, true_fn, false_fn, name)
    return true_fn() if _value(pred, 'tf.cond') else false_fn()


def polyval_48(coeffs, x, name=None):
    x = as_tensor(x)
    if not coeffs:
        from .array_ops import zeros_like
        return zeros_like(x, name=name)
    p = as_tensor(coeffs[0])
    for c in coeffs[1:]:
        p = add(as_tensor(c), multiply(p, x))
    return p


def range_49(start, limit=None, delta=None, dtype=None, name=None):
    if limit is None:
        start, limit = (0, start)
    symbolic = [v for v in (start, limit, delta) if isinstance(v, Tensor) and v._device is None]
    if symbolic:
        dt = dtypes.as_dtype(dtype) if dtype is not None else symbolic[0].dtype
        with get_default_graph().name_scope(name) as scope:
            bounds = tuple((v if isinstance(v, Tensor) else constant(v, dt, name=arg) for v, arg in zip((start, limit, delta), ('start', 'limit', 'delta'))))
            return execute('Range', bounds, {'dtype': dt.name}, dtype=dt, name=scope)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.infer([start, limit, delta])
    start, limit, delta = (host_arg(v, dtype)[()] for v in (start, limit, delta))
    return execute('Range', (), {'start': start, 'limit': limit, 'delta': delta, 'dtype': dt.name}, dtype=dt)


def run_50(self, fetches, feed_dict=None, options=None, run_metadata=None):
    if self._closed:
        raise RuntimeError('Attempted to use a closed Session.')
    graph = self._graph
    if graph.version == 0:
        raise RuntimeError('The Session graph is empty.  Add operations to the graph before calling run().')
    feeds = fetch.feeds(graph, feed_dict)
    elements, rebuild = fetch.flatten(graph, fetches)
    self._runs += 1
    ctx = self._ctx
    ctx.emit_graph(ev.SessionRun(self._number, self._runs))
    step = GraphRun(self, feeds)
    try:
        with _collector_paused():
            self._place()
        keep = [e._op._id for e in elements if isinstance(e, SymbolicTensor)]
        values = step.run([op._id for op in fetch.targets(elements)], keep)
    except BaseException as e:
        ctx.emit_graph(ev.SessionRun(self._number, self._runs, True, step.executed, type(e).__name__))
        if isinstance(e, OpError) and (not placer.tf1_graphs()):
            raise graph_errors.enveloped(e, graph, getattr(e, 'placement_node', None)) from None
        raise
    ctx.emit_graph(ev.SessionRun(self._number, self._runs, True, step.executed))
    return rebuild([fetch_value(step, e._op._id, value_of(values, e)) if isinstance(e, SymbolicTensor) else None for e in elements])


def svd_grad_51(op, grad_s, grad_u=None, grad_v=None):
    a = op.inputs[0]
    grad_s = array_ops.cast(grad_s, a.dtype)
    if not op.attrs.get('compute_uv', True):
        _, u, v = linalg_ops.svd(a)
        return (_matmul(u, _matmul(linalg_ops.diag(grad_s), v, adjoint_b=True)),)
    s, u, v = op.outputs
    s = array_ops.cast(s, a.dtype)
    m, n = tuple(a.shape)[-2:]
    full = op.attrs.get('full_matrices', False)
    if full and abs(m - n) > 1:
        raise NotImplementedError(f'svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. Received: m={min(m, n)} and n={max(m, n)} from op input={_value_text(a)} with shape={tuple(a.shape)}.')
    if m > n:
        return (_adjoint(_svd_grad_core(s, v, u, (grad_s, grad_v, grad_u), n, m, full)),)
    return (_svd_grad_core(s, u, v, (grad_s, grad_u, grad_v), m, n, full),)


def write_format_52(events, format_, layout, output, out):
    if format_ == 'jsonl':
        chunks = (line.decode('utf-8') + '\n' for line in events.lines())
    else:
        text = render(events, format_, layout)
        chunks = [text if not text or text.endswith('\n') else text + '\n']
    if output is not None:
        from ..output import AtomicOutput
        with AtomicOutput(output, '--output') as f:
            for chunk in chunks:
                f.write(chunk)
        return
    for chunk in chunks:
        out.write(chunk)
    out.flush()


def diff_53(a_events, b_events):
    a, b = (_Ops(a_events), _Ops(b_events))
    pairs = _pairs(a, b)
    result = DiffResult(a.side, b.side)
    moved, only_a, matched_b = (array('q'), array('q'), bytearray(len(b)))
    for i in range(len(a)):
        j = pairs[i]
        if j < 0:
            only_a.append(i)
            continue
        matched_b[j] = 1
        if a.strings[a.device[i]] != b.strings[b.device[j]]:
            moved.append(i)
    result.matched = len(a) - len(only_a)
    result.moved = _Lazy(moved, lambda i: Moved(a.label(i), a.strings[a.op[i]], a.strings[a.node[i]], a.strings[a.device[i]], b.strings[b.device[pairs[i]]], a.seq[i], b.seq[pairs[i]]))
    only_b = array('q', (j for j in range(len(b)) if not matched_b[j]))
    if a.side.limited or b.side.limited:
        only_a, only_b = _within_limits(result, a, b, only_a, only_b)
    result.only_a = _Lazy(only_a, a.ref)
    result.only_b = _Lazy(only_b, b.ref)
    return result


def lookup_54(key):
    k = key.replace(' ', '').lower()
    for short, model in MODELS.items():
        if short.lower() == k or model.name.replace(' ', '').lower() == k:
            return model
    return None


def backend_for_55(gpu, platform_id=None, memory=None):
    if gpu is None:
        return _NUMPY
    if gpu.backend == 'nvml' and cupy_usable() is None:
        return CupyBackend(platform_id, memory.limit, memory.preallocate)
    return _SIMULATED


def lu_56(xp, x, output_idx_type=None):
    lu = on_host(xp, x).copy()
    perm = np.broadcast_to(np.arange(lu.shape[-1]), lu.shape[:-1]).copy()
    for m, p in zip(lu.reshape((-1,) + lu.shape[-2:]), perm.reshape(-1, lu.shape[-1])):
        for k in range(len(m)):
            pivot = k + int(np.argmax(np.abs(m[k:, k])))
            m[[k, pivot]], p[[k, pivot]] = (m[[pivot, k]], p[[pivot, k]])
            if m[k, k] != 0:
                m[k + 1:, k] /= m[k, k]
                m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
    return (xp.asarray(lu), xp.asarray(perm.astype(output_idx_type)))


def member_57(blocks, params, per, dtype):
    mean, stddev, low, high = (dtype.type(p) for p in params)
    if not (stddev > 0 and low < high and (np.isfinite(low) or np.isfinite(high))):
        raise ValueError('Invalid parameters')
    if np.isinf(low) and low < 0 or high < mean:
        low, high, stddev = (high, low, -stddev)
    norm_min, norm_max = ((low - mean) / stddev, (high - mean) / stddev)
    root = np.sqrt(norm_min * norm_min + dtype.type(4))
    cutoff = dtype.type(2) * _exp(dtype.type(0.5) + norm_min * (norm_min - root) / dtype.type(4), dtype) / (norm_min + root)
    if norm_min < -_RANDN_BOUNDS and norm_max >= 0 or (norm_max > _RANDN_BOUNDS and norm_min <= 0):
        z = _randn(blocks, norm_min, norm_max, per, dtype)
    elif norm_max - norm_min < cutoff:
        z = _uniform(blocks, norm_min, norm_max, per, dtype)
    else:
        z = _exponential(blocks, norm_min, norm_max, per, dtype)
    return [v * stddev + mean for v in z]


def report_exception_58(exc, program):
    frames = _user_frames(exc.__traceback__)
    sys.stderr.write('Traceback (most recent call last):\n')
    sys.stderr.write(''.join(traceback.format_list(frames)))
    sys.stderr.write(''.join(traceback.format_exception_only(type(exc), exc)))
    if sys.version_info < (3, 11):
        sys.stderr.write(''.join((f'{note}\n' for note in getattr(exc, '__notes__', ()))))
    try:
        first = _headline(str(exc))
    except Exception:
        first = '<exception str() failed>'
    name = type(exc).__name__
    sys.stderr.write(f'Error: {os.path.basename(program)} raised {name}' + (f': {first}' if first else '') + '\n')


def verify_init_59(init, names, first=None, failure=None):
    first = first if first is not None else (None,) * len(init)
    for name, value, first_value in zip(names, init, first):
        if isinstance(value, UndefinedReturnValue):
            if first_value is not None and (not undefined(first_value)):
                raise ValueError(f'the return value from a TensorFlow loop may only be a {LEGAL_LOOP_TYPES}; got {type(first_value)}')
            raise NotImplementedError('a return statement cannot be placed inside this TensorFlow loop; this may happen if a return statement depends on a static Python condition such as a hyperparameter')
        if value is None:
            raise ValueError(f"'{name}' is not allowed to be None before the loop")
        if isinstance(value, Undefined):
            raise ValueError(f"'{name}' must be defined before the loop" + (f'\n{failure}' if failure else ''))


for fn in [default_session_0, call_1, node_2, bucket_count_3, initial_tensor_4, render_5, check_model_inputs_6, model_input_shape_7, resource_8, str_9, walk_10, unique_list_11, map_structure_12, device_counts_13, folded_shape_14, regroup_15, attach_16, merged_17, new_symbol_18, parse_19, init_20, save_21, called_with_tracing_22, visit_FunctionDef_23, take_best_fit_24, indices_25, batch_jacobian_26, verify_cond_vars_27, check_28, model_name_29, after_30, control_flow_31, to_float_32, outputs_33, function_call_34, build_35, add_36, ensure_shape_37, solve_ls_38, candidates_39, find_spec_40, forward_value_41, capture_42, strided_slice_43, set_visible_devices_44, convert_to_tensor_45, branch_gradients_46, cond_47, polyval_48, range_49, run_50, svd_grad_51, write_format_52, diff_53, lookup_54, backend_for_55, lu_56, member_57, report_exception_58, verify_init_59]:
    cell(f"to_code {fn.__name__}", lambda: tf.autograph.to_code(fn))
