"""``tf.experimental.ExtensionType``: user-defined composite tensors, declared as a class whose
type annotations are its fields (TensorFlow's ``extension_type.py``).

A subclass gets a constructor from its fields (or keeps its own, which may set them), converts
and checks each value against its annotation with TensorFlow's messages, runs ``__validate__``,
and is immutable afterwards. Its ``Spec`` (a nested ``ExtensionTypeSpec`` subclass) is its type:
the specs of its tensor fields and the values of its Python ones. It splits into its tensors
(``_nest_components``, the protocol ``tf.nest``'s ``expand_composites`` and ``tf.function`` use)
and is rebuilt from them without running its constructor again.
"""

from __future__ import annotations

import collections.abc
import inspect
import typing

from ..ops.declare import API
from ..ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..ops.sparse.sparse_ops import SparseTensorSpec
from ..ops.sparse.sparse_tensor import SparseTensor
from ..polymorphic_function.function import TensorSpec
from ..runtime import dtypes
from ..runtime.tensor import Tensor
from ..runtime.tensor_shape import TensorShape
from ..runtime.values import convert_to_tensor
from .type_spec import TypeSpec

_MISSING = inspect.Parameter.empty
_CONSTRUCTING = "_tf_extension_type_constructing"


class ImmutableDict(collections.abc.Mapping):
    """A ``typing.Mapping`` field's value: read-only, shown as TensorFlow shows it."""

    def __init__(self, items):
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return f"ImmutableDict({self._items!r})"


def _type_name(annotation) -> str:
    return repr(getattr(annotation, "__name__", annotation))


def _unsupported(annotation) -> TypeError:
    return TypeError(f"Unsupported type annotation {getattr(annotation, '__name__', annotation)!r}")


def _check_annotation(annotation) -> None:
    """TensorFlow's check of a field's annotation, when the class is defined."""
    origin = typing.get_origin(annotation)
    if origin is not None:
        if origin not in (typing.Union, tuple, collections.abc.Mapping, dict, list):
            raise _unsupported(annotation)
        for arg in typing.get_args(annotation):
            if arg is not Ellipsis:
                _check_annotation(arg)
        return
    if annotation in (int, float, str, bool, bytes, type(None), None, Tensor, TensorShape, dtypes.DType,
                      RaggedTensor, SparseTensor, typing.Any):
        return
    if isinstance(annotation, type) and issubclass(annotation, ExtensionType):
        return
    if isinstance(annotation, (str, typing.ForwardRef)):
        return
    raise _unsupported(annotation)


def _convert(value, annotation, path: str, for_spec: bool = False):
    """``value`` as a field of type ``annotation`` (``for_spec``: a spec's field, where tensors are
    their specs); a ``TypeError`` naming the field's path when it is not one."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        for option in typing.get_args(annotation):
            try:
                return _convert(value, option, path, for_spec)
            except (TypeError, ValueError):
                continue
        raise TypeError(f"{path}: expected {annotation}, got {type(value).__name__!r}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{path}: expected 'tuple', got {type(value).__name__!r}")
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{path}[{i}]", for_spec) for i, v in enumerate(value))
        if len(args) != len(value):
            raise TypeError(f"{path}: expected a tuple of length {len(args)}, got {len(value)}")
        return tuple(_convert(v, a, f"{path}[{i}]", for_spec) for i, (v, a) in enumerate(zip(value, args)))
    if origin in (collections.abc.Mapping, dict):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{path}: expected 'Mapping', got {type(value).__name__!r}")
        key_type, value_type = typing.get_args(annotation) or (typing.Any, typing.Any)
        return ImmutableDict((_convert(k, key_type, f"{path}", for_spec),
                              _convert(v, value_type, f"{path}[{k!r}]", for_spec)) for k, v in value.items())
    if annotation is typing.Any:
        return value
    if annotation in (None, type(None)):
        if value is not None:
            raise TypeError(f"{path}: expected None, got {type(value).__name__!r}")
        return None
    if annotation is Tensor:
        if for_spec:
            if not isinstance(value, TensorSpec):
                raise TypeError(f"{path}: expected a TensorSpec, got {type(value).__name__!r}")
            return value
        if isinstance(value, (RaggedTensor, SparseTensor, ExtensionType)):
            raise TypeError(f"{path}: expected 'Tensor', got {type(value).__name__!r}")
        try:
            return convert_to_tensor(value)
        except (ValueError, TypeError) as e:
            raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}") from e
    if annotation is TensorShape:
        return value if isinstance(value, TensorShape) else TensorShape(value)
    if annotation is dtypes.DType:
        return dtypes.as_dtype(value)
    if annotation in (RaggedTensor, SparseTensor) or isinstance(annotation, type) and issubclass(annotation,
                                                                                                 ExtensionType):
        if for_spec:
            spec_type = {RaggedTensor: RaggedTensorSpec, SparseTensor: SparseTensorSpec}.get(
                annotation, getattr(annotation, "Spec", None))
            if not isinstance(value, spec_type):
                raise TypeError(f"{path}: expected a {spec_type.__name__}, got {type(value).__name__!r}")
            return value
        if not isinstance(value, annotation):
            raise TypeError(f"{path}: expected {_type_name(annotation)}, got {type(value).__name__!r}")
        return value
    if isinstance(annotation, type):
        if not isinstance(value, annotation):
            raise TypeError(f"{path}: expected {_type_name(annotation)}, got {type(value).__name__!r}")
        return value
    return value


def _unresolved(annotation) -> bool:
    """An annotation naming a class by a string not resolved yet (itself, one defined later)."""
    return isinstance(annotation, (str, typing.ForwardRef)) or any(_unresolved(a) for a in typing.get_args(annotation))


def _fields(cls, strict: bool = False) -> dict:
    """``{name: (annotation, default)}`` of an ExtensionType subclass, base classes' first."""
    out = {}
    for klass in reversed(cls.__mro__):
        if vars(klass).get("_tf_extension_type_base") or not issubclass(klass, ExtensionType):
            continue
        try:
            hints = typing.get_type_hints(klass) if "__annotations__" in vars(klass) else {}
        except NameError:  # a forward reference (the class itself, one defined later): resolved on first use
            if strict:
                raise
            hints = {}
        for name in vars(klass).get("__annotations__", {}):
            if name.startswith("__") or typing.get_origin(hints.get(name)) is typing.ClassVar:
                continue
            annotation = hints.get(name, klass.__annotations__[name])
            default = vars(klass).get(name, _MISSING)
            out[name] = (annotation, default)
    return out


