"""A ``tf.Module``'s SavedModel here: its variables, and its tf.functions as the Python they ran.

TensorFlow's SavedModel of a module holds the traced graph of each tf.function and a checkpoint
of its variables; the loaded object has no Python class, only those functions and variables,
and a function can be called only as it was traced. sim.tf has no graphs, so it keeps each
traced function's source (decorators dropped) with the calls it was traced for, and rebuilds
the object's tree: variables, generators, submodules, lists and dicts. A loaded function runs
that source on the rebuilt object; a call unlike every traced one raises TensorFlow's
ValueError, and its Python ``print`` is silent (a graph has no Python). The source may use
modules and plain numbers or strings from its globals; anything else it names is refused at the
save, with what to do. Files (atomic, never pickles): ``sim_saved_module.json`` (the tree and
the functions) and ``variables.npz`` (one array per variable).
"""
from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import symtable
import textwrap
import types

import numpy as np

from sim.engine import tracing_type
from sim.storage import safe_io

MARKER, VARIABLES = "sim_saved_module.json", "variables.npz"
FORMAT = "sim.tf.saved_module/1"
_PLAIN = (bool, int, float, str, type(None))
MARKER_LIMIT = 64 << 20          # the tree and the functions' source: far less than this


def is_saved_module(path) -> bool:
    return os.path.isdir(path) and os.path.exists(os.path.join(path, MARKER))


# ------------------------------------------------------------------ save

def save(obj, export_dir):
    from sim.engine.module import Module
    from sim.storage.checkpoint import Checkpoint
    if not isinstance(obj, (Module, Checkpoint)):
        raise ValueError(
            "Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
            f"`Trackable` class, for export. Got {obj!r} with type {type(obj)!r}.")
    arrays: dict = {}
    tree = _describe(obj, arrays, set(), "")
    os.makedirs(export_dir, exist_ok=True)
    safe_io.atomic_savez(os.path.join(export_dir, VARIABLES), arrays, {"format": FORMAT})
    text = json.dumps({"format": FORMAT, "root": tree}, indent=1, sort_keys=True).encode("utf-8")
    safe_io.atomic_write(os.path.join(export_dir, MARKER), lambda f: f.write(text))


def _is_variable(x):
    """A variable, or a distributed one (saved once, as its primary component: TensorFlow too)."""
    from sim.distribute.values import DistributedValues
    from sim.engine.module import _is_variable as is_engine_variable
    return is_engine_variable(x.values[0] if isinstance(x, DistributedValues) else x)


def _describe(x, arrays, seen, path):
    """The node of ``x`` in the saved tree (None: nothing to keep there)."""
    from sim.distribute.random_generator import Generator
    from sim.distribute.values import DistributedValues
    from sim.engine.function import Function

    if _is_variable(x):
        v = x.values[0] if isinstance(x, DistributedValues) else x
        key = f"v{len(arrays)}"
        arrays[key] = np.asarray(v)
        return {"kind": "variable", "array": key, "dtype": v.dtype.name,
                "trainable": bool(getattr(v, "trainable", True)),
                "name": str(getattr(v, "name", "Variable")).split(":")[0]}
    if isinstance(x, Generator):
        return {"kind": "generator", "alg": int(x.algorithm),
                "state": _describe(x.state, arrays, seen, path + "/state")}
    if isinstance(x, (list, tuple)):
        items = [_describe(v, arrays, seen, f"{path}/{i}") for i, v in enumerate(x)]
        return {"kind": "list", "items": items} if any(items) else None
    if isinstance(x, dict):
        items = {str(k): _describe(v, arrays, seen, f"{path}/{k}") for k, v in x.items()}
        items = {k: v for k, v in items.items() if v is not None}
        return {"kind": "dict", "items": items} if items else None
    if isinstance(x, _PLAIN) or isinstance(x, type) or not hasattr(x, "__dict__") or id(x) in seen:
        return None
    seen.add(id(x))
    attrs = {}
    for name, value in vars(x).items():
        if not isinstance(value, Function):
            node = _describe(value, arrays, seen, f"{path}/{name}")
            if node is not None:
                attrs[name] = node
    functions = {}
    for owner, name, function in _functions_of(x):
        saved = _saved_function(function, owner, name, path)
        if saved is not None:
            functions[name] = saved
    if not attrs and not functions:
        return None
    return {"kind": "object", "attrs": attrs, "functions": functions}


def _functions_of(x):
    """(instance or None, name, Function) for the traced tf.functions on ``x``: its methods
    (traced for this instance) and the Functions it holds as attributes."""
    from sim.engine.function import Function
    for name in sorted(dir(type(x))):
        function = inspect.getattr_static(type(x), name, None)
        if isinstance(function, Function):
            yield x, name, function
    for name, value in sorted(vars(x).items()):
        if isinstance(value, Function):
            yield None, name, value


