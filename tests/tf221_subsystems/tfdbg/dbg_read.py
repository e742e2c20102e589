"""Read a tfdbg2 dump with TensorFlow's own reader (run in /work/tfvenv); prints what it holds as JSON:
`python dbg_read.py DUMP_ROOT`. Tensor ids and stack frames differ between runs, so they are left out."""
import json
import sys

import numpy as np
from tensorflow.python.debug.lib import debug_events_reader


def val(v):
    return None if v is None else np.asarray(v).tolist()


with debug_events_reader.DebugDataReader(sys.argv[1]) as r:
    r.update()
    full = None
    out = {"executions": [], "graph_traces": []}
    for e in r.executions(digest=False):
        item = {"op_type": "__inference" if e.op_type.startswith("__inference") else e.op_type,
                "num_outputs": e.num_outputs, "mode": e.tensor_debug_mode,
                "graph": r.graph_by_id(e.graph_id).name if e.graph_id else None,
                "values": [val(v) for v in (e.debug_tensor_values or [])],
                "devices": [r.device_name_by_id(i) for i in e.output_tensor_device_ids],
                "has_stack": bool(r.read_execution_stack_trace(e)[1])}
        if e.tensor_debug_mode == 7:
            item["tensors"] = [val(v) for v in r.execution_to_tensor_values(e)]
        out["executions"].append(item)
    for t in r.graph_execution_traces(digest=False):
        item = {"op_name": t.op_name, "op_type": t.op_type, "slot": t.output_slot,
                "graph": r.graph_by_id(t.graph_id).name, "value": val(t.debug_tensor_value),
                "device": t.device_name}
        if t.tensor_debug_mode == 7:
            item["tensor"] = val(r.graph_execution_trace_to_tensor_value(t))
        out["graph_traces"].append(item)
    out["graph_ops"] = [(d.op_type, d.op_name, list(d.input_names or []), d.num_outputs, r.graph_by_id(d.graph_id).name)
                        for d in r.graph_op_digests()]
    out["run_id"] = bool(r.tfdbg_run_id())
    out["source_files"] = sorted(p.rsplit("/", 1)[-1] for _, p in r.source_file_list() if p.endswith("dbg_prog.py"))
    print(json.dumps(out, sort_keys=True))