def _is_component(value) -> bool:
    return isinstance(value, Tensor) or hasattr(type(value), "_nest_components")


def _leaves(value) -> list:
    """The tensors and composites in a field's value (through tuples and mappings)."""
    if isinstance(value, collections.abc.Mapping):
        return [x for k in sorted(value) for x in _leaves(value[k])]
    if isinstance(value, tuple):
        return [x for v in value for x in _leaves(v)]
    return [value] if _is_component(value) else []


def _replace(value, it):
    """A field's value with its tensors and composites taken from ``it``, in ``_leaves``'s order."""
    if isinstance(value, collections.abc.Mapping):
        new = {k: _replace(value[k], it) for k in sorted(value)}
        return ImmutableDict((k, new[k]) for k in value)
    if isinstance(value, tuple) and not isinstance(value, TensorShape):  # a shape stays a TensorShape
        return tuple(_replace(v, it) for v in value)
    return next(it) if _is_component(value) else value


def _is_spec_leaf(spec) -> bool:
    return isinstance(spec, (TensorSpec, ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec))


def _leaves_of_spec(spec) -> list:
    if isinstance(spec, collections.abc.Mapping):
        return [x for k in sorted(spec) for x in _leaves_of_spec(spec[k])]
    if isinstance(spec, tuple):
        return [x for v in spec for x in _leaves_of_spec(v)]
    if isinstance(spec, (RaggedTensorSpec, SparseTensorSpec)):
        raise NotImplementedError("devtrace does not implement a RaggedTensor or SparseTensor field of an extension "
                                  "type passed to a tf.function yet")
    return [spec] if _is_spec_leaf(spec) else []


def _fill(spec, it):
    """A field's value from its spec, its tensors taken from ``it``."""
    if isinstance(spec, collections.abc.Mapping):
        new = {k: _fill(spec[k], it) for k in sorted(spec)}
        return ImmutableDict((k, new[k]) for k in spec)
    if isinstance(spec, tuple):
        return tuple(_fill(v, it) for v in spec)
    if isinstance(spec, ExtensionTypeSpec):
        return spec._from_flat(it)
    return next(it) if isinstance(spec, TensorSpec) else spec