def _saved_function(function, owner, name, path):
    keys = function._made if owner is None else function._keys_for(owner)
    if not keys and function.input_signature is None:
        return None           # never traced: TensorFlow saves it uncallable, and warns
    calls = [[tracing_type.to_json(k[0][1:] if owner is not None else k[0]), tracing_type.to_json(k[1])]
             for k in keys]
    fn = function.python_function
    where = f"{type(owner).__name__}.{name}" if owner is not None else f"{path.lstrip('/') or 'root'}.{name}"
    source = _source(fn, where)
    return {"source": source, "globals": _globals_of(fn, source, where), "method": owner is not None,
            "calls": calls, "reduce_retracing": bool(function._reduce_retracing),
            "input_signature": function.input_signature is not None}


def _refuse(key, where, **fields):
    """sim's own refusal (TensorFlow would have saved its graph), in the course language."""
    from sim.keras import _errors
    return ValueError(_errors.msg("saved_module_" + key, where=where, **fields))


def _source(fn, where):
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        raise _refuse("no_source", where) from None
    tree = ast.parse(text)
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        raise _refuse("not_def", where)
    defs[0].decorator_list = []
    return ast.unparse(defs[0])


def _globals_of(fn, source, where):
    """What ``source`` (fn's) reads from its globals: modules by name, plain values as they are."""
    code = fn.__code__
    if code.co_freevars:
        cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
        names = [n for n in cells if n != "__class__"]
        if names:
            from sim.i18n import join_list
            raise _refuse("closure", where, names=join_list(names))
    table = symtable.symtable(source, "<tf.function>", "exec")
    used = set()

    def visit(t):
        used.update(s.get_name() for s in t.get_symbols() if s.is_global() and s.is_referenced())
        for child in t.get_children():
            visit(child)
    for child in table.get_children():
        visit(child)
    found = {}
    for name in sorted(used):
        if name not in fn.__globals__:
            continue                       # a builtin (or a name defined only later)
        value = fn.__globals__[name]
        if isinstance(value, types.ModuleType):
            found[name] = {"module": value.__name__}
        elif isinstance(value, _PLAIN):
            found[name] = {"value": value}
        else:
            raise _refuse("global", where, name=name, kind=type(value).__name__)
    return found


# ------------------------------------------------------------------ load

class _UserObject:
    """What a loaded SavedModel of a tf.Module is: its variables and functions, no class of its
    own (a saved ``__call__`` makes its loaded class callable)."""


def load(export_dir):
    from sim.tf.saved_model_dir import read_json
    path = os.path.join(export_dir, MARKER)
    marker = read_json(path, MARKER_LIMIT, f"{FORMAT} file")
    if not isinstance(marker, dict) or marker.get("format") != FORMAT or not isinstance(marker.get("root"), dict):
        raise OSError(f"Cannot parse file {path}: not a {FORMAT} file")
    _, arrays = safe_io.read_npz(os.path.join(export_dir, VARIABLES))
    return _rebuild(marker["root"], arrays, path)


def _rebuild(node, arrays, path):
    from sim.distribute.random_generator import Generator
    from sim.engine.variable import Variable
    from sim.storage import tracking

    if not isinstance(node, dict):
        raise OSError(f"Cannot parse file {path}: a node is {type(node).__name__}")
    kind = node.get("kind")
    if kind == "variable":
        value = safe_io.checked_array(arrays, node.get("array"), path)
        return Variable(value, dtype=node.get("dtype"), trainable=bool(node.get("trainable", True)),
                        name=str(node.get("name", "Variable")))
    if kind == "generator":
        return Generator.from_state(_rebuild(node.get("state"), arrays, path), alg=int(node.get("alg", 1)))
    if kind == "list":
        return tracking.ListWrapper(_rebuild(v, arrays, path) if v is not None else None
                                    for v in node.get("items", []))
    if kind == "dict":
        return {k: _rebuild(v, arrays, path) for k, v in node.get("items", {}).items()}   # as TF prints it
    if kind != "object":
        raise OSError(f"Cannot parse file {path}: unknown node kind {kind!r}")
    methods = {name: _loaded_function(name, saved, path)
               for name, saved in node.get("functions", {}).items() if saved.get("method")}
    obj = type("_UserObject", (_UserObject,), methods)()
    for name, child in node.get("attrs", {}).items():
        setattr(obj, name, _rebuild(child, arrays, path))
    for name, saved in node.get("functions", {}).items():
        if not saved.get("method"):
            setattr(obj, name, _loaded_function(name, saved, path))
    return obj


def _loaded_function(name, saved, path):
    from sim.engine.function import _silent

    namespace = {"print": _silent}
    for global_name, what in saved.get("globals", {}).items():
        namespace[global_name] = importlib.import_module(what["module"]) if "module" in what else what.get("value")
    try:
        exec(compile(saved["source"], f"<SavedModel function {name}>", "exec"), namespace)  # noqa: S102
        fn = namespace[ast.parse(saved["source"]).body[0].name]
    except (KeyError, SyntaxError, IndexError, AttributeError) as e:
        raise OSError(f"Cannot parse file {path}: the function {name}: {type(e).__name__}") from None
    from sim.tf.loaded_function import LoadedFunction
    calls = [(tracing_type.from_json(a), tracing_type.from_json(k)) for a, k in saved.get("calls", [])]
    return LoadedFunction(fn, name, calls, bool(saved.get("method")), bool(saved.get("reduce_retracing")),
                          bool(saved.get("input_signature")))
