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

# keras.initializers: serialized forms, and seeded draws of each class
INITIALIZERS = {
    "serialize_glorot": "keras.initializers.serialize(keras.initializers.GlorotUniform(seed=3))",
    "serialize_constant": "keras.initializers.serialize(keras.initializers.Constant(2.0))",
    "serialize_variance": "keras.initializers.serialize(keras.initializers.VarianceScaling(2.0, 'fan_out', 'uniform'))",
    "serialize_orthogonal": "keras.initializers.serialize(keras.initializers.Orthogonal())",
    "serialize_normal": "keras.initializers.serialize(keras.initializers.RandomNormal(stddev=0.1, seed=2))",
    "aliases": "[keras.initializers.glorot_uniform is keras.initializers.GlorotUniform, "
               "keras.initializers.zeros is keras.initializers.Zeros, "
               "keras.initializers.IdentityInitializer is keras.initializers.Identity]",
    "draw_he_normal": "keras.initializers.he_normal(seed=1)((3, 4)).numpy().tolist()",
    "draw_lecun_uniform": "keras.initializers.LecunUniform(seed=5)((2, 3)).numpy().tolist()",
    "draw_identity": "keras.initializers.Identity(gain=2.0)((2, 3)).numpy().tolist()",
    "draw_deserialized": "keras.initializers.get({'class_name': 'RandomUniform', "
                         "'config': {'minval': 0.0, 'maxval': 2.0, 'seed': 4}})((3,)).numpy().tolist()",
}
