"""``keras.utils.FeatureSpace``: structured-data preprocessing as Keras 3 composes it — one preprocessing
layer per named feature (``Normalization``, ``StringLookup``, ``IntegerLookup``, ``Hashing`` …), hashed
crosses of features, categorical results one-hot (multi-hot) encoded, then concatenated in the features'
sorted order (crosses last) or returned as a dict. ``adapt`` adapts each adaptable layer on its column of
a dataset of dicts; calling it on a dict batch runs the same steps eagerly, on ``get_inputs()`` symbolically."""

from __future__ import annotations

from dataclasses import dataclass

import devtrace as tf
from . import layers as L
from .engine import Input, Layer
from .naming import unique

_KINDS = ("float", "float_normalized", "float_rescaled", "float_discretized", "integer_categorical",
          "string_categorical", "integer_hashed", "string_hashed")


@dataclass
class Cross:
    """Features hashed together into ``crossing_dim`` bins (named ``a_X_b``)."""

    feature_names: tuple
    crossing_dim: int
    output_mode: str = "one_hot"

    def __post_init__(self):
        self.feature_names = tuple(self.feature_names)
        if self.output_mode not in {"int", "one_hot"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot'}. "
                             f"Received: output_mode={self.output_mode}")

    @property
    def name(self) -> str:
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}


@dataclass
class Feature:
    """A feature's input dtype, its preprocessing layer and how its result is encoded."""

    dtype: str
    preprocessor: object
    output_mode: str

    def __post_init__(self):
        if self.output_mode not in {"int", "one_hot", "float"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot', "
                             f"'float'}}. Received: output_mode={self.output_mode}")


class _Identity(Layer):
    def call(self, x):
        return x

    def compute_output_shape(self, input_shape):
        return input_shape


class _Concat(Layer):
    def call(self, xs):
        return tf.concat(list(xs), axis=-1)

    def compute_output_shape(self, input_shape):
        shapes = [tuple(s) for s in input_shape]
        widths = [s[-1] for s in shapes]
        return shapes[0][:-1] + (None if None in widths else sum(widths),)


