"""Keras 3's lookup and text layers: ``StringLookup``, ``IntegerLookup`` (Keras's index layout:
the mask token, then the OOV token, then the vocabulary; ``adapt`` orders tokens by count, ties
by the token, both descending, as Keras's ``lexsort`` does) and ``TextVectorization``
(standardize, split on whitespace, look up; ``int`` sequences padded or cut to
``output_sequence_length``, or ``multi_hot``/``count``/``tf_idf`` rows).

Tokens are looked up as Keras's TensorFlow backend looks them up: in a ``tf.lookup.StaticHashTable``
(``LookupTableFindV2``, CPU only as in TensorFlow), the OOV index its default."""

from __future__ import annotations

import collections

import numpy as np

import devtrace as tf
from . import keywords
from .engine import Layer
from .layers_preprocessing import _batches, encode_categorical

_PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


def _py_token(value):
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return value.item() if hasattr(value, "item") else value


# Keras 3 still takes the older names of two output modes
_DEPRECATED_MODES = {"binary": "multi_hot", "tf-idf": "tf_idf"}


class _Rows(list):
    """Rows already split into tokens (what ``TextVectorization.adapt`` hands its lookup)."""


class _IndexLookup(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too
    _string = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 vocabulary_dtype=None, oov_method="floormod", salt=None, **kwargs):
        super().__init__(**kwargs)
        where = f"keras.layers.{type(self).__name__}"
        keywords.unimplemented(where, sparse=(sparse, False), pad_to_max_tokens=(pad_to_max_tokens, False))
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError(f"Unknown value for `oov_method` argument of {type(self).__name__}. Allowed values are: "
                             f"('floormod', 'farmhash'). Received: oov_method={oov_method}")
        if salt is not None:
            if not self._string and oov_method != "farmhash":
                raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: oov_method={oov_method}")
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                salt = list(salt)
            elif isinstance(salt, int):
                salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `IndexLookup` can only be a tuple of 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")
        self.oov_method, self.salt = oov_method, salt
        output_mode = _DEPRECATED_MODES.get(output_mode, output_mode)
        if output_mode not in ("int", "one_hot", "multi_hot", "count", "tf_idf"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'int', 'one_hot', "
                             f"'multi_hot', 'count', 'tf_idf'}}. Received: output_mode={output_mode}")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        self.max_tokens, self.num_oov_indices, self.mask_token, self.oov_token = \
            max_tokens, num_oov_indices, mask_token, oov_token
        self.invert, self.output_mode = invert, output_mode
        if not invert:  # a symbolic call's dtype, as Keras's compute_output_spec
            self._output_dtype = "int64" if output_mode == "int" else "float32"
        self.vocabulary_dtype = vocabulary_dtype
        self.idf_weights = None
        self._tokens: list = []
        self._table = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    def _special(self) -> list:
        return ([self.mask_token] if self._mask_indexed() else []) + [self.oov_token] * self.num_oov_indices

    def _mask_indexed(self):
        """Keras gives the mask token index 0 in ``int`` mode only; the other modes drop it (a row of zeros)."""
        return self.mask_token is not None and self.output_mode == "int"

    def get_config(self) -> dict:
        return super().get_config() | {"output_mode": self.output_mode}  # an older name's new one

    def get_vocabulary(self, include_special_tokens=True):
        """Keras's: the special tokens as Python values, the others as NumPy scalars (as its table gives them)."""
        wrap = np.str_ if self._string else np.int64
        tokens = [wrap(t) for t in self._tokens]
        return self._special() + tokens if include_special_tokens else tokens

    def vocabulary_size(self):
        return len(self._special()) + len(self._tokens)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        tokens = [_py_token(t) for t in np.asarray(vocabulary).reshape(-1).tolist()] \
            if not isinstance(vocabulary, list) else [_py_token(t) for t in vocabulary]
        specials = self._special()
        found_specials = bool(specials) and tokens[:len(specials)] == specials
        while tokens and specials and tokens[:len(specials)] == specials:
            tokens = tokens[len(specials):]
        if len(set(tokens)) != len(tokens):
            repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please uniquify your dataset. "
                             f"The repeated terms are: {repeated}")
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
            weights = np.asarray(idf_weights, np.float32)
            if found_specials:  # the weights of the special tokens given too (Keras pads none then)
                self.idf_weights = weights
            else:  # the special tokens weigh the mean (Keras's stand-in for a document frequency)
                self.idf_weights = np.concatenate([np.full(len(specials), weights.mean(), np.float32), weights])
        self._tokens = tokens
        self._table = None

    def adapt(self, data, steps=None):
        counts, doc_counts, documents = collections.Counter(), collections.Counter(), 0
        if isinstance(data, _Rows):
            rows = data
        else:
            batches, _ = _batches(data)
            rows = [row for batch in batches for row in self._adapt_rows(batch)]
        for row in rows:
            counts.update(row)
            documents += 1
            doc_counts.update(set(row))
        for special in self._special() + [self.mask_token]:
            counts.pop(special, None)
        tokens = list(counts)
        order = np.lexsort((np.array(tokens, dtype=object), np.array([counts[t] for t in tokens])))[::-1]
        tokens = [tokens[i] for i in order]
        if self.max_tokens is not None:
            tokens = tokens[:max(self.max_tokens - len(self._special()), 0)]
        if self.output_mode == "tf_idf":
            idf = [np.log(1 + documents / (1 + doc_counts[t])) for t in tokens]
            self._tokens = []
            self.set_vocabulary(tokens, idf)
        else:
            self.set_vocabulary(tokens)

    def _adapt_rows(self, batch):
        values = np.asarray(batch.numpy() if hasattr(batch, "numpy") else batch)
        if values.ndim <= 1:
            return [[_py_token(v)] for v in values.reshape(-1)]
        return [[_py_token(v) for v in row.reshape(-1)] for row in values]

    def _lookup_table(self):
        """Keras's TensorFlow table: a ``StaticHashTable`` of the vocabulary (built once per
        vocabulary), the OOV index its default."""
        if self._table is None:
            with tf.init_scope():  # made once, eagerly (as Keras builds it), whatever graph is being traced
                self._table = self._new_table()
        return self._table

    def _new_table(self):
        offset = len(self._special())
        keys = [t.encode("utf-8") if isinstance(t, str) else t for t in self._tokens]
        keys = tf.constant(keys, tf.string) if self._string else tf.constant(np.asarray(keys, np.int64), tf.int64)
        values = tf.constant(np.arange(offset, offset + len(self._tokens), dtype=np.int64))
        oov = tf.constant(self._oov_start() if self.num_oov_indices == 1 else -1, tf.int64)
        return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), oov)

    def _oov_start(self):
        return 1 if self._mask_indexed() else 0

    def _lookup(self, keys):
        out = self._lookup_table().lookup(keys)
        unknown = tf.equal(out, -1)  # an OOV token when there are no or several OOV indices
        if self.mask_token is not None:
            mask = tf.equal(keys, tf.constant(self.mask_token, keys.dtype))
            unknown = tf.logical_and(unknown, tf.logical_not(mask))
            out = tf.where(mask, tf.fill(tf.shape(out), tf.constant(0 if self._mask_indexed() else -1, out.dtype)), out)
        if self.num_oov_indices == 0:  # Keras's check: no OOV index to map an unknown token to
            oov_inputs = tf.boolean_mask(tf.reshape(keys, [-1]), tf.reshape(unknown, [-1]))  # a scalar's too
            msg = tf.strings.format("When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                                    "{}, consider setting `num_oov_indices=1`.", (oov_inputs,))
            with tf.control_dependencies([tf.debugging.Assert(tf.equal(tf.size(oov_inputs), 0), [msg])]):
                return tf.identity(out)
        if self.num_oov_indices > 1:  # Keras hashes an unknown token into one of the OOV indices
            out = tf.where(unknown, self._oov_bucket(keys) + self._oov_start(), out)
        return out

    def _oov_bucket(self, keys):
        n = self.num_oov_indices
        if not self._string and self.oov_method != "farmhash":
            return tf.math.floormod(keys, tf.constant(n, keys.dtype))
        strings = keys if self._string else tf.strings.as_string(keys)
        if self.salt is not None:
            return tf.strings.to_hash_bucket_strong(strings, n, key=self.salt)
        return tf.strings.to_hash_bucket_fast(strings, n)

    def _invert(self, ids):
        vocab = self.get_vocabulary()
        table = tf.constant([t.encode("utf-8") for t in vocab] if self._string else np.asarray(vocab, np.int64))
        ids = tf.cast(ids, tf.int64)
        return tf.gather(table, tf.clip_by_value(ids, 0, len(vocab) - 1))

    def _keys(self, inputs):
        if isinstance(inputs, str) or isinstance(inputs, (list, tuple, np.ndarray)) and \
                np.asarray(inputs).dtype.kind in "USO":
            return tf.constant(np.asarray(inputs, dtype=object) if not isinstance(inputs, str) else inputs)
        x = tf.convert_to_tensor(inputs)
        return x if x.dtype == tf.string or not self._string else x

    def call(self, inputs):
        if isinstance(inputs, tf.RaggedTensor):
            ids = inputs.with_flat_values(self._lookup(inputs.flat_values) if not self.invert
                                          else self._invert(inputs.flat_values))
            if self.output_mode == "int":
                return ids
            return self._encode(ids.to_tensor(default_value=-1))  # -1: no token (a row of zeros)
        keys = self._keys(inputs)
        if self.invert:
            return self._invert(keys)
        ids = self._lookup(keys if self._string else tf.cast(keys, tf.int64))
        return self._encode(ids)

    def _encode(self, ids):
        """Keras's outputs past ``int``: ``tf_idf`` as float32, the others int64."""
        dtype = tf.float32 if self.output_mode == "tf_idf" else tf.int64
        depth = self.vocabulary_size()  # Keras: max_tokens only with pad_to_max_tokens
        return encode_categorical(ids, depth, self.output_mode, idf_weights=self._idf(depth), dtype=dtype)

    def _idf(self, depth):
        if self.idf_weights is None:
            return None
        return np.pad(self.idf_weights, (0, max(depth - len(self.idf_weights), 0)))[:depth]

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return input_shape
        depth = self.max_tokens if self.max_tokens is not None else self.vocabulary_size()
        return tuple(input_shape[:-1]) + (depth,) if len(input_shape) > 1 else (input_shape[0], depth)


class StringLookup(_IndexLookup):
    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, salt=None, **kwargs):
        keywords.unimplemented("keras.layers.StringLookup", encoding=(encoding, "utf-8"))
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
                         output_mode, pad_to_max_tokens, sparse, salt=salt, name=name, **kwargs)


