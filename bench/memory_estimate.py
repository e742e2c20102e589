"""Device memory of a full-size training step without computing it: ``devtrace run --compute none``.

    python bench/memory_estimate.py [--model resnet50|bert|all] [--batch 256] [--simulate 8xH100]
                                    [--compute none|all] [--small]

Each scenario is one Keras ``fit`` step under ``MirroredStrategy`` (the global batch split over the
simulated GPUs), run as a user runs it — ``devtrace run --compute none --simulate 8xH100`` on this
file as the program — and reports each GPU's peak memory, the wall time end to end and the
process's peak RSS. The models: a ResNet-50 (Keras's ``keras.applications.ResNet50`` layer for
layer: 7x7/2 stem, bottleneck blocks 3-4-6-3, batch norm; 25.6 M parameters) and a BERT-base
encoder (12 layers, hidden 768, 12 heads, feed-forward 3072, sequence 128, vocabulary 30522;
110 M parameters), with a 1000-way and a 2-way classifier head.

Targets (issue 31): each scenario at batch 256 on 8 simulated H100s in at most 10 s end to end,
peak RSS at most 1 GiB. ``--small`` runs tiny versions of both (what the tests run, computing
and not, to check the figures agree); ``--compute all`` computes every value (small sizes only).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.abspath(__file__)
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGET_S, TARGET_RSS = 10.0, 1 << 30

# full size, and --small: (batch, image side, width divisor, blocks per stage) / (layers, hidden, heads, ff, seq, vocab)
RESNET = {"full": (224, 1, (3, 4, 6, 3)), "small": (32, 16, (1, 1, 1, 1))}
BERT = {"full": (12, 768, 12, 3072, 128, 30522), "small": (2, 32, 4, 64, 16, 100)}


# -- the models (the program side: run by devtrace, `import tensorflow` is devtrace) ----------------
def resnet50(keras, side, divisor, blocks, classes=1000):
    """``keras.applications.ResNet50(weights=None)``'s layers; ``divisor`` narrows every width."""
    layers = keras.layers

    def conv_bn(x, filters, kernel, stride=1, relu=True, name=""):
        x = layers.Conv2D(filters // divisor, kernel, strides=stride, padding="same", name=name + "_conv")(x)
        x = layers.BatchNormalization(epsilon=1.001e-5, name=name + "_bn")(x)
        return layers.Activation("relu", name=name + "_relu")(x) if relu else x

    def block(x, filters, stride, shortcut, name):
        short = conv_bn(x, 4 * filters, 1, stride, relu=False, name=name + "_0") if shortcut else x
        x = conv_bn(x, filters, 1, stride, name=name + "_1")
        x = conv_bn(x, filters, 3, name=name + "_2")
        x = conv_bn(x, 4 * filters, 1, relu=False, name=name + "_3")
        return layers.Activation("relu", name=name + "_out")(layers.Add(name=name + "_add")([short, x]))

    inputs = keras.Input((side, side, 3))
    x = conv_bn(inputs, 64, 7, 2, name="conv1")
    x = layers.MaxPooling2D(3, strides=2, padding="same", name="pool1_pool")(x)
    for stage, (filters, count) in enumerate(zip((64, 128, 256, 512), blocks), start=2):
        for i in range(count):
            stride = 2 if i == 0 and stage > 2 else 1
            x = block(x, filters, stride, i == 0, f"conv{stage}_block{i + 1}")
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    return keras.Model(inputs, layers.Dense(classes, name="predictions")(x), name="resnet50")


def bert(tf, keras, depth, hidden, heads, ff, seq, vocab, classes=2):
    """A BERT-base encoder: token and position embeddings, ``depth`` post-norm blocks of multi-head
    self-attention and a GELU feed-forward, the first token's pooled output classified."""
    layers = keras.layers
    size = hidden // heads

    class SelfAttention(layers.Layer):
        """Keras's ``MultiHeadAttention`` as BERT uses it: query, key, value and output projections
        (``EinsumDense``: einsums over the hidden axis), scaled dot-product attention per head."""

        def build(self, input_shape):
            self.kernels = [self.add_weight(shape=(hidden, hidden), name=n) for n in ("query", "key", "value", "out")]
            self.biases = [self.add_weight(shape=(hidden,), initializer="zeros", name=n + "_bias")
                           for n in ("query", "key", "value", "out")]

        def call(self, x):
            def project(t, i):
                return tf.einsum("bsh,hk->bsk", t, self.kernels[i]) + self.biases[i]

            def split(t):  # [batch, seq, hidden] -> [batch, heads, seq, size]
                return tf.transpose(tf.reshape(t, [-1, seq, heads, size]), [0, 2, 1, 3])

            q, k, v = (split(project(x, i)) for i in range(3))
            weights = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) * (size ** -0.5), axis=-1)
            context = tf.reshape(tf.transpose(tf.matmul(weights, v), [0, 2, 1, 3]), [-1, seq, hidden])
            return project(context, 3)

    class PositionEmbedding(layers.Layer):
        def build(self, input_shape):
            self.table = self.add_weight(shape=(seq, hidden), name="embeddings")

        def call(self, x):
            return x + self.table

    tokens = keras.Input((seq,), dtype="int32")
    x = PositionEmbedding(name="position_embedding")(layers.Embedding(vocab, hidden, name="word_embeddings")(tokens))
    x = layers.LayerNormalization(epsilon=1e-12, name="embeddings_norm")(x)
    for i in range(depth):
        attended = SelfAttention(name=f"layer_{i}_attention")(x)
        x = layers.LayerNormalization(epsilon=1e-12, name=f"layer_{i}_attention_norm")(layers.Add()([x, attended]))
        h = layers.Dense(ff, activation="gelu", name=f"layer_{i}_intermediate")(x)
        h = layers.Dense(hidden, name=f"layer_{i}_output")(h)
        x = layers.LayerNormalization(epsilon=1e-12, name=f"layer_{i}_output_norm")(layers.Add()([x, h]))
    pooled = layers.Dense(hidden, activation="tanh", name="pooler")(layers.Lambda(lambda t: t[:, 0])(x))
    return keras.Model(tokens, layers.Dense(classes, name="classifier")(pooled), name="bert_base")


