"""Resource variables: ``VarHandleOp`` places the variable, and every op on it runs there."""

from __future__ import annotations

import enum
import itertools

from ...util import namespace as _namespace
from .. import context as _context_mod
from .. import weak as _weak
from ..tensor import Tensor
from ..values import convert_to_tensor
from .executor import execute
from .tape import variable_accessed

_uids = itertools.count()


def _weak_operand(dtype, value, method):
    """The operand of a variable's ``assign*`` under an auto dtype conversion mode: converted to the
    variable's immutable dtype when the lattice promotes the pair to it, else TensorFlow's TypeError."""
    promoted, _ = _weak.promote(dtype, value)
    if promoted is None:
        return convert_to_tensor(value, dtype=dtype)
    if promoted is not dtype:
        text = f"{value.numpy() if isinstance(value, Tensor) else value}"
        if type(value) is _weak.WeakTensor:
            text += " weakly typed"
        target = f"<dtype: '{dtype.name}'>"
        raise TypeError(f"Variable dtype is immutable. Calling {method} of Variable (with dtype {target}) on {text} "
                        f"requires converting {text} to {target}. This is disabled in the current promotion "
                        f"semantics. Please convert {text} manually before calling {method}.")
    if not isinstance(value, Tensor):
        return convert_to_tensor(value, dtype=dtype)
    return value if value.dtype is dtype else execute("Cast", (value,), {"DstT": dtype.name})


class VariableSynchronization(enum.Enum):
    """``tf.VariableSynchronization``."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregationV2(enum.Enum):
    """``tf.VariableAggregation`` (TensorFlow 2's)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


class VariableAggregation(enum.Enum):
    """``tf.compat.v1.VariableAggregation``: what a variable reports when given none."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3
_creators: list = []  # variable_creator_scope stack (MirroredStrategy.scope() pushes one)


class VariableMetaclass(type):
    """TensorFlow's hook: inside a creator scope, ``Variable(...)`` goes to the innermost
    creator, which may build something else (a ``MirroredVariable``). The creator is off the
    stack while it runs, so the ``Variable(...)`` calls it makes create plain variables."""

    def __call__(cls, *args, **kwargs):
        if cls is Variable and not _context_mod.context().eager:
            builder = _context_mod.context().graph_builder
            if builder is not None and builder.variable is not None and builder.host_inputs():  # a TF1 graph
                return builder.variable(*args, **kwargs)
        if cls is Variable and not _creators:  # tf.Variable(...) makes a ResourceVariable, as TensorFlow's
            return type.__call__(ResourceVariable, *args, **kwargs)
        if cls is not Variable:
            return super().__call__(*args, **kwargs)
        creator = _creators.pop()
        try:
            return creator(*args, **kwargs)
        finally:
            _creators.append(creator)


class Variable(metaclass=VariableMetaclass):
    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None, name=None,
                 variable_def=None, dtype=None, import_scope=None, constraint=None, synchronization=None,
                 aggregation=None, shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when you are not "
                             "providing a `variable_def`. You provided neither.")
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype=dtype)
        self._constraint = constraint
        self._synchronization = synchronization or VariableSynchronization.AUTO
        self._aggregation = aggregation or VariableAggregation.NONE
        self._declared = None if shape is None else _declared_shape(value, shape)
        self._name = f"{_context_mod.context().name_scope}{name or 'Variable'}:0"
        # debug_name: the name TensorFlow 2.21 gives VarHandleOp (part of its one-op function's signature)
        self._handle = execute("VarHandleOp", (), {"shape": list(value.shape), "debug_name": self._name[:-2]},
                               dtype=value._dtype, name=name)
        self._handle.variable = self
        self._dtype = value._dtype
        self._value: Tensor | None = None
        self.trainable = True if trainable is None else trainable
        self._assign("AssignVariableOp", (value,))

    def _assign(self, op, inputs):
        out = execute(op, inputs, resource=self._handle, dtype=self._dtype)
        if out._device is not None:  # eager; in a function graph the node assigns when it runs
            self._value = out
        return self

    def _lazy_read(self):
        """What an assignment returns: TensorFlow's ``_UnreadVariable``, the same variable under
        the name ``UnreadVariable``, read when used."""
        return _UnreadVariable(self)

    def ref(self):
        """A hashable reference to the variable (``Variable.ref``); ``deref()`` gives it back."""
        from ..tensor import Reference

        return Reference(self)

    experimental_ref = ref
    handle = property(lambda self: self._handle)

    constraint = property(lambda self: self._constraint)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)

    @property
    def initial_value(self):
        if _context_mod.context().eager:
            raise RuntimeError("This property is not supported when eager execution is enabled.")
        return self._value

    op = property(lambda self: _eager_undefined("op"))
    graph = property(lambda self: _eager_undefined("graph"))

    def __iter__(self):
        return iter(self._read())

    @property
    def name(self):
        return self._name

    @property
    def device(self) -> str:
        return self._handle.device.name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._value.shape if self._declared is None else self._declared

    def get_shape(self):
        return self.shape

    def _local(self) -> "Variable":
        """The copy the running code uses (a distributed variable's: the replica's)."""
        return self

    def value(self) -> Tensor:
        """The variable's value: one ``ReadVariableOp`` on its device (what operators use)."""
        ctx = _context_mod._context
        if ctx is not None and ctx.tapes:
            variable_accessed(ctx, self)
        return execute("ReadVariableOp", (self._value,), resource=self._handle, dtype=self._dtype)

    def read_value(self) -> Tensor:
        """``ReadVariableOp`` on the variable's device, then an ``Identity`` placed as any op
        (the current scope, else the default device), as TensorFlow's ``read_value`` (in a graph, the
        read is ``Read/ReadVariableOp``)."""
        ctx = _context_mod.context()
        if ctx.eager:
            return execute("Identity", (self.value(),))
        with ctx.graph_builder.name_scope("Read"):
            value = self.value()
        return execute("Identity", (value,))

    def numpy(self):
        return self._value.numpy()

    def assign(self, value, read_value=True):
        if _weak.MODE is not None:
            value = _weak_operand(self._dtype, value, "assign")
        value = convert_to_tensor(value, dtype=self._dtype)
        if not self.shape.is_compatible_with(value.shape):
            raise ValueError(f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable shape "
                             f"{self.shape}, and the assigned value shape {value.shape} are incompatible.")
        out = self._assign("AssignVariableOp", (value,))
        return out._lazy_read() if read_value else None

    def assign_add(self, delta, read_value=True):
        if _weak.MODE is not None:
            delta = _weak_operand(self._dtype, delta, "assign_add")
        delta = convert_to_tensor(delta, dtype=self._dtype)
        out = self._assign("AssignAddVariableOp", (self._value, delta))
        return out._lazy_read() if read_value else None

    def assign_sub(self, delta, read_value=True):
        if _weak.MODE is not None:
            delta = _weak_operand(self._dtype, delta, "assign_sub")
        delta = convert_to_tensor(delta, dtype=self._dtype)
        out = self._assign("AssignSubVariableOp", (self._value, delta))
        return out._lazy_read() if read_value else None

    def __tf_tensor__(self, dtype=None, name=None) -> Tensor:
        """TensorFlow's conversion protocol: a variable used as a tensor is read."""
        return self.value()

    def __repr__(self):
        """Eagerly, printing reads the variable (``read_value``: its ops are logged), as TensorFlow's."""
        value = self.read_value() if _context_mod.context().eager else self._value
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self._dtype.name}, "
                f"numpy={value._numpy_text(True)}>")

    def __hash__(self):
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. (Variable: {self!r})")

    # Operators read the variable first (ReadVariableOp), then act as the tensor's, as TensorFlow's do.
    def _read(self):
        return self.value()