def _spec_of(value):
    """The spec of a field's value (Python values are their own)."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)  # an unknown rank too
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec(value.shape, value.dtype, value.ragged_rank, value.row_splits.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    if isinstance(value, ExtensionType):
        return value._type_spec
    if isinstance(value, collections.abc.Mapping):
        return ImmutableDict((k, _spec_of(v)) for k, v in value.items())
    if isinstance(value, tuple) and not isinstance(value, TensorShape):
        return tuple(_spec_of(v) for v in value)
    return value


def _spec_key(spec):
    """A hashable key for a field's spec."""
    if isinstance(spec, TensorSpec):
        return ("T", spec._key())
    if isinstance(spec, RaggedTensorSpec):
        return ("R", tuple(spec.shape) if spec.shape.rank is not None else None, spec.dtype.name, spec.ragged_rank,
                spec.row_splits_dtype.name)
    if isinstance(spec, SparseTensorSpec):
        return ("S", tuple(spec.shape) if spec.shape.rank is not None else None, spec.dtype.name)
    if isinstance(spec, ExtensionTypeSpec):
        return spec._key()
    if isinstance(spec, collections.abc.Mapping):
        return ("M", tuple((k, _spec_key(spec[k])) for k in sorted(spec)))
    if isinstance(spec, tuple):
        return ("U", tuple(_spec_key(s) for s in spec))
    if isinstance(spec, TensorShape):
        return ("H", tuple(spec) if spec.rank is not None else None)
    try:
        hash(spec)
    except TypeError:
        return ("id", id(spec))
    return ("P", type(spec).__name__, spec)


class ExtensionType:
    """``tf.experimental.ExtensionType``: subclass it with annotated fields."""

    _tf_extension_type_fields_cache: dict = {}
    _tf_extension_type_base = True  # (this class and BatchableExtensionType: bases, not types of values)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if vars(cls).get("_tf_extension_type_base"):
            return
        for name, (annotation, default) in _fields(cls).items():
            try:
                _check_annotation(annotation)
            except TypeError as e:
                raise TypeError(f"In field {name!r}: {e}") from e
            if default is not _MISSING:
                try:
                    _convert(default, annotation, name)
                except TypeError as e:
                    raise TypeError(f"default value for {e}") from None
        cls._tf_extension_type_fields_cache = _fields(cls)
        for name in cls._tf_extension_type_fields_cache:  # the defaults live in the fields, not the class
            if name in vars(cls):
                delattr(cls, name)
        if "__init__" in vars(cls):
            cls.__init__ = _wrap_init(vars(cls)["__init__"])
        else:
            cls.__init__ = _generated_init(cls)
        user = vars(cls).get("Spec")
        if user is None or not issubclass(user, ExtensionTypeSpec):
            base = next((b.Spec for b in cls.__mro__[1:] if "Spec" in vars(b) and b is not ExtensionType),
                        BatchableExtensionTypeSpec if issubclass(cls, BatchableExtensionType) else ExtensionTypeSpec)
            body = {"__qualname__": f"{cls.__qualname__}.Spec", "__module__": cls.__module__}
            if user is not None:  # the class's own ``Spec`` (methods, a constructor): its body on the real one
                body.update({k: v for k, v in vars(user).items() if k not in ("__dict__", "__weakref__", "__qualname__")})
                if "__init__" in body:
                    body["__init__"] = _wrap_init(body["__init__"], check=False)
            cls.Spec = type(f"{cls.__name__}.Spec", (base,), body)
        cls.Spec.value_type = cls
        cls.__hash__ = None

    @classmethod
    def _tf_extension_type_fields(cls) -> dict:
        fields = cls._tf_extension_type_fields_cache
        if any(_unresolved(a) for a, _ in fields.values()):
            try:  # (the defaults left the class when it was made: they are kept from the first reading)
                fields = cls._tf_extension_type_fields_cache = {
                    name: (annotation, fields[name][1]) for name, (annotation, _) in _fields(cls, strict=True).items()}
            except NameError:
                pass
        return fields

    def _tf_extension_type_finish(self) -> None:
        """After a constructor: every field set, converted, then ``__validate__``."""
        fields = type(self)._tf_extension_type_fields()
        missing = {n for n, (_, default) in fields.items() if n not in self.__dict__ and default is _MISSING}
        if missing:
            raise ValueError(f"Missing required fields: {missing}")
        for name, (annotation, default) in fields.items():
            value = self.__dict__.get(name, default)
            object.__setattr__(self, name, _convert(value, annotation, name))
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()

    def __setattr__(self, name, value):
        if self.__dict__.get(_CONSTRUCTING):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __delattr__(self, name):
        if self.__dict__.get(_CONSTRUCTING):
            object.__delattr__(self, name)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def __repr__(self):
        fields = ", ".join(f"{n}={self.__dict__[n]!r}" for n in type(self)._tf_extension_type_fields())
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        """TensorFlow's: ``False`` for another type or spec, else a boolean tensor (all equal)."""
        if type(other) is not type(self):
            return False
        if self._type_spec._key() != other._type_spec._key():
            return False
        mine, theirs = self._nest_flat(), other._nest_flat()
        result = API["constant"](True)
        for a, b in zip(mine, theirs):
            result = API["math.logical_and"](result, API["math.reduce_all"](API["math.equal"](a, b)))
        return result

    def __ne__(self, other):
        equal = self.__eq__(other)
        return not equal if isinstance(equal, bool) else API["math.logical_not"](equal)

    @property
    def _type_spec(self):
        spec = type(self).Spec.__new__(type(self).Spec)
        for name in type(self)._tf_extension_type_fields():
            object.__setattr__(spec, name, _spec_of(self.__dict__[name]))
        return spec

    def _nest_components(self) -> list:
        return [x for name in type(self)._tf_extension_type_fields() for x in _leaves(self.__dict__[name])]

    def _nest_rebuild(self, parts: list):
        it = iter(parts)
        out = object.__new__(type(self))
        for name in type(self)._tf_extension_type_fields():
            object.__setattr__(out, name, _replace(self.__dict__[name], it))
        return out

    def _nest_flat(self) -> list:
        """Every tensor inside, composites expanded."""
        out = []
        for part in self._nest_components():
            out.extend(part._nest_flat() if isinstance(part, ExtensionType) else
                       part._nest_components() if hasattr(type(part), "_nest_components") else [part])
        return out


