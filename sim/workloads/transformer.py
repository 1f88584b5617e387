"""BERT-base, BERT-large and GPT-2 small, built layer by layer for one sequence.

Architectures:
* BERT: Devlin et al., "BERT: Pre-training of Deep Bidirectional Transformers", NAACL 2019, §3
  (base: 12 layers, hidden 768, 12 heads; large: 24, 1024, 16; feed-forward 4x hidden), as
  Hugging Face ``BertModel`` writes it: WordPiece vocabulary 30,522 (uncased), 512 positions,
  2 token types, embedding LayerNorm, separate query/key/value projections with biases, a
  LayerNorm after attention and after the feed-forward block, and the pooler (hidden x hidden +
  bias on the first token). Counted variant: ``BertModel`` with the pooler, WITHOUT the
  pre-training heads (masked-LM transform and NSP classifier). Sample: a sequence of 128 tokens
  (BERT's pre-training phase 1).
* GPT-2 small: Radford et al., "Language Models are Unsupervised Multitask Learners", 2019
  (12 layers, 768 wide, vocabulary 50,257, context 1024), as Hugging Face ``GPT2Model``: token
  and position embeddings, pre-LayerNorm blocks with a fused QKV projection, final LayerNorm; the
  language-model head is the token embedding transposed (tied), so it adds compute, not
  parameters. Sample: a sequence of 1024 tokens.

Published parameter counts (Hugging Face model cards / ``num_parameters()``): bert-base-uncased
``BertModel`` 109,482,240 ("110M" in the paper), bert-large-uncased 335,141,888 ("340M"),
gpt2 124,439,808 ("117M" in the paper, which counted differently). FLOPs: no per-sequence figure
is published for these, so they are checked against the published closed form of Chowdhery et al.
(PaLM, 2022, Appendix B): 6N + 12·n_layer·d·T training FLOPs per token, i.e. forward
2N + 4·n_layer·d·T, with N the weights used in matrix products (the LM head included).
"""
from __future__ import annotations

from .base import Builder, Workload, passes_of


def _encoder_layer(b: Builder, name: str, d: int, seq: int, pre_norm: bool = False) -> None:
    """One transformer layer (attention + feed-forward), its layer norms folded into the
    projection they follow (post-norm, BERT) or precede (pre-norm, GPT-2). Heads are 64 wide
    (BERT-base/large, GPT-2: hidden / heads = 64); the scores' softmax is memory-bound work."""
    ln, tokens, heads = 2 * d, seq * d, d // 64
    norm = passes_of("layer_norm")
    if pre_norm:
        b.add(name + ".ln_1", ln, 0, outputs=tokens, passes=norm)
    b.dense(name + ".attention.qkv", d, 3 * d, tokens=seq, after=())
    b.add(name + ".attention.scores", 0, 2 * seq * seq * d, "matmul", 3 * tokens,
          heads * seq * seq, passes_of("softmax"))                  # Q·K^T and softmax·V
    b.dense(name + ".attention.output", d, d, tokens=seq, after=())
    if pre_norm:
        b.add(name + ".ln_2", ln, 0, outputs=tokens, passes=norm)
    else:
        b.add(name + ".attention.output.LayerNorm", ln, 0, outputs=tokens, passes=norm)
    b.dense(name + ".intermediate", d, 4 * d, tokens=seq)           # + GELU
    b.dense(name + ".output", 4 * d, d, tokens=seq, after=())
    if not pre_norm:
        b.add(name + ".output.LayerNorm", ln, 0, outputs=tokens, passes=norm)


def bert(size: str = "base", seq: int = 128) -> Workload:
    layers, d = {"base": (12, 768), "large": (24, 1024)}[size]
    b = Builder()
    b.add("embeddings", (30522 + 512 + 2) * d + 2 * d, 0, outputs=seq * d,      # word, position,
          passes=passes_of("embedding", "layer_norm"))                          # type, LayerNorm
    for i in range(layers):
        _encoder_layer(b, f"encoder.layer.{i}", d, seq)
    b.dense("pooler", d, d)
    published = {"base": 109_482_240, "large": 335_141_888}[size]
    name = f"bert_{size}" + ("" if seq == 128 else f"_{seq}")
    return Workload(name, "transformer", tuple(b.layers), f"sequence of {seq} tokens",
                    "Devlin et al. NAACL 2019; Hugging Face BertModel (with pooler)",
                    {"params": published, "flops": _palm_forward(layers, d, seq, vocab=0) + 2 * d * d,
                     "flops_source": "Chowdhery et al. 2022 App. B (closed form) + pooler"})


def gpt2_small(seq: int = 1024) -> Workload:
    layers, d, vocab = 12, 768, 50257
    b = Builder()
    b.add("wte+wpe (tied to the LM head)", vocab * d + 1024 * d, 0, outputs=seq * d,
          passes=passes_of("embedding"))
    for i in range(layers):
        _encoder_layer(b, f"h.{i}", d, seq, pre_norm=True)
    b.add("ln_f", 2 * d, 0, outputs=seq * d, passes=passes_of("layer_norm"))
    b.add("lm_head (tied)", 0, d * vocab * seq, "matmul", seq * d, seq * vocab, passes_of("softmax"))
    return Workload("gpt2_small", "transformer", tuple(b.layers), f"sequence of {seq} tokens",
                    "Radford et al. 2019; Hugging Face GPT2Model (tied LM head)",
                    {"params": 124_439_808, "flops": _palm_forward(layers, d, seq, vocab),
                     "flops_source": "Chowdhery et al. 2022 App. B (closed form)"})


def _palm_forward(layers: int, d: int, seq: int, vocab: int) -> float:
    """PaLM's forward FLOPs per sequence: (2N + 4·n_layer·d·T)·T, N = 12·n_layer·d² + d·vocab."""
    n = 12 * layers * d * d + d * vocab
    return (2 * n + 4 * layers * d * seq) * seq
