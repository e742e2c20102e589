"""Type-based dispatch: ``tf.experimental.dispatch_for_api`` and the elementwise dispatchers.

Registering a dispatch target for an API replaces the public function, wherever the ``tf``
surface keeps it, by one that checks its arguments against the registered type signatures
before running the API itself: APIs nobody dispatches keep their own function (and its cost).
A signature matches when every annotated parameter's value has its type (``typing.List[X]``:
a list of them, ``typing.Union``/``Optional``: one of them) and at least one of them holds a
composite (an extension type, a RaggedTensor, a SparseTensor), as TensorFlow's rule goes.
"""

from __future__ import annotations

import collections
import functools
import inspect
import typing

from .. import hooks
from ..generated import dispatch_apis
from ..ops.declare import API
from ..util import namespace

_DISPATCHERS: dict = {}  # the wrapper of an API → its _Dispatcher
_ELEMENTWISE_HANDLERS: dict = {}  # (types…) → handler
_ELEMENTWISE_TARGETS: dict = collections.defaultdict(list)  # (types…) → [(api, target)]


class _Dispatcher:
    def __init__(self, api):
        self.api = api
        self.signature = inspect.signature(api)
        self.targets = _Targets()  # (checker, target, the function registered)

    def __call__(self, *args, **kwargs):
        if self.targets and (any(map(_composite, args)) or any(map(_composite, kwargs.values()))):
            try:
                bound = self.signature.bind(*args, **kwargs).arguments
            except TypeError:
                bound = None
            if bound is not None:
                for checker, target in self.targets:
                    if checker(bound):
                        return target(*args, **kwargs)
        return self.api(*args, **kwargs)


def _composite(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_composite(v) for v in value)
    return hasattr(type(value), "_nest_components")


def _type_checker(annotation):
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        options = [_type_checker(a) for a in typing.get_args(annotation)]
        return lambda v: any(check(v) for check in options)
    if origin is list:
        args = typing.get_args(annotation)
        if len(args) != 1:
            raise AssertionError("Expected List[...] to have a single type parameter")
        element = _type_checker(args[0])
        return lambda v: isinstance(v, (list, tuple)) and all(element(x) for x in v)
    if annotation is None:
        return lambda v: v is None
    if isinstance(annotation, type):
        return lambda v: isinstance(v, annotation)
    raise ValueError(f"Type annotation {annotation} is not currently supported by dispatch.  Supported annotations: "
                     f"type objects,  List[...], and Union[...]")


def _signature_checker(api_signature, signature):
    if not (isinstance(signature, dict) and all(isinstance(k, (str, int)) for k in signature)):
        raise TypeError("signatures must be dictionaries mapping parameter names to type annotations.")
    params = list(api_signature.parameters.values())
    checks = []
    for name, annotation in signature.items():
        if isinstance(name, int) and name < len(params):
            name = params[name].name
        param = api_signature.parameters.get(name)
        if param is None:
            raise ValueError(f"signature includes annotation for unknown parameter {name!r}.")
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            raise ValueError(f"Dispatch currently only supports type annotations for positional parameters; can't "
                             f"handle annotation for {param.kind!r} parameter {name}.")
        checks.append((name, _type_checker(annotation)))

    def check(bound) -> bool:
        values = [bound.get(name) for name, _ in checks]
        return all(c(v) for (_, c), v in zip(checks, values)) and any(_composite(v) for v in values)
    return check


def _signature_from_annotations(func) -> dict:
    try:  # annotations written as strings (``from __future__ import annotations``) resolved
        hints = typing.get_type_hints(func)
    except Exception:  # noqa: BLE001 (a name it cannot resolve: the annotations as written)
        hints = {}
    signature = {name: hints.get(name, p.annotation) for name, p in inspect.signature(func).parameters.items()
                 if p.annotation is not inspect.Parameter.empty}
    if not signature:
        raise ValueError("The dispatch_for_api decorator must be called with at least one signature, or applied to "
                         "a function that has type annotations on its parameters.")
    return signature


