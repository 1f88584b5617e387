"""tf.function traces once per kind of call (TensorFlow's rules) and later calls run without the
Python: the tf.function guide's and the random number guide's examples, with TensorFlow's output."""
import numpy as np
import pytest

import sim.tf as tf

traces = 0


def test_two_variables_of_one_shape_and_dtype_share_a_trace():
    global traces
    traces = 0

    @tf.function
    def foo(v):
        global traces
        traces += 1
        return v.read_value()
    assert int(foo(tf.Variable(1))) == 1 and int(foo(tf.Variable(2))) == 2   # values are live
    assert traces == 1 == foo.experimental_get_tracing_count()
    foo(tf.Variable(1.0))                                                    # another dtype
    assert traces == 2


def test_each_generator_has_a_trace_of_its_own():
    seen = []

    @tf.function
    def foo(g):
        seen.append(1)
        return g.normal([])
    g1 = tf.random.Generator.from_seed(1)
    a, b = foo(g1), foo(g1)
    foo(tf.random.Generator.from_seed(2))
    assert foo.experimental_get_tracing_count() == 2
    assert float(a) != float(b)      # the draw is an op: it runs at every call


def test_print_at_the_trace_only_and_tf_print_at_every_call(capfd):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)
    f(1)
    f(1)
    f(2)
    out = capfd.readouterr()
    said = out.out + out.err
    assert said.count("Traced with") == 2 and said.count("Executed with") == 3
    assert "Traced with 1" in said and "Traced with 2" in said


def test_python_values_the_body_reads_are_the_traces():
    x = tf.Variable(1.0)
    scale = [2.0]

    def make(scale_now):
        @tf.function
        def g():
            return x * scale_now
        return g
    g = make(scale[0])
    assert float(g()) == 2.0
    x.assign(2.0)                     # a variable is read when the graph runs
    assert float(g()) == 4.0


def test_a_global_rebound_after_the_trace_is_not_seen():
    global traces
    traces = 10

    @tf.function
    def h():
        return tf.constant(traces)
    assert int(h()) == 10
    traces = 20
    assert int(h()) == 10             # TensorFlow's graph holds the traced constant
    traces = 0


def test_a_python_number_traces_per_value_a_tensor_per_shape():
    @tf.function
    def f(x):
        return x
    f(1)
    f(1)
    f(2)
    f(tf.constant(1))
    f(tf.constant(2))
    f(tf.constant([1, 2]))
    f(np.float32(3.0))
    assert f.experimental_get_tracing_count() == 5


def test_reduce_retracing_generalizes_the_shape_once():
    @tf.function(reduce_retracing=True)
    def g(x):
        return x
    for n in (3, 5, 7, 9):
        g(tf.constant(np.arange(n)))
    assert g.experimental_get_tracing_count() == 2


def test_an_input_signature_means_one_trace():
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def g(x):
        return tf.reduce_sum(x)
    assert float(g(tf.constant([1.0, 2.0]))) == 3.0
    assert float(g(tf.constant([1.0, 2.0, 3.0]))) == 6.0
    assert g.experimental_get_tracing_count() == 1


def test_a_trace_that_raises_is_not_kept():
    @tf.function
    def g(x):
        if not hasattr(g, "tried"):
            g.tried = True
            raise ValueError("first trace fails")
        return x
    with pytest.raises(ValueError):
        g(1)
    assert g.experimental_get_tracing_count() == 0
    assert g(1) == 1 and g.experimental_get_tracing_count() == 1


def test_a_method_traces_per_instance():
    class Counter(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(0)

        @tf.function
        def step(self):
            print("traced")
            self.v.assign_add(1)
            return self.v.read_value()
    a, b = Counter(), Counter()
    assert [int(a.step()) for _ in range(3)] == [1, 2, 3]
    assert int(b.step()) == 1
    assert Counter.step.experimental_get_tracing_count() == 2
    assert a.step.experimental_get_tracing_count() == 1 == b.step.experimental_get_tracing_count()


def test_run_functions_eagerly_runs_the_python_every_time(capsys):
    @tf.function
    def f():
        print("python ran")
    tf.config.run_functions_eagerly(True)
    try:
        f()
        f()
    finally:
        tf.config.run_functions_eagerly(False)
    f()
    f()
    assert capsys.readouterr().out.count("python ran") == 3
    assert not tf.config.functions_run_eagerly()


def test_a_dataset_iterator_advances_at_every_call():
    it = iter(tf.data.Dataset.range(5))

    @tf.function
    def take():
        return next(it)
    assert [int(take()) for _ in range(3)] == [0, 1, 2]
    assert take.experimental_get_tracing_count() == 1


def test_a_bound_method_passed_to_tf_function_prints_at_its_trace_only(capsys):
    class Stepper:
        def step(self, x):
            print("traced")
            return x * 2
    f = tf.function(Stepper().step)
    assert [int(f(tf.constant(v))) for v in (1, 2, 3)] == [2, 4, 6]
    assert capsys.readouterr().out.count("traced") == 1


UNRELATED = np.zeros(3)


def test_a_trace_keeps_only_the_globals_its_body_reads():
    @tf.function
    def f(x):
        return x + float(np.sum(x.numpy()))
    f(tf.constant([1.0]))
    kept = f._traces[0].globals
    assert "np" in kept and "tf" not in kept and "UNRELATED" not in kept
