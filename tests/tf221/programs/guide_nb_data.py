# TensorFlow's "tf.data: Build TensorFlow input pipelines" guide (tensorflow/docs site/en/guide/data.ipynb at 7c36502), its code cells in order,
# unchanged, run as a notebook runs them (_notebook: an ending expression's repr is shown, an error ends its cell).
# Dropped: cell 3 (matplotlib and pandas imports), 14 and 24-27 (they print tf.random.uniform / np.random draws made without a seed),
# 18-19, 28-62, 67-92 and 104-115 (network downloads: Fashion-MNIST, flowers, FSNS, the Iliad, Titanic, credit-card data; plots), 117-124 (Fashion-MNIST download, Keras fit).
from _notebook import run

CELLS = [
    # cell 2
    r'''import tensorflow as tf''',
    # cell 4
    r'''dataset = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
dataset''',
    # cell 5
    r'''for elem in dataset:
  print(elem.numpy())''',
    # cell 6
    r'''it = iter(dataset)

print(next(it).numpy())''',
    # cell 7
    r'''print(dataset.reduce(0, lambda state, value: state + value).numpy())''',
    # cell 8
    r'''dataset1 = tf.data.Dataset.from_tensor_slices(tf.random.uniform([4, 10]))

dataset1.element_spec''',
    # cell 9
    r'''dataset2 = tf.data.Dataset.from_tensor_slices(
   (tf.random.uniform([4]),
    tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))

dataset2.element_spec''',
    # cell 10
    r'''dataset3 = tf.data.Dataset.zip((dataset1, dataset2))

dataset3.element_spec''',
    # cell 11
    r'''# Dataset containing a sparse tensor.
dataset4 = tf.data.Dataset.from_tensors(tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4]))

dataset4.element_spec''',
    # cell 12
    r'''# Use value_type to see the type of value represented by the element spec
dataset4.element_spec.value_type''',
    # cell 13
    r'''dataset1 = tf.data.Dataset.from_tensor_slices(
    tf.random.uniform([4, 10], minval=1, maxval=10, dtype=tf.int32))

dataset1''',
    # cell 15
    r'''dataset2 = tf.data.Dataset.from_tensor_slices(
   (tf.random.uniform([4]),
    tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))

dataset2''',
    # cell 16
    r'''dataset3 = tf.data.Dataset.zip((dataset1, dataset2))

dataset3''',
    # cell 17
    r'''for a, (b,c) in dataset3:
  print('shapes: {a.shape}, {b.shape}, {c.shape}'.format(a=a, b=b, c=c))''',
    # cell 20
    r'''def count(stop):
  i = 0
  while i<stop:
    yield i
    i += 1''',
    # cell 21
    r'''for n in count(5):
  print(n)''',
    # cell 22
    r'''ds_counter = tf.data.Dataset.from_generator(count, args=[25], output_types=tf.int32, output_shapes = (), )''',
    # cell 23
    r'''for count_batch in ds_counter.repeat().batch(10).take(10):
  print(count_batch.numpy())''',
    # cell 63
    r'''inc_dataset = tf.data.Dataset.range(100)
dec_dataset = tf.data.Dataset.range(0, -100, -1)
dataset = tf.data.Dataset.zip((inc_dataset, dec_dataset))
batched_dataset = dataset.batch(4)

for batch in batched_dataset.take(4):
  print([arr.numpy() for arr in batch])''',
    # cell 64
    r'''batched_dataset''',
    # cell 65
    r'''batched_dataset = dataset.batch(7, drop_remainder=True)
batched_dataset''',
    # cell 66
    r'''dataset = tf.data.Dataset.range(100)
dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
dataset = dataset.padded_batch(4, padded_shapes=(None,))

for batch in dataset.take(2):
  print(batch.numpy())
  print()''',
    # cell 93
    r'''range_ds = tf.data.Dataset.range(100000)''',
    # cell 94
    r'''batches = range_ds.batch(10, drop_remainder=True)

for batch in batches.take(5):
  print(batch.numpy())''',
    # cell 95
    r'''def dense_1_step(batch):
  # Shift features and labels one step relative to each other.
  return batch[:-1], batch[1:]

predict_dense_1_step = batches.map(dense_1_step)

for features, label in predict_dense_1_step.take(3):
  print(features.numpy(), " => ", label.numpy())''',
    # cell 96
    r'''batches = range_ds.batch(15, drop_remainder=True)

def label_next_5_steps(batch):
  return (batch[:-5],   # Inputs: All except the last 5 steps
          batch[-5:])   # Labels: The last 5 steps

predict_5_steps = batches.map(label_next_5_steps)

for features, label in predict_5_steps.take(3):
  print(features.numpy(), " => ", label.numpy())''',
    # cell 97
    r'''feature_length = 10
label_length = 3

features = range_ds.batch(feature_length, drop_remainder=True)
labels = range_ds.batch(feature_length).skip(1).map(lambda labels: labels[:label_length])

predicted_steps = tf.data.Dataset.zip((features, labels))

for features, label in predicted_steps.take(5):
  print(features.numpy(), " => ", label.numpy())''',
    # cell 98
    r'''window_size = 5

windows = range_ds.window(window_size, shift=1)
for sub_ds in windows.take(5):
  print(sub_ds)''',
    # cell 99
    r''' for x in windows.flat_map(lambda x: x).take(30):
   print(x.numpy(), end=' ')''',
    # cell 100
    r'''def sub_to_batch(sub):
  return sub.batch(window_size, drop_remainder=True)

for example in windows.flat_map(sub_to_batch).take(5):
  print(example.numpy())''',
    # cell 101
    r'''def make_window_dataset(ds, window_size=5, shift=1, stride=1):
  windows = ds.window(window_size, shift=shift, stride=stride)

  def sub_to_batch(sub):
    return sub.batch(window_size, drop_remainder=True)

  windows = windows.flat_map(sub_to_batch)
  return windows''',
    # cell 102
    r'''ds = make_window_dataset(range_ds, window_size=10, shift = 5, stride=3)

for example in ds.take(10):
  print(example.numpy())''',
    # cell 103
    r'''dense_labels_ds = ds.map(dense_1_step)

for inputs,labels in dense_labels_ds.take(3):
  print(inputs.numpy(), "=>", labels.numpy())''',
    # cell 116
    r'''range_ds = tf.data.Dataset.range(20)

iterator = iter(range_ds)
ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, __import__('tempfile').mkdtemp() + '/my_ckpt', max_to_keep=3)

print([next(iterator).numpy() for _ in range(5)])

save_path = manager.save()

print([next(iterator).numpy() for _ in range(5)])

ckpt.restore(manager.latest_checkpoint)

print([next(iterator).numpy() for _ in range(5)])''',
]

run(CELLS)