def _with_name_scope(target, api_signature):
    """A target without the API's ``name`` parameter gets it (and runs inside its name scope)."""
    if "name" not in api_signature.parameters or "name" in inspect.signature(target).parameters:
        return target
    index = list(api_signature.parameters).index("name")

    @functools.wraps(target)
    def wrapper(*args, **kwargs):
        if len(args) > index:
            args = args[:index] + args[index + 1:]
        kwargs.pop("name", None)
        return target(*args, **kwargs)
    wrapper.__signature__ = api_signature
    return wrapper


def _check_signature(api_signature, func) -> None:
    func_signature = inspect.signature(func)
    kinds = [(p.name, p.kind) for p in func_signature.parameters.values()]
    if kinds == [("args", inspect.Parameter.VAR_POSITIONAL), ("kwargs", inspect.Parameter.VAR_KEYWORD)]:
        return
    api_kinds = [(p.name, p.kind) for p in api_signature.parameters.values()]
    # TensorFlow asks for the same parameters; devtrace's APIs may lack TensorFlow's trailing
    # optional ones (``layout``), so the parameters both have must agree
    if kinds[:len(api_kinds)] != api_kinds[:len(kinds)]:
        raise ValueError(f"Dispatch function's signature {func_signature} does not match API's signature "
                         f"{api_signature}.")


def _signature(api) -> inspect.Signature:
    """``api``'s signature, once it is known to be a public function (or its dispatching replacement)."""
    if isinstance(api, _Dispatcher):
        return api.signature
    if not callable(api) or api not in API.values() and _replacing(api) is None:
        raise ValueError(f"{api} does not support dispatch.")
    return inspect.signature(api)


def _replacing(api):
    """The dispatcher that replaced ``api`` already, or None."""
    return next((d for d in API.values() if isinstance(d, _Dispatcher) and d.api is api), None)


def _dispatcher(api) -> _Dispatcher:
    """The dispatcher of ``api`` (a public function, or its dispatching replacement): made, and put
    in the API's place, only when a target is registered (a registration that fails leaves the API
    as it was)."""
    if isinstance(api, _Dispatcher):
        return api
    dispatcher = _replacing(api)
    if dispatcher is not None:
        return dispatcher
    dispatcher = _Dispatcher(api)
    functools.update_wrapper(dispatcher, api)
    _replace(api, dispatcher)
    return dispatcher


def _replace(old, new) -> None:
    """``new`` wherever the ``tf`` surface keeps ``old``."""
    for name, value in list(API.items()):
        if value is old:
            API[name] = new
    namespace.replace(old, new)
    for replaced in hooks.API_REPLACED:
        replaced(old, new)


def dispatch_for_api(api, *signatures):
    """``tf.experimental.dispatch_for_api(api, *signatures)``: a decorator registering a dispatch
    target for ``api``, called when the arguments match one of ``signatures`` (or the target's
    own annotations)."""
    signature = _signature(api)
    checkers = [_signature_checker(signature, s) for s in signatures]

    def decorator(target):
        if not callable(target):
            raise TypeError(f"Expected dispatch_target to be callable; got {target!r}")
        wrapped = _with_name_scope(target, signature)
        expected = signature
        if wrapped is not target:  # a target may leave out ``name``
            expected = expected.replace(parameters=[p for p in expected.parameters.values() if p.name != "name"])
        _check_signature(expected, target)
        dispatcher = _dispatcher(api)
        for checker in checkers or [_signature_checker(signature, _signature_from_annotations(target))]:
            dispatcher.targets.append((checker, wrapped, target))
        return target
    return decorator


class _Targets(list):
    """A dispatcher's ``(checker, target, registered function)``, read as ``(checker, target)``."""

    def __iter__(self):
        return ((entry[0], entry[1]) for entry in list.__iter__(self))


def _apis(groups) -> list:
    """The names devtrace has of each group's API (one name a group)."""
    return [next(n for n in group.split() if n in API) for group in groups if any(n in API for n in group.split())]


