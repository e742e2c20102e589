"""A custom training loop under MultiWorkerMirroredStrategy, in the shape of TensorFlow's tutorial
"Custom training loop with Keras and MultiWorkerMirroredStrategy": a small CNN built in the
strategy's scope, its input from ``distribute_datasets_from_function`` (each worker's shard,
batched per replica), a ``tf.function`` step that runs ``strategy.run`` and ``strategy.reduce``,
RMSprop, a regularised loss and an accuracy metric. Offline: MNIST-shaped random data (seed 0);
the same global batch of 32 whatever the number of workers and replicas."""
import numpy as np
import tensorflow as tf

GLOBAL_BATCH = 32
STEPS = 4

tf.keras.utils.set_random_seed(0)
strategy = tf.distribute.MultiWorkerMirroredStrategy()


def dataset_fn(input_context):
    rng = np.random.RandomState(0)
    x = rng.randint(0, 256, size=(GLOBAL_BATCH * STEPS, 28, 28)).astype(np.uint8)
    y = rng.randint(0, 10, size=(GLOBAL_BATCH * STEPS,)).astype(np.int64)
    dataset = tf.data.Dataset.from_tensor_slices((x / np.float32(255), y))
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return dataset.batch(input_context.get_per_replica_batch_size(GLOBAL_BATCH))


def build_cnn_model():
    regularizer = tf.keras.regularizers.L2(1e-5)
    return tf.keras.Sequential([
        tf.keras.Input(shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(4, 3, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(16, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.Dense(10, kernel_regularizer=regularizer),
    ])


with strategy.scope():
    model = build_cnn_model()
    inputs = strategy.distribute_datasets_from_function(dataset_fn)
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")


@tf.function
def train_step(iterator):
    def step_fn(batch):
        x, y = batch
        with tf.GradientTape() as tape:
            predictions = model(x, training=True)
            per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True, reduction="none")(y, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
            loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        accuracy.update_state(y, predictions)
        return loss

    per_replica_losses = strategy.run(step_fn, args=(next(iterator),))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


print("replicas", strategy.num_replicas_in_sync, flush=True)
iterator = iter(inputs)
for step in range(STEPS):
    loss = train_step(iterator)
    print("step", step, "loss", repr(float(loss)), flush=True)
print("accuracy", repr(float(accuracy.result())), flush=True)