def _forward(name):
    def method(self, *args, **kwargs):
        return getattr(self._read(), name)(*args, **kwargs)
    method.__name__ = name
    return method


for _name in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor"):
    setattr(Variable, f"__{_name}__", _forward(f"__{_name}__"))
    setattr(Variable, f"__r{_name}__", _forward(f"__r{_name}__"))
for _name in ("lt", "le", "gt", "ge", "neg", "abs", "invert", "float", "int", "bool", "index", "array"):
    setattr(Variable, f"__{_name}__", _forward(f"__{_name}__"))
Variable.__eq__ = lambda self, other: self is other if other is None else self._read() == other
Variable.__ne__ = lambda self, other: self is not other if other is None else self._read() != other


_namespace.install_lacking(Variable, "Variable")


class ResourceVariable(Variable):
    """What ``tf.Variable(...)`` makes eagerly (TensorFlow's ``ResourceVariable``)."""


def _eager_undefined(what):
    if _context_mod.context().eager:
        raise AttributeError(f"Tensor.{what} is undefined when eager execution is enabled.")
    raise NotImplementedError(f"devtrace does not implement Variable.{what} in a graph yet")


class _UnreadVariable(Variable):
    """An assignment's result: the assigned variable itself (its state, its handle), named
    ``UnreadVariable``; reading or assigning it reads or assigns the variable."""

    def __init__(self, variable):  # noqa: super().__init__ would create a variable
        object.__setattr__(self, "_parent", variable)

    def __getattr__(self, attr):
        return getattr(self._parent, attr)

    def __setattr__(self, attr, value):
        setattr(self._parent, attr, value)

    @property
    def name(self):
        return "UnreadVariable"

    def _assign(self, op, inputs):
        return self._parent._assign(op, inputs)

    def _lazy_read(self):
        return self._parent._lazy_read()

    def read_value(self) -> Tensor:
        return self._parent.read_value()

    def value(self) -> Tensor:
        return self._parent.value()

    def ref(self):
        return self._parent.ref()


def _declared_shape(value, shape):
    """``Variable(shape=...)``: the shape the variable keeps (``None`` dims take any size)."""
    from ..tensor_shape import TensorShape

    declared = TensorShape(shape)
    if not declared.is_compatible_with(value.shape):
        raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({value.shape}) is not "
                         f"compatible with the explicitly supplied `shape` argument ({shape}).")
    return declared
