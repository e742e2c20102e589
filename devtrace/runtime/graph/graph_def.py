"""``GraphDef`` / ``NodeDef``: a graph's nodes as TensorFlow's protocol buffers list them
(``Graph.as_graph_def()``), as plain records."""

from __future__ import annotations


class NodeDef:
    __slots__ = ("name", "op", "input", "device", "attr")

    def __init__(self, name, op, inputs, device, attr):
        self.name, self.op, self.input, self.device, self.attr = name, op, inputs, device, attr

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r}, device={self.device!r})"


class GraphDef:
    def __init__(self, nodes):
        self.node = nodes

    def __len__(self):
        return len(self.node)