class FeatureSpace(Layer):
    """Keras's ``FeatureSpace`` (``output_mode='concat'`` or ``'dict'``)."""

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or unique("float")
        return Feature("float32", _Identity(dtype="float32", name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or unique("float_rescaled")
        return Feature("float32", L.Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or unique("float_normalized")
        return Feature("float32", L.Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        name = name or unique("float_discretized")
        layer = L.Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor")
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique("integer_categorical")
        layer = L.IntegerLookup(name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices)
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique("string_categorical")
        layer = L.StringLookup(name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices)
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique("string_hashed")
        return Feature("string", L.Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique("integer_hashed")
        return Feature("int32", L.Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32, hashing_dim=32,
                 num_discretization_bins=32, name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {key: self._standardize_feature(key, value) for key, value in features.items()}
        self.crosses = []
        for cross in crosses or ():
            if not isinstance(cross, Cross):
                if not crossing_dim:
                    raise ValueError("When specifying `crosses`, the argument `crossing_dim` (dimensionality of the "
                                     "crossing space) should be specified as well.")
                if any(key not in features for key in cross):
                    raise ValueError("All features referenced in the `crosses` argument should be present in the "
                                     f"`features` dict. Received unknown features: {cross}")
                cross = Cross(cross, crossing_dim=crossing_dim)
            self.crosses.append(cross)
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'dict', 'concat'}. "
                             f"Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {key: Input(shape=(1,), dtype=f.dtype, name=key) for key, f in self.features.items()}
        self.preprocessors = {key: f.preprocessor for key, f in self.features.items()}
        self.crossers = {c.name: L.HashedCrossing(c.crossing_dim, name=c.name) for c in self.crosses}
        self.encoded_features = None
        self.one_hot_encoders = {}
        self.concat = None
        self._is_adapted = False
        self._sublayers_built = False

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if feature not in _KINDS:
            raise ValueError(f"Invalid feature type: {feature}")
        if feature == "float_discretized":
            return self.float_discretized(name=name, num_bins=self.num_discretization_bins)
        if feature in ("integer_hashed", "string_hashed"):
            return getattr(self, feature)(self.hashing_dim, name=name)
        return getattr(self, feature)(name=name)

    def _adaptable(self):
        names = []
        for name, layer in self.preprocessors.items():
            if isinstance(layer, L.Normalization) and layer.input_mean is not None:
                continue  # mean and variance given
            if hasattr(layer, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        if not isinstance(dataset, tf.data.Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict of arrays/lists. "
                                 f"Received instead: {dataset} (of type {type(dataset)})")
            dataset = tf.data.Dataset.from_tensor_slices(dataset)
        for name in self._adaptable():
            column = dataset.map(lambda x, name=name: x[name])
            rank = len(next(iter(column)).shape)
            if rank == 0:
                column = column.batch(32)
            if rank in (0, 1):
                column = column.map(lambda x: tf.expand_dims(x, -1))
            self.preprocessors[name].adapt(column)
        self._is_adapted = True
        self.get_encoded_features()
        self.built = self._sublayers_built = True

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before you can start "
                                 "using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    def get_inputs(self):
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = {key: self.preprocessors[key](x) for key, x in self.inputs.items()}
            self.encoded_features = self._merge(preprocessed, self._cross(preprocessed))
        return self.encoded_features

    def _cross(self, features):
        return {c.name: self.crossers[c.name]([features[n] for n in c.feature_names]) for c in self.crosses}

    def _cardinality(self, name, layer):
        if isinstance(layer, (L.IntegerLookup, L.StringLookup)):
            return layer.vocabulary_size()
        if isinstance(layer, L.CategoryEncoding):
            return layer.num_tokens
        if isinstance(layer, (L.Discretization, L.HashedCrossing, L.Hashing)):
            return layer.num_bins
        raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard feature and the "
                         "dimensionality of its output space is not known, thus it cannot be one-hot encoded. Try "
                         "using `output_mode='int'`.")

    def _encoder(self, name, feature, spec):
        """The one-hot (multi-hot) encoder of a categorical feature, made the first time (symbolically)."""
        if name not in self.one_hot_encoders and spec.output_mode == "one_hot":
            dtype = tf.as_dtype(feature.dtype).name
            if not dtype.startswith("int"):
                raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should return "
                                 f"an integer dtype. Instead it returns a {dtype} dtype.")
            layer = self.preprocessors.get(name) or self.crossers.get(name)
            self.one_hot_encoders[name] = L.CategoryEncoding(num_tokens=self._cardinality(name, layer),
                                                             output_mode="multi_hot")
        return self.one_hot_encoders.get(name)

    def _merge(self, preprocessed, crossed):
        names = sorted(preprocessed) + sorted(crossed)
        specs = {**self.features, **self.crosses_by_name}
        out = {}
        for name in names:
            feature = preprocessed[name] if name in preprocessed else crossed[name]
            encoder = self._encoder(name, feature, specs[name])
            if encoder is not None:
                feature = encoder(feature)
            dtype = tf.as_dtype(feature.dtype).name
            if self.output_mode == "concat" and (dtype.startswith("int") or dtype == "string"):
                raise ValueError(f"Cannot concatenate features because feature '{name}' has not been encoded (it has "
                                 f"dtype {dtype}). Consider using `output_mode='dict'`.")
            out[name] = feature
        if self.output_mode == "dict":
            return out
        if self.concat is None:
            self.concat = _Concat(name=unique("tfd_concat"))
        return self.concat([out[name] for name in names])

    def __call__(self, data):
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: data={data} (of type "
                             f"{type(data)}")
        data = {key: tf.convert_to_tensor(value) for key, value in data.items()}
        rebatched = False
        for name, x in data.items():
            if len(x.shape) == 0:
                data[name], rebatched = tf.reshape(x, (1, 1)), True
            elif len(x.shape) == 1:
                data[name] = tf.expand_dims(x, -1)
        preprocessed = {key: self.preprocessors[key](data[key]) for key in data}
        merged = self._merge(preprocessed, self._cross(preprocessed))
        if rebatched:
            if self.output_mode == "concat":
                if merged.shape[0] != 1:
                    raise ValueError(f"Expected rebatched data to have batch size 1. Received: shape={merged.shape}")
                return tf.squeeze(merged, axis=0)
            return {k: tf.squeeze(x, axis=0) if len(x.shape) == 2 and x.shape[0] == 1 else x
                    for k, x in merged.items()}
        return merged

    def get_config(self):
        raise NotImplementedError("devtrace does not implement keras.utils.FeatureSpace.get_config yet")
