"""``GraphDef`` / ``NodeDef``: a graph's nodes as TensorFlow's protocol buffers list them
(``Graph.as_graph_def()``), as plain records."""

from __future__ import annotations


class NodeDef:
    # _host_inputs, _kernel_dtype: what devtrace's node keeps besides TensorFlow's fields (how many of its
    # inputs are host values its kernel takes as attrs; the dtype its kernel is chosen for), for import_graph_def
    __slots__ = ("name", "op", "input", "device", "attr", "_host_inputs", "_kernel_dtype")

    def __init__(self, name, op, inputs, device, attr, host_inputs=0, kernel_dtype=None):
        self.name, self.op, self.input, self.device, self.attr = name, op, inputs, device, attr
        self._host_inputs, self._kernel_dtype = host_inputs, kernel_dtype

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r}, device={self.device!r})"

    def __str__(self):
        """Protobuf's text format of the fields devtrace records: name, op, inputs, device and the
        dtype attr ``T`` (other attrs, such as MatMul's ``transpose_a`` or Const's ``value``, are
        not rendered)."""
        lines = [f'name: "{self.name}"', f'op: "{self.op}"'] + [f'input: "{i}"' for i in self.input]
        if self.device:
            lines.append(f'device: "{self.device}"')
        dtype = self.attr.get("T")
        if dtype is not None:
            lines += ["attr {", '  key: "T"', "  value {", f"    type: {dtype.enum_name}", "  }", "}"]
        return "".join(line + "\n" for line in lines)


class GraphDef:
    def __init__(self, nodes):
        self.node = nodes

    def __len__(self):
        return len(self.node)
