"""Graph nodes: TensorFlow's ``tf.Operation`` — a name, a type, inputs, the device requested
for it, its colocation groups and attributes, its outputs (symbolic tensors)."""

from __future__ import annotations

from ..dtypes import as_dtype
from .default_session import default_session
from .graph_def import NodeDef
from .graph_errors import frame_lines


class Operation:
    """A graph node (TensorFlow's ``tf.Operation``)."""

    __slots__ = ("_graph", "_id", "name", "type", "_inputs", "_control_inputs", "_device", "_colocation",
                 "_attrs", "_outputs", "_kernel_dtype", "_consumers", "_kind", "_traceback", "_n_host",
                 "_dynamic")

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self) -> tuple:
        return self._inputs

    @property
    def control_inputs(self) -> tuple:
        return self._control_inputs

    @property
    def outputs(self) -> tuple:
        return self._outputs

    @property
    def traceback(self) -> list:
        """The user's frames that created the node, outermost first (``(file, line, function)``)."""
        return frame_lines(self._traceback)

    @property
    def device(self) -> str:
        """The requested device (``""``: none) — not where the placer put it."""
        return self._device

    @property
    def node_def(self):
        """TensorFlow's ``NodeDef`` of the node (``str()``: protobuf's text format)."""
        inputs = [t._op.name if t._index == 0 else t.name for t in self._inputs]
        attr = {"T": as_dtype(self._kernel_dtype)} if self._inputs and self._kernel_dtype else {}
        return NodeDef(self.name, self.type, inputs + [f"^{c.name}" for c in self._control_inputs], self._device,
                       attr)

    def get_attr(self, name):
        if name == "_class":
            if not self._colocation:
                raise ValueError(f"Operation '{self.name}' has no attr named '_class'.")
            return [f"loc:@{g}".encode() for g in self._colocation]
        try:
            return (self._attrs or {})[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.") from None

    def colocation_groups(self) -> list:
        return [f"loc:@{g}".encode() for g in (self._colocation or (self.name,))]

    def run(self, feed_dict=None, session=None):
        default_session(session, "Operation").run(self, feed_dict)

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        lines = [f'name: "{self.name}"', f'op: "{self.type}"']
        lines += [f'input: "{t._op.name}"' if t._index == 0 else f'input: "{t.name}"' for t in self._inputs]
        lines += [f'input: "^{op.name}"' for op in self._control_inputs]
        if self._device:
            lines.append(f'device: "{self._device}"')
        return "\n".join(lines) + "\n"


def add_consumer(producer, i: int) -> None:
    """Record node ``i`` as a consumer of ``producer``: an id while it is the only one (most nodes
    have one; an int is no object for the collector), a list of ids after."""
    consumers = producer._consumers
    if consumers is None:
        producer._consumers = i
    elif type(consumers) is int:
        producer._consumers = [consumers, i]
    else:
        consumers.append(i)


def consumers_of(op) -> tuple | list:
    """The ids of the nodes consuming ``op`` (through an input or a control input), in creation order."""
    consumers = op._consumers
    return () if consumers is None else (consumers,) if type(consumers) is int else consumers
