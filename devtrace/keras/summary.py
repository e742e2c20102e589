"""``model.summary()``: Keras 3's table as its ``rich`` console prints it without a terminal
(heavy head, a rule between rows, widths from ``positions`` × the line length, columns shrunk
evenly to fit, cells word-wrapped and long words cut with ``…``), then the parameter counts."""

from __future__ import annotations

import shutil
import sys

import numpy as np

_TOP, _HEAD, _HEAD_RULE, _ROW_RULE, _BOTTOM = "┏━┳┓", "┃┃┃", "┡━╇┩", "├─┼┤", "└─┴┘"


def print_summary(model, line_length=None, positions=None, print_fn=None, show_trainable=False,
                  expand_nested=False) -> None:
    sequential_like = _sequential_like(model)
    if sequential_like:
        default, positions = 88, positions or [0.45, 0.80, 1.0]
        header, align = ["Layer (type)", "Output Shape", "Param #"], "<<>"
    else:
        default, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header, align = ["Layer (type)", "Output Shape", "Param #", "Connected to"], "<<><"
    if show_trainable:
        default, positions = default + 12, [p * 0.90 for p in positions] + [1.0]
        header, align = header + ["Trainable"], align + "^"
    line_length = line_length or min(default, shutil.get_terminal_size().columns - 4)
    widths, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width
    rows = []
    for layer in getattr(model, "_operations", None) or model.layers:
        rows.append(_fields(model, layer, sequential_like, show_trainable))
        if expand_nested:
            rows += _nested_rows(layer, sequential_like, show_trainable, 1)
    lines = [f'Model: "{model.name}"'] + _table(header, rows, _fit(widths, line_length), align) + _counts(model)
    text = "\n".join(lines) + "\n"
    if print_fn is None:
        sys.stdout.write(text)
    else:
        print_fn(text)


def _nested_rows(layer, sequential_like, show_trainable, level) -> list:
    """``expand_nested``: a nested model's layers under its row, each named after ``└ `` indented
    three spaces a level, and theirs under them."""
    rows = []
    for inner in getattr(layer, "layers", None) or ():
        fields = _fields(layer, inner, True, show_trainable)
        fields[0] = "   " * level + "└ " + fields[0]
        if not sequential_like:
            fields.insert(3, "-")
        rows.append(fields)
        rows += _nested_rows(inner, sequential_like, show_trainable, level + 1)
    return rows


def _sequential_like(model) -> bool:
    if type(model).__name__ == "Sequential" or not getattr(model, "_operations", None):
        return True
    inputs = model._inputs if isinstance(model._inputs, (list, tuple)) else [model._inputs]
    consumers: dict = {}
    for layer in model._operations:
        nodes = _model_nodes(model, layer)
        if len(nodes) > 1 or any(len(node.input_tensors) > 1 for node in nodes):
            return False
        for node in nodes:
            for t in node.input_tensors:
                consumers[id(t)] = consumers.get(id(t), 0) + 1
    return len(inputs) == 1 and all(count == 1 for count in consumers.values())


def _model_nodes(model, layer) -> list:
    ops = {id(op) for op in model._operations}
    return [n for n in layer._inbound_nodes if all(id(t._layer) in ops for t in n.input_tensors)]


def _fields(model, layer, sequential_like, show_trainable=False) -> list:
    if not layer.built:
        params = "0 (unbuilt)"
    else:
        params = f"{layer.count_params():,}"
    fields = [f"{layer.name} ({type(layer).__name__})", _output_shape(layer, type(model).__name__ == "Sequential"),
              params]
    if not sequential_like:
        links = [f"{t._layer.name}[{t._node_index}][{t._tensor_index}]"
                 for node in _model_nodes(model, layer) for t in node.input_tensors]
        fields.append(", ".join(links) or "-")
    if show_trainable:
        fields.append(("Y" if layer.trainable else "N") if layer.weights else "-")
    return fields


