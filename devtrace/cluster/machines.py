"""``--machine FILE`` with ``--workers N``: what each worker simulates. A machine file of
``[[gpu]]`` tables is every worker's machine; a file of ``[[node]]`` tables, each with its own
``[[node.gpu]]`` tables, describes different nodes, worker ``i`` simulating node ``i`` (as many
nodes as workers). The driver checks each node as a machine file (errors name the file and the
node: ``FILE: node[1]: gpu[0]: …``) and hands each worker its node's text, which the worker's
actor writes beside the worker program (the file need not exist on the other nodes)."""

from __future__ import annotations

import json
import os
import tempfile

from ..errors import UsageError


def _toml_value(path, where, key, value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    raise UsageError(f"{path}: {where}: field '{key}' must be a string or a number")


def _gpu_tables(path: str, node: int, gpus) -> str:
    if not isinstance(gpus, list) or not all(isinstance(g, dict) for g in gpus):
        raise UsageError(f"{path}: node[{node}]: 'gpu' must be an array of tables ([[node.gpu]])")
    lines = []
    for i, gpu in enumerate(gpus):
        lines.append("[[gpu]]")
        lines += [f"{key} = {_toml_value(path, f'node[{node}]: gpu[{i}]', key, value)}" for key, value in gpu.items()]
        lines.append("")
    return "\n".join(lines)


def per_worker(path: str, workers: int) -> list[str]:
    """The machine file text of each worker (checked as devtrace checks a machine file)."""
    from ..devices.simulated import _load_toml, load_machine

    data = _load_toml(path)
    if "node" not in data:
        load_machine(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return [text] * workers
    nodes = data["node"]
    if not isinstance(nodes, list) or not all(isinstance(n, dict) for n in nodes):
        raise UsageError(f"{path}: 'node' must be an array of tables ([[node]])")
    if set(data) != {"node"}:
        raise UsageError(f"{path}: a file of [[node]] tables holds nothing else (found '{sorted(set(data) - {'node'})[0]}')")
    if len(nodes) != workers:
        raise UsageError(f"{path} describes {len(nodes)} nodes, but --workers is {workers} (one node per worker)")
    texts = []
    with tempfile.TemporaryDirectory(prefix="devtrace-nodes-") as tmp:
        for i, node in enumerate(nodes):
            unknown = sorted(set(node) - {"gpu"})
            if unknown:
                raise UsageError(f"{path}: node[{i}]: unknown field '{unknown[0]}' (a node holds its [[node.gpu]] tables)")
            text = _gpu_tables(path, i, node.get("gpu", []))
            checked = os.path.join(tmp, f"node{i}.toml")
            with open(checked, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                load_machine(checked)
            except UsageError as e:
                raise UsageError(str(e).replace(checked, f"{path}: node[{i}]", 1)) from None
            texts.append(text)
    return texts