def _elementwise(types: tuple, handler, apis, arity: int) -> None:
    if types in _ELEMENTWISE_HANDLERS:
        kind = "unary" if arity == 1 else "binary"
        raise ValueError(f"A {kind} elementwise dispatch handler ({_ELEMENTWISE_HANDLERS[types]}) has already been "
                         f"registered for {types[0] if arity == 1 else types}.")
    _ELEMENTWISE_HANDLERS[types] = handler
    done = set()
    for name in apis:
        public = API[name]  # (read now: an API of two groups is replaced once)
        api = public.api if isinstance(public, _Dispatcher) else public
        if id(api) in done:
            continue
        done.add(id(api))
        names = list(inspect.signature(api).parameters)
        target = _elementwise_target(api, names, handler, arity)
        dispatch_for_api(public, dict(zip(names[:arity], types[-arity:])))(target)
        _ELEMENTWISE_TARGETS[types].append((api, target))


def _elementwise_target(api, names, handler, arity):
    def target(*args, **kwargs):
        kwargs.pop("name", None)
        if "name" in names and len(args) > names.index("name"):
            args = args[:names.index("name")] + args[names.index("name") + 1:]
        values = list(args[:arity])
        for name in names[len(values):arity]:
            values.append(kwargs.pop(name, None))
        rest = args[arity:]
        tensor_api = (lambda *v: api(*v, *rest, **kwargs)) if rest or kwargs else api
        return handler(tensor_api, *values)
    target.__name__ = f"elementwise_dispatch_target_for_{api.__name__}"
    return target


def dispatch_for_unary_elementwise_apis(x_type):
    """``tf.experimental.dispatch_for_unary_elementwise_apis(x_type)``: ``handler(api_func, x)``
    runs every unary elementwise API (``tf.abs``, ``tf.ones_like`` …) called on an ``x_type``."""
    def decorator(handler):
        _elementwise((x_type,), handler, _apis(dispatch_apis.UNARY), 1)
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """``tf.experimental.dispatch_for_binary_elementwise_apis(x_type, y_type)``:
    ``handler(api_func, x, y)`` runs every binary elementwise API (``tf.add`` …)."""
    def decorator(handler):
        _elementwise((x_type, y_type), handler, _apis(dispatch_apis.BINARY), 2)
        return handler
    return decorator


def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """``tf.experimental.dispatch_for_binary_elementwise_assert_apis(x_type, y_type)``:
    ``handler(assert_func, x, y)`` runs the elementwise asserts (``tf.debugging.assert_equal`` …)."""
    def decorator(handler):
        _elementwise(("assert", x_type, y_type), handler, _apis(dispatch_apis.BINARY_ASSERT), 2)
        return handler
    return decorator


def unregister_dispatch_for(dispatch_target) -> None:
    """``tf.experimental.unregister_dispatch_for``: ``dispatch_target`` is no longer called."""
    found = False
    for dispatcher in set(d for d in API.values() if isinstance(d, _Dispatcher)):
        kept = [entry for entry in list.__iter__(dispatcher.targets) if entry[2] is not dispatch_target]
        if len(kept) != len(dispatcher.targets):
            dispatcher.targets = _Targets(kept)
            found = True
            if not kept:  # nothing dispatches any more: the API's own function again
                _replace(dispatcher, dispatcher.api)
    for key in [k for k, handler in _ELEMENTWISE_HANDLERS.items() if handler is dispatch_target]:
        for _, target in _ELEMENTWISE_TARGETS.pop(key, []):
            unregister_dispatch_for(target)
        del _ELEMENTWISE_HANDLERS[key]
        found = True
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a `@dispatch_for_*` decorator.")


def reset() -> None:
    """Every API its own function again and no elementwise handler: a new process's dispatch (test
    isolation: a docstring's registrations end with it)."""
    for dispatcher in set(d for d in API.values() if isinstance(d, _Dispatcher)):
        _replace(dispatcher, dispatcher.api)
    _ELEMENTWISE_HANDLERS.clear()
    _ELEMENTWISE_TARGETS.clear()