def _output_shape(layer, sequential) -> str:
    """A symbolic call's shape; in a Sequential built by its first call, what the layer returned
    then (Keras built it symbolically on that shape); else ``compute_output_shape`` of the shape the
    layer was built on, or "?" for a layer without one or never built."""
    if layer._inbound_nodes:
        output = layer._inbound_nodes[-1].output
        if isinstance(output, (list, tuple)):  # several outputs (an RNN's return_state)
            return "[" + ", ".join("(" + ", ".join(str(d) for d in o.shape) + ")" for o in output) + "]"
        shape = output.shape
    elif sequential and layer._build_output_shape is not None:
        shape = layer._build_output_shape
    elif layer._build_shape is None:  # never called nor built (an unadapted Normalization)
        return "?"
    else:
        try:
            shape = layer.compute_output_shape(layer._build_shape)
        except (NotImplementedError, TypeError, IndexError):
            return "?"
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _fit(widths, line_length) -> list:
    """Cell widths with their padding, shrunk as ``rich`` does to the table's width."""
    widths = [w + 2 for w in widths]
    excess = sum(widths) - (line_length - len(widths) - 1)
    if excess <= 0:
        return widths
    remaining, ratio, out = excess, len(widths), []
    for w in widths:  # rich's ratio_reduce with equal ratios (round half to even, as Python rounds)
        cut = min(w, round(remaining / ratio))
        out.append(w - cut)
        remaining, ratio = remaining - cut, ratio - 1
    return out


def _wrap(text: str, width: int) -> list:
    """Word wrap without folding: a word wider than the cell sits on its own line, cut with ``…``."""
    lines, line = [], ""
    for word in _words(text):
        if line and len(line) + len(word.rstrip()) > width:
            lines.append(line)
            line = ""
        line += word
    lines.append(line)
    return [ln if len(ln.rstrip()) <= width else ln[:width - 1] + "…" for ln in lines]


def _words(text: str) -> list:
    words, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == " ":
            j += 1
        while j < len(text) and text[j] != " ":
            j += 1
        while j < len(text) and text[j] == " ":
            j += 1
        words.append(text[i:j])
        i = j
    return words


def _row(cells, widths, align, bar) -> list:
    wrapped = [_wrap(c, w - 2) for c, w in zip(cells, widths)]
    height = max(len(w) for w in wrapped)
    out = []
    for k in range(height):
        parts = []
        for lines, w, a in zip(wrapped, widths, align):
            text = lines[k].rstrip() if k < len(lines) else ""
            if a == "^":  # rich's centring: the odd space on the right
                left = (w - 2 - len(text)) // 2
                text = " " * left + text.ljust(w - 2 - left)
            parts.append(" " + (text.rjust(w - 2) if a == ">" else text.ljust(w - 2)) + " ")
        out.append(bar + bar.join(parts) + bar)
    return out


def _rule(chars, widths) -> str:
    return chars[0] + chars[2].join(chars[1] * w for w in widths) + chars[3]


def _table(header, rows, widths, align) -> list:
    lines = [_rule(_TOP, widths)] + _row(header, widths, align, "┃") + [_rule(_HEAD_RULE, widths)]
    for i, row in enumerate(rows):
        if i:
            lines.append(_rule(_ROW_RULE, widths))
        lines += _row(row, widths, align, "│")
    return lines + [_rule(_BOTTOM, widths)]


def _counts(model) -> list:
    trainable = _sizes(model.trainable_weights)
    frozen = _sizes(model.non_trainable_weights)
    optimizer = getattr(model, "optimizer", None)
    slots = optimizer.variable_sizes() if model.compiled and optimizer is not None and optimizer.built else None
    total = [sum(v) for v in zip(trainable, frozen, slots or (0, 0))]
    lines = [f" Total params: {total[0]:,} ({_readable(total[1])})",
             f" Trainable params: {trainable[0]:,} ({_readable(trainable[1])})",
             f" Non-trainable params: {frozen[0]:,} ({_readable(frozen[1])})"]
    if slots is not None:
        lines.append(f" Optimizer params: {slots[0]:,} ({_readable(slots[1])})")
    return lines


def _sizes(weights) -> tuple:
    count = sum(int(np.prod(w.shape)) for w in weights)
    return count, sum(int(np.prod(w.shape)) * w.dtype.size for w in weights)


def _readable(size) -> str:
    size = float(size)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"