def _generated_init(cls):
    """The constructor of a class without its own: its fields are its parameters."""
    parameters = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    default=default)
                  for n, (_, default) in cls._tf_extension_type_fields().items()]
    parameters.sort(key=lambda p: p.default is not _MISSING)  # Python's rule: defaults last
    signature = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + parameters)

    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        object.__setattr__(self, _CONSTRUCTING, True)
        try:
            for name, value in list(bound.arguments.items())[1:]:
                object.__setattr__(self, name, value)
        finally:
            object.__delattr__(self, _CONSTRUCTING)
        self._tf_extension_type_finish()

    __init__.__signature__ = signature
    return __init__


def _wrap_init(init, check=True):
    """A class's own constructor: it may set the fields; they are checked when it returns (not a
    ``Spec``'s: ``check=False``)."""
    def __init__(self, *args, **kwargs):
        object.__setattr__(self, _CONSTRUCTING, True)
        try:
            init(self, *args, **kwargs)
        finally:
            object.__delattr__(self, _CONSTRUCTING)
        if check:
            self._tf_extension_type_finish()

    __init__.__wrapped__ = init
    return __init__


class ExtensionTypeSpec(TypeSpec):
    """``tf.experimental.ExtensionTypeSpec``: an extension type's ``Spec``, its fields' specs."""

    value_type = None

    def __init__(self, *args, **kwargs):
        fields = self.value_type._tf_extension_type_fields()
        parameters = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
                      for n, (_, d) in fields.items()]
        parameters.sort(key=lambda p: p.default is not _MISSING)
        bound = inspect.Signature(parameters).bind(*args, **kwargs)
        bound.apply_defaults()
        for name, (annotation, _) in fields.items():
            object.__setattr__(self, name, _convert(bound.arguments[name], annotation, name, for_spec=True))

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def _flat_specs(self) -> list:
        """The TensorSpecs of a value's tensors (``_nest_flat``'s order)."""
        out = []
        for name in self.value_type._tf_extension_type_fields():
            for spec in _leaves_of_spec(self.__dict__[name]):
                out.extend(spec._flat_specs() if isinstance(spec, ExtensionTypeSpec) else [spec])
        return out

    def _from_flat(self, tensors):
        """A value of this spec holding ``tensors`` (``_nest_flat``'s order)."""
        it = iter(tensors)
        out = object.__new__(self.value_type)
        for name in self.value_type._tf_extension_type_fields():
            object.__setattr__(out, name, _fill(self.__dict__[name], it))
        return out

    def _key(self):
        return (self.value_type, tuple((n, _spec_key(self.__dict__[n]))
                                       for n in self.value_type._tf_extension_type_fields()))

    def __eq__(self, other):
        return isinstance(other, ExtensionTypeSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __setattr__(self, name, value):
        if self.__dict__.get(_CONSTRUCTING):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionTypeSpec.")

    def __repr__(self):
        fields = ", ".join(f"{n}={self.__dict__[n]!r}" for n in self.value_type._tf_extension_type_fields())
        return f"{self.value_type.__name__}.Spec({fields})"

    def is_compatible_with(self, spec_or_value) -> bool:
        other = spec_or_value._type_spec if isinstance(spec_or_value, ExtensionType) else spec_or_value
        if not isinstance(other, ExtensionTypeSpec) or other.value_type is not self.value_type:
            return False
        return all(_compatible(self.__dict__[n], other.__dict__[n]) for n in self.value_type._tf_extension_type_fields())


def _compatible(a, b) -> bool:
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        return a.dtype is b.dtype and TensorShape(a._dims()).is_compatible_with(TensorShape(b._dims()))
    if isinstance(a, ExtensionTypeSpec):
        return a.is_compatible_with(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))
    return _spec_key(a) == _spec_key(b)


