"""Workload specs: totals derived from the architectures match the published figures."""
import pytest

from sim.workloads import workload, workload_names
from sim.workloads.throughput import single_gpu_rows

# Published parameter counts (exact), each with the variant counted (see the model modules).
PARAMS = {
    "resnet50": 25_557_032,      # torchvision, trainable (no conv bias, BN gamma/beta)
    "resnet101": 44_549_160,
    "resnet152": 60_192_808,
    "inception_v3": 27_161_264,  # torchvision, with the auxiliary classifier
    "vgg16": 138_357_544,
    "alexnet": 61_100_840,
    "bert_base": 109_482_240,    # Hugging Face BertModel, with pooler, no pre-training heads
    "bert_large": 335_141_888,
    "bert_large_512": 335_141_888,   # the same weights; MLPerf BERT's 512-token sequences
    "gpt2_small": 124_439_808,   # Hugging Face GPT2Model, LM head tied to wte
}
# Published forward multiply-accumulates per image (torchvision docs "GFLOPS").
GMACS = {"resnet50": 4.09, "resnet101": 7.80, "resnet152": 11.51, "inception_v3": 5.71,
         "vgg16": 15.47, "alexnet": 0.71}


def test_every_model_is_listed():
    assert set(workload_names()) == set(PARAMS)


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_parameter_count_is_exact(name):
    w = workload(name)
    assert w.params == PARAMS[name]
    assert w.gradient_bytes == 4 * PARAMS[name]
    assert sum(layer.gradient_bytes for layer in w.backward_order()) == w.gradient_bytes


@pytest.mark.parametrize("name", sorted(GMACS))
def test_cnn_flops_within_5_percent_of_published(name):
    fwd = workload(name).forward_flops
    assert fwd == pytest.approx(2 * GMACS[name] * 1e9, rel=0.05)


@pytest.mark.parametrize("name,layers,d,seq,vocab", [
    ("bert_base", 12, 768, 128, 0), ("bert_large", 24, 1024, 128, 0),
    ("bert_large_512", 24, 1024, 512, 0),
    ("gpt2_small", 12, 768, 1024, 50257)])
def test_transformer_flops_match_palm_closed_form(name, layers, d, seq, vocab):
    # Chowdhery et al. 2022 App. B: forward (2N + 4 n_layer d T) per token, N = matmul weights.
    n = 12 * layers * d * d + d * vocab
    assert workload(name).forward_flops == pytest.approx((2 * n + 4 * layers * d * seq) * seq,
                                                        rel=0.05)


def test_backward_order_is_reversed_forward_and_backward_is_twice_forward():
    w = workload("resnet50")
    order = w.backward_order()
    assert order[0].name == "fc" and order[-1].name == "conv1"
    assert w.backward_flops == pytest.approx(2 * w.forward_flops)


def test_vgg_gradients_are_mostly_in_its_first_fully_connected_layer():
    # 25088 x 4096 weights: why VGG-16 has more parameters per FLOP than ResNet-50, which has
    # more than Inception V3 (and AlexNet far more than any).
    vgg = workload("vgg16")
    fc6 = next(layer for layer in vgg.layers if layer.name == "fc6")
    assert fc6.params == 25088 * 4096 + 4096 and fc6.params > vgg.params * 0.7
    ratio = {n: workload(n).params / workload(n).flops for n in ("vgg16", "resnet50", "inception_v3", "alexnet")}
    assert ratio["alexnet"] > 5 * ratio["vgg16"]
    assert ratio["vgg16"] > 1.3 * ratio["resnet50"] > 1.3 * ratio["inception_v3"]


def test_unknown_model_names_the_known_ones():
    with pytest.raises(ValueError, match="resnet50"):
        workload("resnet-5")


def test_published_one_gpu_rates_judge_the_roofline_across_generations():
    """The published rates are the judge, never an input: four generations (Kepler, Pascal, Volta,
    Ampere), float32/TF32 and mixed precision, each beside the roofline's rate and its error."""
    rows = single_gpu_rows()
    judged = [r for r in rows if r["published"]]
    assert {r["device"].split("-")[0] for r in judged} >= {"K80", "P100", "V100", "A100"}
    assert {r["precision"] for r in judged} >= {"float32", "tf32", "mixed_float16"}
    for r in judged:
        assert r["error"] == pytest.approx(r["simulated"] / r["published"] - 1)
    a100 = {r["precision"]: r for r in rows if r["device"].startswith("A100")}
    assert a100["tf32"]["unit"] == "tensor" and a100["mixed_float16"]["dtype"] == "float16"
    assert a100["mixed_float16"]["simulated"] > a100["tf32"]["simulated"]
