"""The keras.random draws both sides make (tests/keras_layers/capture_random.py under Keras,
tests/test_keras_random.py under devtrace): each a source text evaluated with ``keras`` and ``np``."""

CASES = {
    "normal": "keras.random.normal((2, 3), seed=42)",
    "normal_mean": "keras.random.normal((4,), mean=2.0, stddev=0.5, seed=7)",
    "uniform": "keras.random.uniform((3, 2), minval=-1.0, maxval=3.0, seed=3)",
    "truncated_normal": "keras.random.truncated_normal((5,), seed=11)",
    "randint": "keras.random.randint((6,), 0, 10, seed=5)",
    "categorical": "keras.random.categorical(np.log([[0.1, 0.6, 0.3], [0.8, 0.1, 0.1]]).astype('float32'), 5, seed=2)",
    "dropout": "keras.random.dropout(np.ones((2, 5), 'float32'), 0.4, seed=9)",
    "shuffle": "keras.random.shuffle(np.arange(8), seed=4)",
    "seed_generator": "[keras.random.normal((3,), seed=g) for g in [keras.random.SeedGenerator(42)] for _ in range(2)]",
    "uniform_float64": "keras.random.uniform((3,), dtype='float64', seed=1)",
}
