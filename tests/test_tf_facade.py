"""The sim.tf facade: TensorFlow's names, unknown names, config devices, seeds, checkpoints."""
import os
import subprocess
import sys

import numpy as np
import pytest

import sim.tf as tf

NAMES = """constant convert_to_tensor Variable Tensor TensorShape TensorSpec DType float16 bfloat16
float32 float64 int32 int64 bool string add_n reduce_sum reduce_mean reduce_max reduce_min
reduce_prod cast greater less equal matmul reshape zeros ones zeros_like ones_like fill range
linspace identity stop_gradient shape size rank argmax GradientTape function print device
variable_creator_scope VariableSynchronization VariableAggregation name_scope""".split()


@pytest.mark.parametrize("name", NAMES)
def test_top_level_names(name):
    assert hasattr(tf, name)


def test_submodule_names():
    for mod, names in {"nn": "relu softmax sigmoid_cross_entropy_with_logits l2_loss dropout embedding_lookup",
                       "math": "exp log reduce_sum sqrt", "random": "uniform normal truncated_normal set_seed Generator",
                       "config": "list_physical_devices list_logical_devices set_visible_devices",
                       "data": "Dataset Options AUTOTUNE", "train": "Checkpoint latest_checkpoint",
                       "errors": "OutOfRangeError InvalidArgumentError UnavailableError"}.items():
        for n in names.split():
            assert hasattr(getattr(tf, mod), n), f"tf.{mod}.{n}"
    assert hasattr(tf.config.experimental, "set_visible_devices")
    assert hasattr(tf.data.experimental, "AutoShardPolicy")


def test_unknown_name_raises_not_implemented_naming_it():
    with pytest.raises(NotImplementedError, match=r"sim.tf does not support tf.xyz"):
        tf.xyz
    with pytest.raises(NotImplementedError, match=r"tf.nn.conv_xyz"):
        tf.nn.conv_xyz
    assert not hasattr(tf, "xyz")


def test_config_devices_use_tensorflow_names():
    gpus = tf.config.list_physical_devices("GPU")
    assert gpus[0] == tf.config.PhysicalDevice("/physical_device:GPU:0", "GPU") and len(gpus) == 4
    assert tf.config.list_logical_devices("GPU")[1].name == "/device:GPU:1"
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    assert len(tf.config.list_logical_devices("CPU")) == 2
    tf.config.set_logical_device_configuration(cpu, None)


def test_random_seeds_are_deterministic():
    tf.random.set_seed(1)
    a = tf.random.uniform([3]).numpy(), tf.random.normal([2]).numpy()
    tf.random.set_seed(1)
    b = tf.random.uniform([3]).numpy(), tf.random.normal([2]).numpy()
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    x1, x2 = tf.random.uniform([2], seed=4), tf.random.uniform([2], seed=4)
    assert not np.array_equal(x1.numpy(), x2.numpy())
    g1, g2 = tf.random.Generator.from_seed(3), tf.random.Generator.from_seed(3)
    np.testing.assert_array_equal(g1.normal([4]).numpy(), g2.normal([4]).numpy())
    t = tf.random.truncated_normal([1000], seed=2).numpy()
    assert np.abs(t).max() <= 2 and t.dtype == np.float32


def test_checkpoint_roundtrip(tmp_path):
    class Model:
        pass
    m = Model()
    m.w, m.b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    ckpt = tf.train.Checkpoint(model=m)
    path = ckpt.save(str(tmp_path / "ckpt"))
    assert path.endswith("ckpt-1") and tf.train.latest_checkpoint(str(tmp_path)) == path
    m.w.assign([0.0, 0.0])
    ckpt.restore(path).assert_consumed()
    assert m.w.numpy().tolist() == [1.0, 2.0]
    assert not any(f.endswith(".tmp") for f in os.listdir(tmp_path))
    assert tf.train.latest_checkpoint(str(tmp_path / "none")) is None


def test_runtime_clock_and_machine():
    from sim import runtime
    c = runtime.clock()
    t0 = c.now
    c.advance(0.5, "step", "/gpu:0")
    assert c.now == t0 + 0.5 and c.last_step_seconds == 0.5 and c.steps[-1].what == "step"
    assert runtime.current_machine().name == "workstation-4gpu"


def test_tf_print_format(capsys):
    tf.print(tf.constant([1.5, 2.0]), tf.range(10), output_stream=sys.stdout)
    assert capsys.readouterr().out == "[1.5 2] [0 1 2 ... 7 8 9]\n"


def test_import_is_light():
    code = "import sys, sim.tf; print(any(m.startswith(('sim.keras', 'sim.distribute', 'matplotlib', 'simpy')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_unsupported_name_speaks_the_course_language():
    from sim import i18n

    before = i18n.get_language()
    try:
        i18n.set_language("zh")
        with pytest.raises(NotImplementedError, match="tf.xyz 不在本课程模拟的 TensorFlow 子集中"):
            tf.xyz  # noqa: B018
    finally:
        i18n.set_language(before)
