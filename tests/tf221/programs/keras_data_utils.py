# tf.keras.utils data: PyDataset (fit/evaluate/predict on it, its epoch hooks, workers/use_multiprocessing
# accepted, Keras's errors), Sequence, image/text_dataset_from_directory (Keras's lines, the files picked and
# shuffled by seed, labels modes, validation splits), timeseries_dataset_from_array, split_dataset,
# to_categorical, normalize, pad_sequences.
import os
import tempfile

import numpy as np
import tensorflow as tf

keras = tf.keras
tf.get_logger().setLevel("ERROR")
root = tempfile.mkdtemp()
os.chdir(root)


class Batches(keras.utils.PyDataset):
    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size, self.events = x, y, batch_size, []

    def __len__(self):
        return int(np.ceil(len(self.x) / self.batch_size))

    def __getitem__(self, i):
        self.events.append(i)
        s = slice(i * self.batch_size, (i + 1) * self.batch_size)
        return self.x[s], self.y[s]

    def on_epoch_end(self):
        self.events.append("end")


x = np.linspace(-1, 1, 20).reshape(10, 2).astype("float32")
y = x.sum(axis=1, keepdims=True)
m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
data = Batches(x, y, 4, workers=2, use_multiprocessing=False, max_queue_size=5)
print(data.workers, data.use_multiprocessing, data.max_queue_size, data.num_batches, len(data))
h = m.fit(data, epochs=2, verbose=0, shuffle=False)
print([round(v, 5) for v in h.history["loss"]], sorted(set(data.events) - {"end"}), data.events.count("end"))
print(round(m.evaluate(data, verbose=0), 5), m.predict(Batches(x, y, 3), verbose=0).shape)
try:
    m.fit(data, y, verbose=0)
except ValueError as e:
    print(type(e).__name__, e)
print(keras.utils.Sequence is keras.utils.PyDataset)


class Bad(keras.utils.PyDataset):
    def __len__(self):
        return 1

    def __getitem__(self, i):
        return "nope"


try:
    m.fit(Bad(), verbose=0)
except ValueError as e:
    print(type(e).__name__, e)

# images: two classes, PNGs of known colours
for cls, count in (("cats", 3), ("dogs", 4)):
    os.makedirs(os.path.join("img", cls))
    for i in range(count):
        pixel = np.full((6, 8, 3), 30 * i + (100 if cls == "dogs" else 0), np.uint8)
        tf.io.write_file(os.path.join("img", cls, f"{i}.png"), tf.io.encode_png(pixel))
open(os.path.join("img", "cats", "notes.txt"), "w").write("skip me")
ds = keras.utils.image_dataset_from_directory("img", image_size=(4, 4), batch_size=3, shuffle=False)
print(ds.class_names, ds.file_paths)
for images, labels in ds:
    print(images.shape, images.dtype.name, labels.numpy(), images.numpy()[:, 0, 0, 0])
ds = keras.utils.image_dataset_from_directory("img", image_size=(4, 4), batch_size=None, seed=3,
                                              label_mode="categorical", color_mode="grayscale")
print(sorted(ds.file_paths), [tuple(e[0].shape) + tuple(e[1].shape) for e in ds][0])
train, val = keras.utils.image_dataset_from_directory("img", image_size=(4, 4), validation_split=0.3, subset="both",
                                                      seed=7, label_mode="binary")
print(train.file_paths, val.file_paths, [lab.numpy().ravel().tolist() for _, lab in val])
only = keras.utils.image_dataset_from_directory("img", image_size=5, labels=None, shuffle=False, verbose=False)
print(only.class_names, [tuple(b.shape) for b in only])
for kwargs in ({"color_mode": "cmyk"}, {"label_mode": "sparse"}, {"validation_split": 0.2},
               {"validation_split": 0.2, "subset": "training"}, {"class_names": ["cats", "birds"]},
               {"label_mode": "binary", "class_names": ["cats"]}):
    try:
        keras.utils.image_dataset_from_directory("img", **kwargs)
    except ValueError as e:
        print(type(e).__name__, e)

# text
for cls, words in (("neg", ["bad", "awful movie"]), ("pos", ["good", "great fun", "fine"])):
    os.makedirs(os.path.join("txt", cls))
    for i, w in enumerate(words):
        open(os.path.join("txt", cls, f"{i}.txt"), "w").write(w)
ds = keras.utils.text_dataset_from_directory("txt", batch_size=2, shuffle=False, max_length=5)
print(ds.class_names)
for texts, labels in ds:
    print(texts.numpy().tolist(), labels.numpy().tolist())
tr = keras.utils.text_dataset_from_directory("txt", validation_split=0.4, subset="training", seed=1, batch_size=None)
print(len(list(tr)), sorted(int(lab) for _, lab in tr))

# time series
series = np.arange(10)
for kwargs in ({"sequence_length": 3, "batch_size": 4}, {"sequence_length": 2, "sequence_stride": 3, "sampling_rate": 2},
               {"sequence_length": 3, "start_index": 2, "end_index": 8, "batch_size": 2}):
    ts = keras.utils.timeseries_dataset_from_array(series, series * 10, **kwargs)
    print([(a.numpy().tolist(), b.numpy().tolist()) for a, b in ts])
ts = keras.utils.timeseries_dataset_from_array(series, None, sequence_length=4, batch_size=None)
print(len(list(ts)), list(ts)[-1].numpy().tolist())
try:
    keras.utils.timeseries_dataset_from_array(series, None, 3, sequence_stride=0)
except ValueError as e:
    print(type(e).__name__, e)

# split_dataset
left, right = keras.utils.split_dataset(np.arange(10), left_size=0.7)
print([int(v) for v in left], [int(v) for v in right])
left, right = keras.utils.split_dataset((np.arange(6), np.arange(6) * 2), right_size=2, shuffle=True, seed=4)
print([(int(a), int(b)) for a, b in left], [(int(a), int(b)) for a, b in right])
left, right = keras.utils.split_dataset(tf.data.Dataset.range(8), left_size=3, right_size=2)
print([int(v) for v in left], [int(v) for v in right])
for kwargs in ({}, {"left_size": 1.5}, {"left_size": 0.6, "right_size": 0.6}):
    try:
        keras.utils.split_dataset(np.arange(10), **kwargs)
    except ValueError as e:
        print(type(e).__name__, e)

# small utilities
print(keras.utils.to_categorical([0, 2, 1], 4).tolist(), keras.utils.to_categorical(np.array([[1], [0]])).shape)
print(np.round(keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])), 4).tolist())
print(np.round(keras.utils.normalize(np.array([[1.0, 1.0], [2.0, 0.0]]), axis=0, order=1), 4).tolist())
print(keras.utils.pad_sequences([[1, 2, 3], [4], [5, 6]], maxlen=2, padding="post").tolist())