def _batch_spec(spec, size):
    if isinstance(spec, TensorSpec):
        dims = spec._dims()
        return TensorSpec(None if dims is None else (size,) + dims, spec.dtype)
    if isinstance(spec, ExtensionTypeSpec):
        return spec._batch(size)
    if isinstance(spec, TensorShape):  # a shape field: the batch's dimension first
        return spec if spec.rank is None else TensorShape([size] + spec.as_list())
    if isinstance(spec, tuple):
        return tuple(_batch_spec(s, size) for s in spec)
    if isinstance(spec, collections.abc.Mapping):
        return ImmutableDict((k, _batch_spec(v, size)) for k, v in spec.items())
    return spec


def _unbatch_spec(spec):
    if isinstance(spec, TensorSpec):
        dims = spec._dims()
        return TensorSpec(None if dims is None else dims[1:], spec.dtype)
    if isinstance(spec, ExtensionTypeSpec):
        return spec._unbatch()
    if isinstance(spec, TensorShape):
        return spec if spec.rank is None else TensorShape(spec.as_list()[1:])
    if isinstance(spec, tuple):
        return tuple(_unbatch_spec(s) for s in spec)
    if isinstance(spec, collections.abc.Mapping):
        return ImmutableDict((k, _unbatch_spec(v)) for k, v in spec.items())
    return spec


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The ``Spec`` of a ``BatchableExtensionType``: batched and unbatched field by field."""

    def _with_fields(self, fn):
        out = type(self).__new__(type(self))
        for name in self.value_type._tf_extension_type_fields():
            object.__setattr__(out, name, fn(self.__dict__[name]))
        return out

    def _batch(self, batch_size):
        return self._with_fields(lambda s: _batch_spec(s, batch_size))

    def _unbatch(self):
        return self._with_fields(_unbatch_spec)


class BatchableExtensionType(ExtensionType):
    """``tf.experimental.BatchableExtensionType``: an extension type whose values batch and
    unbatch along their tensors' first dimension (``tf.data``, ``tf.map_fn``)."""

    _tf_extension_type_base = True

    def _unbatched(self) -> list:
        """The values along the first dimension of its tensors (a ``TensorShape`` field loses its first dimension)."""
        parts = self._nest_components()
        n = None
        for part in parts:
            size = part.shape[0] if isinstance(part, Tensor) else len(part._unbatched())
            n = size if n is None else n
        return [self._with_shapes(self._nest_rebuild([p[i] if isinstance(p, Tensor) else p._unbatched()[i]
                                                      for p in parts]), lambda dims: dims[1:])
                for i in range(n or 0)]

    @classmethod
    def _stacked(cls, values: list):
        """One value of the values stacked along a new first dimension (``tf.map_fn``'s results), as the
        default batch encoder batches: tensors stacked, a ``TensorShape`` field given the new dimension."""
        columns = zip(*[v._nest_components() for v in values])
        parts = [API["stack"](list(col)) if isinstance(col[0], Tensor) else type(col[0])._stacked(list(col))
                 for col in columns]
        return cls._with_shapes(values[0]._nest_rebuild(parts), lambda dims: [len(values)] + dims)

    @staticmethod
    def _with_shapes(value, change):
        for name in type(value)._tf_extension_type_fields():
            field = value.__dict__[name]
            if isinstance(field, TensorShape) and field.rank is not None:
                object.__setattr__(value, name, TensorShape(change(list(field.as_list()))))
        return value


class ExtensionTypeBatchEncoder:
    """``tf.experimental.ExtensionTypeBatchEncoder``: how a ``BatchableExtensionType`` batches
    (devtrace batches field by field, the default encoder's way)."""

    def batch(self, spec, batch_size):
        return spec._batch(batch_size)

    def unbatch(self, spec):
        return spec._unbatch()


def as_dict(value) -> dict:
    """``tf.experimental.extension_type.as_dict``: the fields of an extension type value."""
    return {name: value.__dict__[name] for name in type(value)._tf_extension_type_fields()}
