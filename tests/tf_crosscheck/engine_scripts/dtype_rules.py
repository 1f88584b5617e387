"""TensorFlow's dtype rules, property-style: random operands of Python, NumPy and tensor kinds
through a broad set of ops; prints each case's result dtype and shape, or its error class.

Run unchanged on both engines (test_dtype_rules.py): ``python dtype_rules.py [N] [SEED]``.
The cases come from Python's ``random`` with a fixed seed, so both engines see the same ones.
"""
import json
import random
import sys

import numpy as np

import sim.tf as tf

N = int(sys.argv[1]) if len(sys.argv) > 1 else 600
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 37

# operand kinds: (name, maker(value list) -> operand)
KINDS = {
    "py_float": lambda v: float(v[0]) + 0.5,
    "py_int": lambda v: int(v[0]),
    "py_bool": lambda v: bool(int(v[0]) % 2),
    "py_list_float": lambda v: [float(x) + 0.25 for x in v],
    "py_list_int": lambda v: [int(x) for x in v],
    "py_list_mixed": lambda v: [int(v[0])] + [float(x) + 0.5 for x in v[1:]],
    "np_f64": lambda v: np.array(v, np.float64),
    "np_f32": lambda v: np.array(v, np.float32),
    "np_i64": lambda v: np.array(v, np.int64),
    "np_i32": lambda v: np.array(v, np.int32),
    "np_f64_scalar": lambda v: np.float64(v[0]),
    "np_f32_scalar": lambda v: np.float32(v[0]),
    "np_i64_scalar": lambda v: np.int64(v[0]),
    "t_f32": lambda v: tf.constant(np.array(v, np.float32)),
    "t_f64": lambda v: tf.constant(np.array(v, np.float64)),
    "t_i32": lambda v: tf.constant(np.array(v, np.int32)),
    "t_i64": lambda v: tf.constant(np.array(v, np.int64)),
    "t_f32_scalar": lambda v: tf.constant(np.float32(v[0])),
    "var_f32": lambda v: tf.Variable(np.array(v, np.float32)),
    "var_i32": lambda v: tf.Variable(np.array(v, np.int32)),
}


def _u(fn):
    return lambda a: fn(a)


def _b(fn):
    return lambda a, b: fn(a, b)


UNARY = {
    "constant": _u(tf.constant), "convert_to_tensor": _u(tf.convert_to_tensor),
    "constant_f32": lambda a: tf.constant(a, dtype=tf.float32),
    "constant_i64": lambda a: tf.constant(a, dtype=tf.int64),
    "convert_f64": lambda a: tf.convert_to_tensor(a, dtype=tf.float64),
    "convert_hint_f32": lambda a: tf.convert_to_tensor(a, dtype_hint=tf.float32),
    "Variable": lambda a: tf.Variable(a), "range1": _u(tf.range),
    "fill": lambda a: tf.fill([2], a), "square": _u(tf.square), "sqrt": _u(tf.sqrt),
    "exp": _u(tf.exp), "abs": _u(tf.abs), "negative": _u(tf.negative),
    "reduce_sum": _u(tf.reduce_sum), "reduce_mean": _u(tf.reduce_mean),
    "reduce_max": _u(tf.reduce_max), "zeros_like": _u(tf.zeros_like), "ones_like": _u(tf.ones_like),
    "relu": _u(tf.nn.relu), "sigmoid": _u(tf.sigmoid), "tanh": _u(tf.tanh),
    "cast_f32": lambda a: tf.cast(a, tf.float32), "cast_i32": lambda a: tf.cast(a, tf.int32),
    "identity": _u(tf.identity), "round": _u(tf.round), "sign": _u(tf.sign),
    "softmax": _u(tf.nn.softmax), "argmax": _u(tf.argmax), "reshape": lambda a: tf.reshape(a, [-1]),
    "expand_dims": lambda a: tf.expand_dims(a, 0), "square_py": lambda a: tf.square(a) * 2.0,
    "clip": lambda a: tf.clip_by_value(a, 0.0, 2.0), "clip_int": lambda a: tf.clip_by_value(a, 0, 2),
    "random_uniform_max": lambda a: tf.random.uniform([2], maxval=a, seed=1),
    "add_n": lambda a: tf.add_n([a, a]), "rsqrt": _u(tf.math.rsqrt), "log": _u(tf.math.log),
    "floor": _u(tf.floor), "is_nan": _u(tf.math.is_nan),
}

