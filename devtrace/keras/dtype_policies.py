"""``keras.dtype_policies``: ``DTypePolicy`` (a name, its compute and variable dtypes),
``DTypePolicyMap`` (policies by layer path: an exact key, else the one key that fully matches as a
regular expression), ``get``, and the global policy (``keras.config.set_dtype_policy`` /
``keras.mixed_precision.set_global_policy``): a layer made with no ``dtype=`` takes the global
policy as it is then (``mixed_float16``: float16 computations, float32 variables)."""

from __future__ import annotations

import collections.abc
import re

from devtrace.util.namespace import missing as _missing

from . import config as _config


def _standard(name):
    """Keras's ``standardize_dtype`` of a policy's name (``int``: int64, ``float``: floatx), or None."""
    import devtrace as tf

    if name == "int":
        return "int64"
    if name == "float":
        return _config.floatx()
    try:
        return tf.as_dtype(name).name
    except TypeError:
        return None


class DTypePolicy:
    def __init__(self, name=None):
        name = _config.dtype_policy().name if name is None else name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)

    @staticmethod
    def _parse_name(name):
        if name == "mixed_float16":
            return "float16", "float32"
        if name == "mixed_bfloat16":
            return "bfloat16", "float32"
        dtype = _standard(name)
        if dtype is not None:
            return dtype, dtype
        raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                         "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as 'float32'.")

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        return self._compute_dtype

    @property
    def variable_dtype(self):
        return self._variable_dtype

    @property
    def quantization_mode(self):
        return None

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return type(other) is type(self) and other.name == self.name

    def __hash__(self):
        return hash((type(self), self.name))

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


FloatDTypePolicy = DTypePolicy


class DTypePolicyMap(DTypePolicy, collections.abc.MutableMapping):
    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(f"If specified, `policy_map` must be a dict. Received: policy_map={policy_map} of type "
                            f"{type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = get(default_policy) if default_policy is not None else DTypePolicy()
        self._policy_map = dict(policy_map or {})

    @property
    def name(self):
        return "map_" + self.default_policy._name

    @property
    def default_policy(self):
        return self._default_policy

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    def __getitem__(self, key):
        if key in self._policy_map:
            return self._policy_map[key]
        matching = [pattern for pattern in self._policy_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Path '{key}' matches multiple dtype policy specification keys: {matching}. Please "
                             "make sure each path only matches at most one dtype policy specification key in the "
                             "DTypePolicyMap.")
        if matching:
            return self._policy_map[matching[0]]
        return self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(f"The layer path='{key}' already exists in the DTypePolicyMap. If you want to update "
                             "the existing policy, you must first delete it.")
        self._policy_map[key] = get(policy)

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __iter__(self):
        return iter(self._policy_map)

    def __len__(self):
        return len(self._policy_map)

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__

    def __repr__(self):
        default = (f'<DTypePolicyMap default_policy="{self.default_policy._name}", '
                   f"mapping={list(self._policy_map.items())}>")
        return default


_config.register_policy_class(DTypePolicy)


def get(identifier):
    """A policy for a name, a config dict (``{"class_name": "DTypePolicy", "config": {...}}``) or a
    policy; ``None``: the global policy."""
    if identifier is None:
        return _config.dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return {"DTypePolicy": DTypePolicy, "FloatDTypePolicy": DTypePolicy,
                "DTypePolicyMap": DTypePolicyMap}[identifier["class_name"]](**identifier["config"])
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(getattr(identifier, "name"))
    except AttributeError:
        raise ValueError(f"Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


__all__ = ["DTypePolicy", "DTypePolicyMap", "FloatDTypePolicy", "get"]
__getattr__ = _missing("keras.dtype_policies")
