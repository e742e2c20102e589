"""TF_CONFIG, the cluster resolvers, ClusterSpec and MultiWorkerMirroredStrategy's cluster checks."""
import json
import os

import tensorflow as tf

CASES = [
    ("not_json", "{bad"),
    ("index_oob", {"cluster": {"worker": ["localhost:1", "localhost:2"]}, "task": {"type": "worker", "index": 5}}),
    ("cluster_not_dict", {"cluster": ["a"], "task": {"type": "worker", "index": 0}}),
    ("ok", {"cluster": {"worker": ["localhost:1", "localhost:2"]}, "task": {"type": "worker", "index": 1}}),
    ("rpc", {"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}, "rpc_layer": "grpc"}),
]
for name, value in CASES:
    os.environ["TF_CONFIG"] = value if isinstance(value, str) else json.dumps(value)
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    for what, get in (("cluster_spec", lambda: r.cluster_spec()), ("task", lambda: (r.task_type, r.task_id)),
                      ("master", lambda: r.master()), ("rpc_layer", lambda: r.rpc_layer)):
        try:
            print(name, what, repr(get()))
        except Exception as e:
            print(name, what, "raises", type(e).__name__, e)
STRATEGY = [
    ("no_task", {"cluster": {"worker": ["localhost:1", "localhost:2"]}}),
    ("two_chiefs", {"cluster": {"chief": ["a:1", "b:2"], "worker": ["c:3"]}, "task": {"type": "worker", "index": 0}}),
    ("bad_job", {"cluster": {"trainer": ["a:1"]}, "task": {"type": "trainer", "index": 0}}),
    ("task_oob", {"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 2}}),
    ("type_missing", {"cluster": {"worker": ["a:1"]}, "task": {"type": "chief", "index": 0}}),
]
for name, value in STRATEGY:
    os.environ["TF_CONFIG"] = json.dumps(value)
    try:
        tf.distribute.MultiWorkerMirroredStrategy()
        print(name, "strategy ok")
    except Exception as e:
        print(name, "strategy raises", type(e).__name__, e)
cs = tf.train.ClusterSpec({"worker": ["a:1", "b:2"], "ps": {3: "c:4"}})
print(repr(cs), cs.jobs, cs.num_tasks("worker"), cs.task_indices("ps"), cs.job_tasks("ps"), cs.task_address("worker", 1))
for call in (lambda: cs.task_address("worker", 3), lambda: cs.num_tasks("chief")):
    try:
        call()
    except Exception as e:
        print("raises", type(e).__name__, e)
s = tf.distribute.cluster_resolver.SimpleClusterResolver(cs, task_type="worker", task_id=0)
print(s.cluster_spec(), s.task_type, s.task_id, repr(s.master()), repr(s.master("worker", 1, "grpc")))