BINARY = {
    "add": _b(tf.add), "subtract": _b(tf.subtract), "multiply": _b(tf.multiply),
    "divide": _b(tf.divide), "truediv": _b(tf.math.truediv), "maximum": _b(tf.maximum),
    "minimum": _b(tf.minimum), "pow": _b(tf.pow), "floordiv": _b(tf.math.floordiv),
    "floormod": _b(tf.math.floormod), "equal": _b(tf.equal), "less": _b(tf.less),
    "greater_equal": _b(tf.greater_equal), "squared_difference": _b(tf.math.squared_difference),
    "op_add": lambda a, b: a + b, "op_sub": lambda a, b: a - b, "op_mul": lambda a, b: a * b,
    "op_div": lambda a, b: a / b, "op_floordiv": lambda a, b: a // b, "op_pow": lambda a, b: a ** b,
    "op_lt": lambda a, b: a < b, "op_mod": lambda a, b: a % b,
    "range2": lambda a, b: tf.range(a, b), "range3": lambda a, b: tf.range(a, b, 1),
    "linspace": lambda a, b: tf.linspace(a, b, 3),
    "concat": lambda a, b: tf.concat([tf.reshape(a, [-1]), tf.reshape(b, [-1])], 0),
    "stack": lambda a, b: tf.stack([a, b]),
    "where": lambda a, b: tf.where(tf.constant([True, False]), a, b),
    "divide_no_nan": _b(tf.math.divide_no_nan),
    "assign_add": lambda a, b: tf.Variable(a).assign_add(b), "assign": lambda a, b: tf.Variable(a).assign(b),
    "fill2": lambda a, b: tf.fill([2], a) + b,
    "dot_matmul": lambda a, b: tf.matmul(tf.reshape(a, [1, -1]), tf.reshape(b, [-1, 1])),
    "reduce_sum_axis": lambda a, b: tf.reduce_sum(a, axis=0) + b,
}

NOT_SCALAR = {"softmax"}   # TensorFlow's rank check there is an AbortedError from its kernel
SCALAR_ONLY = {"range1", "range2", "range3", "linspace", "fill", "fill2", "random_uniform_max"}
# a variable made from a value of a listed kind, then assigned one of the same shape
ASSIGNS = {"assign", "assign_add"}
VECTOR_KINDS = ("py_list_float", "py_list_int", "np_f64", "np_f32", "np_i64", "np_i32", "t_f32",
                "t_f64", "t_i32", "t_i64")


def _desc(x):
    if hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, np.ndarray):
        return {"dtype": x.dtype.name, "shape": [int(d) for d in x.shape]}
    return {"python": type(x).__name__}


def run_case(rng):
    op_kind = rng.random() < 0.4
    table = UNARY if op_kind else BINARY
    op = rng.choice(sorted(table))
    n_args = 1 if op_kind else 2
    kinds = rng.sample(sorted(KINDS), 1) if n_args == 1 else [rng.choice(sorted(KINDS)) for _ in range(2)]
    if op in SCALAR_ONLY:
        kinds = [k if not k.startswith(("py_list", "np_f", "np_i", "t_", "var")) or "scalar" in k
                 else rng.choice(["py_float", "py_int", "t_f32_scalar", "np_f64_scalar", "np_i64_scalar"])
                 for k in kinds]
    if op in NOT_SCALAR:
        kinds = [rng.choice(VECTOR_KINDS)]
    if op in ASSIGNS:
        kinds = [rng.choice(VECTOR_KINDS), rng.choice(VECTOR_KINDS + ("var_f32", "var_i32"))]
    vals = [[rng.choice([1, 2, 3, 4]) for _ in range(2)] for _ in kinds]
    if op.startswith("range"):
        vals = [[v[0] + 3 * i] for i, v in enumerate(vals)]
    case = {"op": op, "kinds": kinds}
    try:
        args = [KINDS[k](v) for k, v in zip(kinds, vals)]
        case["result"] = _desc(table[op](*args))
    except Exception as e:   # the class is what is compared
        case["result"] = {"__error__": type(e).__name__}
    return case


def main():
    rng = random.Random(SEED)
    cases = [run_case(rng) for _ in range(N)]
    print("ENGINE-JSON " + json.dumps(cases))


if __name__ == "__main__":
    main()
