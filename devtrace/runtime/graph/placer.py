"""The graph placer: TensorFlow's ``placer.cc`` / ``colocation_graph.cc`` over a devtrace Graph.

1. Every node is a colocation member: its supported device types (kernels for its dtype, on
   device types the session has) and its requested device; a ref/resource *generator* (the
   variable) keeps its request as the group's *resource* device, which is never overridden.
2. Ref/resource edges (``Assign``'s ref input) colocate producer and consumer. When their
   requests conflict the consumer's request is ignored (TensorFlow logs ``Ignoring device
   specification …``).
3. ``_class`` groups (``colocate_with``): each node joins the groups it names and the group of
   its own name. Joining merges requests (``MergeDevNames``, soft as ``allow_soft_placement``
   says) and intersects supported types; a conflict is an error.
4. Candidates of a group: the devices matching its request with a kernel for every member,
   by type priority then name; with soft placement, type and id are dropped and retried.
5. TensorFlow 2.21's ``Placer::Run``: nodes in id (creation) order, generators deferred to a
   second pass; a node placed by an earlier run that keeps its device (a stateful one) is
   logged where the first pass meets it. Under ``--compat tf1``: the order
   TensorFlow 1 rebuilt a session's graph in (``GraphConstructor``: a topological sort with a
   LIFO ready list — the order of the 2017 guide's logs). Every group's candidates are computed
   in placing order first, so an error names the first node in it whose group has none. First pass: non-generators take their group's first candidate
   (``Shape``, ``Size`` and ``Rank`` prefer their input's device) and narrow the group to it.
   Second pass: generators (no inputs, one non-ref output, e.g. ``Const``) follow their
   consumers when all of them landed on one device that is a candidate.

Linear in nodes + edges: union-find with path compression and union by rank over id-indexed
lists; device strings are parsed once per distinct string, candidate lists computed once per
distinct (request, resource, types) triple; only nodes with ref inputs or colocation groups
are visited by steps 2 and 3 (the graph indexes them while it is built). Errors carry
TensorFlow's text, then one devtrace line naming the colocation group and the member whose
request causes the conflict (TensorFlow's own TODO in ``ColocateNodes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...devices import names, spec as specs
from ...errors import FailedPreconditionError, InvalidArgumentError
from ...trace import events as ev
from .. import context as _context_mod
from .graph import GENERATOR, REF_GENERATOR, REF_INPUTS, RESOURCE_MAKERS
from .operation import consumers_of
from .placer_order import tf1_order, tf2_passes
from .placer_notes import GroupLines
from ..registry import PRIORITY, REGISTRY

METADATA_OPS = frozenset(("Shape", "Size", "Rank"))
RESOURCE_SOURCES = frozenset(("VariableV2", "Assign")) | RESOURCE_MAKERS  # ref edges start at these
_EMPTY = specs.DeviceSpec()


@dataclass(slots=True)
class Placement:
    """The placer's answer, indexed by node id."""

    devices: list  # the Device of every node
    reasons: list  # OpPlaced reason of every node placed by this call (None for pre-assigned ones)
    order: list  # every node id, in the graph order TensorFlow 1 places and logs them in
    messages: list = field(default_factory=list)  # (level, text): what TensorFlow logs while placing


class _Conflict(Exception):
    """A failed merge of two colocation groups: TensorFlow's text and devtrace's line."""

    def __init__(self, text: str, line: str):
        super().__init__(text)
        self.text = text
        self.line = line


def place(graph, devices, allow_soft_placement: bool = False, assigned=None, tf1: bool | None = None) -> Placement:
    """Place every node of ``graph`` on one of ``devices`` (the session's ``Device`` objects).

    ``assigned`` (``{node id: Device}``) holds nodes placed by an earlier call that keep their
    device: they constrain their groups and are not placed again. ``tf1``: TensorFlow 1's node
    order (default: ``--compat tf1`` / ``DEVTRACE_COMPAT=tf1``). Raises ``InvalidArgumentError`` with
    TensorFlow's messages.
    """
    if not devices:
        raise FailedPreconditionError("No devices are registered")
    if tf1 is None:
        tf1 = tf1_graphs()
    return _Placer(graph, devices, allow_soft_placement).run(assigned or {}, tf1)


