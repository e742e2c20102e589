"""TensorFlow's "Multi-worker training with Keras" tutorial program, small and offline."""
import json
import os

import numpy as np
import tensorflow as tf

tf.debugging.set_log_device_placement(True)


def mnist_dataset(batch_size):
    rng = np.random.RandomState(0)
    x_train = rng.randint(0, 256, size=(256, 28, 28)).astype(np.uint8)
    y_train = rng.randint(0, 10, size=(256,)).astype(np.int64)
    x_train = x_train / np.float32(255)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).repeat().batch(batch_size)
    return train_dataset


def build_and_compile_cnn_model():
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(4, 3, activation='relu'),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(16, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.SGD(learning_rate=0.01),
                  metrics=['accuracy'])
    return model


per_worker_batch_size = 16
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])

strategy = tf.distribute.MultiWorkerMirroredStrategy()
print("num_replicas_in_sync", strategy.num_replicas_in_sync, flush=True)
print("logical devices", [d.name for d in tf.config.list_logical_devices()], flush=True)

global_batch_size = per_worker_batch_size * num_workers
multi_worker_dataset = mnist_dataset(global_batch_size)

with strategy.scope():
    multi_worker_model = build_and_compile_cnn_model()

history = multi_worker_model.fit(multi_worker_dataset, epochs=2, steps_per_epoch=3, verbose=0)
print("loss", json.dumps([float(v) for v in history.history['loss']]), flush=True)