def step(model_name: str, batch: int, size: str) -> None:
    """One ``fit`` step of ``model_name`` under ``MirroredStrategy``; each GPU's peak memory."""
    import numpy as np
    import tensorflow as tf
    from tensorflow import keras

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        if model_name == "resnet50":
            side, divisor, blocks = RESNET[size]
            model = resnet50(keras, side, divisor, blocks)
            x = np.broadcast_to(np.float32(0.5), (batch, side, side, 3))  # zero-strided: no host memory
            y = np.zeros(batch, np.int64)
        else:
            depth, hidden, heads, ff, seq, vocab = BERT[size]
            model = bert(tf, keras, depth, hidden, heads, ff, seq, vocab)
            x = np.broadcast_to(np.int32(1), (batch, seq))
            y = np.zeros(batch, np.int64)
        model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, batch_size=batch, epochs=1, steps_per_epoch=1, verbose=0)
    params = sum(int(np.prod(v.shape)) for v in model.trainable_weights)
    print(f"parameters {params}")
    for device in tf.config.list_logical_devices("GPU"):
        info = tf.config.experimental.get_memory_info(device.name)
        print(f"peak {device.name} {info['peak']}")


# -- the driver: each scenario one `devtrace run` ----------------------------------------------------
def run_scenario(model_name, batch, simulate, compute, size) -> dict:
    """Run one scenario as its own ``devtrace run``; its figures, wall time and peak RSS."""
    import tempfile

    command = [sys.executable, "-m", "devtrace", "run", "--simulate", simulate, "--compute", compute, HERE, "--",
               "--program", model_name, "--batch", str(batch), "--size", size]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVTRACE_")}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True, env=env, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)  # this child's own rusage: its peak RSS
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode:
        sys.exit(f"{model_name}: devtrace run exited {process.returncode}\n{stderr[-3000:]}")
    peaks = {m.group(1): int(m.group(2)) for m in re.finditer(r"^peak (\S+) (\d+)$", stdout, re.M)}
    params = int(re.search(r"^parameters (\d+)$", stdout, re.M).group(1))
    return {"model": model_name, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss * 1024, "peaks": peaks, "parameters": params}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("resnet50", "bert", "all"), default="all")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--simulate", default="8xH100")
    parser.add_argument("--compute", choices=("none", "all"), default="none")
    parser.add_argument("--small", action="store_true", help="tiny models (a test's size)")
    parser.add_argument("--program", help=argparse.SUPPRESS)  # the program side, under devtrace run
    parser.add_argument("--size", default="full", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.program:
        step(args.program, args.batch, args.size)
        return 0
    models = ("resnet50", "bert") if args.model == "all" else (args.model,)
    size = "small" if args.small else "full"
    failed = False
    for name in models:
        r = run_scenario(name, args.batch, args.simulate, args.compute, size)
        peaks = r["peaks"]
        print(f"{name} ({r['parameters'] / 1e6:.1f} M parameters), batch {args.batch} on {args.simulate}, "
              f"--compute {args.compute}: {r['wall_s']:.1f} s end to end ({r['cpu_s']:.1f} s of CPU), "
              f"peak RSS {r['rss'] / 2**20:.0f} MiB")
        for device, peak in peaks.items():
            print(f"  {device}  peak {peak / 2**20:10.1f} MiB ({peak} bytes)")
        if not args.small:
            ok_time, ok_rss = r["wall_s"] <= TARGET_S, r["rss"] <= TARGET_RSS
            print(f"  <= {TARGET_S:.0f} s: {'ok' if ok_time else 'MISSED'}; peak RSS <= 1 GiB: "
                  f"{'ok' if ok_rss else 'MISSED'}")
            failed |= not (ok_time and ok_rss)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