class IntegerLookup(_IndexLookup):
    _string = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, oov_method="floormod", salt=None, name=None, **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
                         output_mode, pad_to_max_tokens, sparse, vocabulary_dtype, oov_method, salt, name=name,
                         **kwargs)


class TextVectorization(Layer):
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take Python values too

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace", ngrams=None,
                 output_mode="int", output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        where = "keras.layers.TextVectorization"
        if not (ngrams is None or isinstance(ngrams, int) or isinstance(ngrams, tuple)
                and all(isinstance(item, int) for item in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        keywords.unimplemented(where, sparse=(sparse, False), encoding=(encoding, "utf-8"),
                               pad_to_max_tokens=(pad_to_max_tokens, False))
        output_mode = _DEPRECATED_MODES.get(output_mode, output_mode)
        if output_mode not in ("int", "multi_hot", "count", "tf_idf"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'int', 'multi_hot', "
                             f"'count', 'tf_idf'}}. Received: output_mode={output_mode}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        self.standardize, self.split, self.output_mode = standardize, split, output_mode
        self.output_sequence_length, self.ragged = output_sequence_length, ragged
        self._lookup_layer = StringLookup(max_tokens=max_tokens, mask_token="" if output_mode == "int" else None,
                                          vocabulary=vocabulary, idf_weights=idf_weights, output_mode=output_mode)

    def get_config(self) -> dict:
        return super().get_config() | {"output_mode": self.output_mode}  # an older name's new one

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def _standardize(self, x):
        if self.standardize is None:
            return x
        if callable(self.standardize):
            return self.standardize(x)
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            x = tf.strings.lower(x)
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            x = tf.strings.regex_replace(x, _PUNCTUATION, "")
        return x

    def _tokens(self, inputs):
        x = tf.constant(inputs) if isinstance(inputs, (str, list, tuple, np.ndarray)) else tf.convert_to_tensor(inputs)
        if len(x.shape) > 1 and x.shape[-1] == 1:
            x = tf.squeeze(x, [-1])
        x = self._standardize(x)
        if self.split is None:
            pass
        elif callable(self.split):
            x = self.split(x)
        elif self.split == "whitespace":
            x = tf.strings.split(x)
        elif self.split == "character":
            x = tf.strings.unicode_split(x, "UTF-8")
        else:
            raise ValueError(f"Unknown value for split: {self.split}")
        if self._ngrams is not None:  # Keras's: the n-grams of each width, joined by a space
            x = tf.strings.ngrams(x, ngram_width=self._ngrams, separator=" ")
        return x

    def adapt(self, data, batch_size=None, steps=None):
        rows = []
        batches, _ = _batches(data)
        for batch in batches:
            tokens = self._tokens(batch)
            if isinstance(tokens, tf.RaggedTensor):
                rows.extend([[t.decode("utf-8") for t in row] for row in tokens.to_list()])
            else:
                rows.extend([[_py_token(t)] for t in np.asarray(tokens.numpy()).reshape(-1)])
        self._lookup_layer.adapt(_Rows(rows))

    def call(self, inputs):
        tokens = self._tokens(inputs)
        ids = self._lookup_layer.call(tokens)
        if self.output_mode != "int":
            return ids
        if not isinstance(ids, tf.RaggedTensor):
            return ids
        if self.ragged:
            return ids
        if self.output_sequence_length is not None:
            return ids.to_tensor(shape=[None, self.output_sequence_length])
        return ids.to_tensor()

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return (input_shape[0], self.output_sequence_length)
        return (input_shape[0], self._lookup_layer.vocabulary_size())


__all__ = ["IntegerLookup", "StringLookup", "TextVectorization"]