def tf1_graphs() -> bool:
    """Whether TF1 graphs follow TensorFlow 1 (``--compat tf1`` / ``DEVTRACE_COMPAT=tf1``)."""
    return _context_mod.context().machine.compat == "tf1"


class _Placer(GroupLines):
    def __init__(self, graph, devices, soft):
        self.ops = graph._ops[:]
        self.graph = graph
        self.devices = list(devices)
        self.soft = soft
        self.present = frozenset(d.device_type for d in devices)
        self.has_gpu = "GPU" in self.present
        ordered = sorted(devices, key=lambda d: (-PRIORITY.get(d.device_type, 50), d.name))
        self.ordered = [(d, specs.DeviceSpec.from_string(d.name)) for d in ordered]
        self.spec_cache: dict[str, specs.DeviceSpec] = {}
        self.compat = _context_mod.context().machine.compat  # which kernels: --compat
        self.type_cache: dict = {}
        self.cand_cache: dict = {}
        self.messages: list = []
        self.overridden: set[int] = set()  # consumers whose request a ref edge overrode
        n = len(self.ops)
        self.parent = list(range(n))
        self.rank = [0] * n
        self.size = [1] * n
        self.req = [None] * n  # merged requested DeviceSpec per root (None: no details)
        self.res: dict[int, specs.DeviceSpec] = {}  # resource device per root (sparse)
        self.types = [()] * n  # supported device types per root, highest priority first
        self.cands = [None] * n  # candidate devices per root, once computed
        self.cand_reason = [None] * n

    # -- union-find --------------------------------------------------------------------------
    def find(self, i: int) -> int:
        parent = self.parent
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    def spec(self, text: str) -> specs.DeviceSpec:
        s = self.spec_cache.get(text)
        if s is None:
            s = self.spec_cache[text] = specs.DeviceSpec.from_string(text)
        return s

    # -- 1. members --------------------------------------------------------------------------
    def supported(self, op) -> tuple:
        key = (op.type, op._kernel_dtype)
        t = self.type_cache.get(key)
        if t is None:
            opdef = REGISTRY.get(op.type)
            found = opdef.supported_types(op._kernel_dtype, self.compat) if opdef is not None else ()
            t = self.type_cache[key] = tuple(x for x in found if x in self.present)
        if not t:
            opdef = REGISTRY.get(op.type)
            attrs = f"T={op._kernel_dtype}" if op._kernel_dtype else ""
            raise InvalidArgumentError(
                f"No OpKernel was registered to support Op '{op.type}' used by {{{{node {op.name}}}}} with these "
                f"attrs: [{attrs}]\nRegistered devices: [{', '.join(sorted(self.present))}]\nRegistered kernels:\n"
                f"{opdef.kernel_list(self.compat) if opdef is not None else '  <no registered kernels>'}", op=op.type)
        return t

    def init_members(self) -> None:
        types, req, res = self.types, self.req, self.res
        type_cache = self.type_cache
        requests: dict = {}  # device string → its spec, None when it has no details
        i = 0
        last_type = last_dtype = last = None  # the previous node's type and dtype, and their types (most: alike)
        for op in self.ops:
            if op.type is last_type and op._kernel_dtype is last_dtype:
                types[i] = last
            else:
                last_type, last_dtype = op.type, op._kernel_dtype
                t = type_cache.get((last_type, last_dtype))
                types[i] = last = t if t else self.supported(op)
            d = op._device
            if d:
                s = requests.get(d, _EMPTY)
                if s is _EMPTY:
                    s = requests[d] = None if self.spec(d).is_empty else self.spec(d)
                if s is not None:
                    req[i] = s
                    if op._kind == REF_GENERATOR or op.type in RESOURCE_MAKERS:
                        res[i] = s
            i += 1

    # -- 2. ref edges and 3. colocation groups -------------------------------------------------
    def colocate(self, x: int, y: int) -> None:
        """TensorFlow's ``ColocateNodes``; raises ``_Conflict`` and leaves the groups unchanged."""
        xr, yr = self.find(x), self.find(y)
        if xr == yr:
            return
        rank = self.rank
        new, old = (yr, xr) if rank[xr] < rank[yr] else (xr, yr)
        try:
            res = _merge(self.res.get(new), self.res.get(old), False)
            req = _merge(self.req[new], self.req[old], self.soft)
        except InvalidArgumentError as e:
            raise _Conflict(f"{self.label(x, y)}: {e.message}", self.merge_line(xr, yr)) from None
        if res is not None and req is not res:
            req = res if req is None else req.make_merged_spec(res)
        t_new = self.types[new]
        t_old = self.types[old]
        types = t_new if t_new == t_old else tuple(t for t in t_new if t in t_old)
        if not types:
            raise _Conflict(f"{self.label(x, y)} because no device type supports both of those nodes and the "
                            f"other nodes colocated with them.", self.merge_line(xr, yr))
        self.parent[old] = new
        if rank[xr] == rank[yr]:
            rank[new] += 1
        self.size[new] += self.size[old]
        self.req[new] = req
        if res is not None:
            self.res[new] = res
        self.res.pop(old, None)
        self.types[new] = types

    def label(self, x: int, y: int) -> str:
        return (f"Cannot colocate nodes {{{{colocation_node {self.ops[x].name}}}}} and "
                f"{{{{colocation_node {self.ops[y].name}}}}}")

    def ref_edges(self) -> None:
        ops = self.ops
        n = len(ops)
        for dst in self.graph._ref_consumers:
            if dst >= n:
                continue
            op = ops[dst]
            for k in REF_INPUTS[op.type]:
                if k < len(op._inputs) and op._inputs[k]._op.type in RESOURCE_SOURCES:
                    self.ref_edge(op._inputs[k]._op._id, dst)

    def ref_edge(self, src: int, dst: int) -> None:
        """TensorFlow's ``ColocateResourceOrRefEdge``: the consumer's request yields."""
        sr, dr = self.find(src), self.find(dst)
        s_res, d_res = self.res.get(sr), self.res.get(dr)
        if s_res is not None and d_res is not None and s_res is not d_res and not names.are_compatible(s_res, d_res):
            raise self.error(f"Cannot place the graph because a reference or resource edge connects colocation "
                             f"groups with incompatible resource devices: {s_res.to_string()} vs "
                             f"{d_res.to_string()}. The edge src node is {self.ops[src].name} , and the dst node "
                             f"is {self.ops[dst].name}", self.merge_line(sr, dr))
        s_req, d_req = self.req[sr], self.req[dr]
        if s_req is not None and d_req is not None and s_req is not d_req and not names.are_compatible(s_req, d_req):
            self.messages.append(("INFO", f"Ignoring device specification {d_req.to_string()} for node "
                                          f"'{self.ops[dst].name}' because the input edge from "
                                          f"'{self.ops[src].name}' is a reference connection and already has a "
                                          f"device field set to {s_req.to_string()}"))
            self.req[dr] = s_req if d_res is None else s_req.make_merged_spec(d_res)
            self.overridden.add(dst)
        try:
            self.colocate(src, dst)
        except _Conflict as c:
            raise self.error(f"Nodes were connected by a reference or resource connection (requiring them to be "
                             f"on the same device), but the two nodes were assigned two different devices: "
                             f"{c.text}", c.line) from None

    def colocation_groups(self) -> None:
        graph = self.graph
        targets = graph._colocation_targets
        if not targets:
            return
        n = len(self.ops)
        relevant = {i for i in graph._colocated if i < n}
        for name in targets:
            op = graph._by_name.get(name)
            if op is not None and op._id < n:
                relevant.add(op._id)
        roots: dict[str, int] = {}
        for i in sorted(relevant):
            op = self.ops[i]
            for group in op._colocation or ():
                self.join_group(roots, i, group)
            if op.name in targets:
                self.join_group(roots, i, op.name)

    def join_group(self, roots: dict, i: int, group: str) -> None:
        first = roots.get(group)
        if first is None:
            roots[group] = i
            return
        try:
            self.colocate(i, first)
        except _Conflict as c:
            if not self.soft:
                raise self.error(c.text, c.line) from None
            self.messages.append(("INFO", f"Ignoring request to colocate node '{self.ops[i].name}' with nodes in "
                                          f"colocation group '{group}' because soft placement is on and an "
                                          f"attempt at doing so resulted in the following error: {c.text}"))

    # -- 4. candidates -----------------------------------------------------------------------
    def matching(self, pattern, types) -> tuple:
        match = names.is_complete_specification
        return tuple(d for d, s in self.ordered if d.device_type in types and match(pattern, s))

    def compute(self, req, res, types):
        if req is None:
            devices = self.matching(_EMPTY, types)
            fallback = self.has_gpu and "GPU" not in types
            return devices, (ev.FALLBACK if fallback else ev.DEFAULT)
        devices = self.matching(req, types)
        if devices or not self.soft:
            return devices, ev.EXPLICIT
        keep_type = res is not None and res.device_type is not None
        keep_id = res is not None and res.device_index is not None
        preferred = req.replace(device_type=req.device_type if keep_type else None,
                                device_index=req.device_index if keep_id else None)
        devices = self.matching(preferred, types)
        if not devices:
            devices = self.matching(req.replace(device_type=None, device_index=None), types)
            if devices:
                listed = "\n  ".join(d.name for d in devices)
                self.messages.append(("WARNING", f"Failed to place the graph without changing the devices of some "
                                                 f"resources. Some of the operations (that had to be colocated "
                                                 f"with resource generating operations) are not supported on the "
                                                 f"resources' devices. Current candidate devices are [\n  {listed}]."))
        exists = self.matching(req, self.present)
        return devices, (ev.FALLBACK if exists else ev.SOFT)

    # -- 5. assignment -----------------------------------------------------------------------
    def run(self, assigned: dict, tf1: bool) -> Placement:
        self.init_members()
        self.ref_edges()
        self.colocation_groups()
        ops = self.ops
        n = len(ops)
        out = [None] * n
        reasons = [None] * n
        narrowed = [None] * n  # root → the device a member of the group was assigned
        find = self.find
        for i, device in assigned.items():
            out[i] = narrowed[find(i)] = device
        if tf1:
            order = tf1_order(ops)
            first = [i for i in order if i not in assigned and ops[i]._kind != GENERATOR]
            second = [i for i in order if i not in assigned and ops[i]._kind == GENERATOR]
            logged = order
        else:  # TensorFlow 2's Placer::Run: node ids in order, generators in a second pass
            first, second, logged = tf2_passes(ops, assigned)
        # Every group's candidates, in the order nodes are placed: an error names the first node
        # in that order whose group has none (``b`` in the guide's /device:GPU:2 example).
        sequence = order if tf1 else first + second
        failed = self.candidates(sequence, narrowed)
        if failed is not None:
            k, error = failed
            if not tf1:  # TensorFlow 2 logged the nodes it placed before the failing one
                done = set(sequence[:k])
                self.first_pass([i for i in first if i in done], out, reasons, narrowed)
                self.second_pass([i for i in second if i in done], out, reasons, narrowed)
                error.partial = Placement(out, reasons, logged[:logged.index(sequence[k])], self.messages)
            raise error
        self.first_pass(first, out, reasons, narrowed)
        self.second_pass(second, out, reasons, narrowed)
        return Placement(out, reasons, logged, self.messages)

    def candidates(self, sequence, narrowed):
        """Each group's candidate devices, computed in placing order; ``(position, error)`` of the
        first node whose group has none, or ``None``."""
        parent, find, cands = self.parent, self.find, self.cands
        req, res, types, cand_cache, cand_reason = self.req, self.res, self.types, self.cand_cache, self.cand_reason
        last_request, last_supported, last = False, None, None  # the previous group's (most: alike)
        for k, i in enumerate(sequence):
            r = parent[i]
            if parent[r] != r:
                r = find(i)
            if cands[r] is None and narrowed[r] is None:
                request, supported = req[r], types[r]
                if request is last_request and supported is last_supported and not res:  # the same objects: same answer
                    hit = last
                else:
                    key = (request, res.get(r) if res else None, supported)
                    hit = cand_cache.get(key)
                    if hit is None:
                        logged = len(self.messages)
                        hit = cand_cache[key] = self.compute(*key)
                        if len(self.messages) > logged:  # the soft placement's warning: TF adds the group's block
                            level, text = self.messages[-1]
                            self.messages[-1] = (level, f"{text}\nSee below for details of this colocation group:"
                                                        + self.debug_info(r))
                    last_request, last_supported, last = request, supported, hit
                if not hit[0]:
                    return k, self.placement_error(i, r)
                cands[r], cand_reason[r] = hit
        return None

    def first_pass(self, sequence, out, reasons, narrowed) -> None:
        """Non-generators take their group's first candidate (``Shape``, ``Size`` and ``Rank``
        prefer their input's device) and narrow the group to it."""
        ops, parent, find = self.ops, self.parent, self.find
        cands, size, overridden, cand_reason = self.cands, self.size, self.overridden, self.cand_reason
        for i in sequence:
            op = ops[i]
            r = parent[i]
            if parent[r] != r:
                r = find(i)
            device = narrowed[r]
            if device is not None:
                reasons[i] = ev.RESOURCE if i in overridden else ev.COLOCATED
            else:
                c = cands[r]
                device = c[0]
                if op.type in METADATA_OPS and op._inputs:
                    input_device = out[op._inputs[0]._op._id]
                    if input_device is not None and input_device in c:
                        device = input_device
                narrowed[r] = device
                reason = cand_reason[r]
                if i in overridden:
                    reason = ev.RESOURCE
                elif reason is ev.EXPLICIT and size[r] > 1 and not op._device:
                    reason = ev.COLOCATED
                reasons[i] = reason
            out[i] = device

    def second_pass(self, sequence, out, reasons, narrowed) -> None:
        """Generators (no inputs, one non-ref output, e.g. ``Const``) follow their consumers when
        all of them landed on one device that is a candidate."""
        ops, find = self.ops, self.find
        for i in sequence:
            r = find(i)
            device = narrowed[r]
            if device is not None:
                reasons[i] = ev.COLOCATED
            else:
                c = self.cands[r]
                device = c[0]
                consumers = consumers_of(ops[i])
                if consumers:
                    first = out[consumers[0]]
                    if first is not None and first is not device and first in c \
                            and all(out[j] is first for j in consumers):
                        device = first
                narrowed[r] = device
                reasons[i] = self.reason(i, r, ops[i])
            out[i] = device

    def reason(self, i: int, r: int, op) -> str:
        if i in self.overridden:
            return ev.RESOURCE
        reason = self.cand_reason[r]
        if reason == ev.EXPLICIT and self.size[r] > 1 and not op._device:
            return ev.COLOCATED
        return reason

    # -- errors ------------------------------------------------------------------------------
    def error(self, text: str, line: str, node: str | None = None) -> InvalidArgumentError:
        """TensorFlow's error; devtrace's line on the colocation group is a note (printed under
        it, not part of ``str(e)``); ``placement_node``: the node TensorFlow 2 names in ``[[…]]``."""
        error = InvalidArgumentError(text)
        error.add_note(line)
        error.placement_node = node
        return error

    def placement_error(self, i: int, r: int) -> InvalidArgumentError:
        """TensorFlow's ``GetDevicesForNode`` errors, prefixed as ``Placer::Run`` does."""
        op = self.ops[i]
        own_text = op._device
        own = self.spec(own_text) if own_text else _EMPTY
        merged = self.req[r]
        if merged is None:
            text = (f"Node had no OpKernel registered to support this operation: Operation was {op.type} and "
                    f"inputs were [{', '.join(t._dtype.enum_name for t in op._inputs)}].")
        elif own == merged:
            if not self.matching(own, self.present):
                names = ", ".join(sorted(d.name for d in self.devices))
                text = (f"{{{{node {op.name}}}}} was explicitly assigned to {own_text} but available devices are "
                        f"[ {names} ]. Make sure the device specification refers to a valid device.")
                if own.device_type == "GPU" and not _context_mod.context().cuda_build:
                    text += " The requested device appears to be a GPU, but CUDA is not enabled."
            elif own.device_type is not None:
                text = (f"Could not satisfy explicit device specification '{own_text}' because no supported "
                        f"kernel for {own.device_type} devices is available.")
            else:
                text = f"Could not satisfy explicit device specification '{own_text}'"
        else:
            names = ", ".join(d.name for d in self.devices)
            text = (f"Could not satisfy explicit device specification '{own_text}' because the node "
                    f"{{{{colocation_node {op.name}}}}} was colocated with a group of nodes that required "
                    f"incompatible device '{merged.to_string()}'. All available devices [{names}]. "
                    + self.debug_info(r))
        return self.error(f"Cannot assign a device for operation {op.name}: {text}", self.group_line(i, r), op.name)


def _merge(target, other, soft: bool):
    """``MergeDevNames`` on optional specs (``None``: no details)."""
    if other is None or other is target or other == target:
        return target
    if target is None:
        return other
    merged = names.merge_device_names(target, other, soft)
    return None if merged.is_empty else merged
