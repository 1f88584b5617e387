"""Training recipes and their published convergence: epochs to the target at each batch size.

A plan's steps come from a named recipe: the optimizer, its learning-rate rule and warmup, label
smoothing, and the epochs it took to reach the target at each batch size it was RUN at, taken
from a published convergence result (a paper's table, or MLPerf's reference convergence points).
Time-to-train results never enter here: they judge the plan (docs/published_comparison.md).

Between two published batch sizes the epochs are interpolated (linear in log batch) and marked
``interpolated``; below the smallest the smallest's epochs are used (``extrapolated``: a smaller
batch usually needs no more epochs, but nobody here measured it); past the largest batch at which
the recipe is known to reach the target the plan says ``not reached``: no published run supports
it, and the plan will not invent one.

    steps(B) = ceil(epochs(B) x examples / B)       warmup included: the runs' epochs count it

Sources:
* ``goyal-sgd``: Goyal et al. 2017, "Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour"
  (arXiv 1706.02677): SGD with momentum 0.9, linear rule 0.1 x B / 256, gradual warmup over 5
  epochs, no label smoothing; ResNet-50 reaches 76.3 % top-1 (error 23.60 % at 256, 23.74 % at
  8k) in the same 90 epochs at every batch from 256 to 8192 ("no loss of accuracy ... up to 8192
  images", abstract; §5); past 8k its error rises (Fig. 1), so 16k is the first batch known to miss.
* ``mlperf-lars``: MLPerf Training ResNet-50 v1.5 to 75.9 % top-1 with LARS (You et al. 2017),
  label smoothing 0.1, polynomial decay: the reference convergence points (RCPs) of
  mlcommons/logging ``mlperf_logging/rcp_checker/training_4.0.0/rcps_resnet.json``, the median
  of each batch size's "Epochs to converge", with that entry's base rate, warmup and momentum.
  No asynchronous LARS run is published, and LARS's layer-wise trust ratio makes its step size
  independent of the gradient's scale, so asynchrony's derivation does not apply: the plan
  marks asynchronous LARS rows "not reached" rather than invent their steps.
* ``mlperf-lamb``: MLPerf Training BERT-Large (sequences of 512, from MLPerf's phase-1 checkpoint)
  to a masked-LM accuracy of 72.0 % with LAMB (You et al., ICLR 2020): the RCPs of mlcommons/logging
  ``mlperf_logging/rcp_checker/training_4.0.0/rcps_bert.json``, the median of each batch size's
  "Epochs to converge", which for BERT counts training SEQUENCES (samples), so this recipe's unit
  is samples (``examples = 1``) and ``--epochs`` is a budget in samples. LAMB's trust ratio, like
  LARS's, makes asynchrony's derivation inapplicable: asynchronous rows are "not reached".
  You et al.'s own Table 1 (steps per batch, 512 to 32k, SQuAD F1) is not used: its exact text
  was not found here, and no figure of it is typed from memory.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim.i18n import t

IMAGENET_EXAMPLES = 1_281_167
STATUSES = ("published", "interpolated", "extrapolated", "not reached")


@dataclass(frozen=True)
class Point:
    """One published run: its global batch, the epochs to the target, its learning rate."""
    batch: int
    epochs: float
    learning_rate: float
    warmup_epochs: float
    momentum: float


@dataclass(frozen=True)
class Recipe:
    name: str
    model: str
    optimizer: str
    rule: str                     # how its rate follows the batch, in words
    label_smoothing: float
    target: str
    examples: int
    points: tuple                 # Points, by batch
    cite: str
    first_miss: int | None = None  # smallest batch known NOT to reach the target (None: unknown)
    source: str = "published"
    async_supported: bool = True   # sim.plan.asynchrony's derivation needs a rate-proportional step
    unit: str = "epochs"           # what ``epochs`` counts: "epochs" of ``examples``, or "samples"

    @property
    def largest(self) -> int:
        return self.points[-1].batch

    def status(self, batch) -> str:
        if batch > self.largest:
            return "not reached"
        if batch < self.points[0].batch:
            return "extrapolated"
        return "published" if any(p.batch == batch for p in self.points) else "interpolated"

    def _around(self, batch):
        pts = self.points
        if batch <= pts[0].batch:
            return pts[0], pts[0], 0.0
        for lo, hi in zip(pts, pts[1:]):
            if lo.batch <= batch <= hi.batch:
                return lo, hi, math.log(batch / lo.batch) / math.log(hi.batch / lo.batch)
        return pts[-1], pts[-1], 0.0

    def epochs(self, batch) -> float:
        """Epochs to the target at ``batch`` (inf past the largest batch known to reach it)."""
        if self.status(batch) == "not reached":
            return math.inf
        lo, hi, w = self._around(batch)
        return lo.epochs + w * (hi.epochs - lo.epochs)

    def steps(self, batch) -> float:
        e = self.epochs(batch)
        return math.ceil(e * self.examples / batch) if math.isfinite(e) else math.inf

    def learning_rate(self, batch) -> float:
        """The recipe's rate at ``batch``: its rule through the published points (log-log)."""
        if batch < self.points[0].batch:        # below the smallest: the first two points' slope
            a, b = self.points[0], self.points[1]
            slope = math.log(b.learning_rate / a.learning_rate) / math.log(b.batch / a.batch)
            return a.learning_rate * (batch / a.batch) ** slope
        lo, hi, w = self._around(min(batch, self.largest))
        return math.exp(math.log(lo.learning_rate) + w * math.log(hi.learning_rate / lo.learning_rate))

    def momentum(self, batch) -> float:
        lo, hi, w = self._around(min(batch, self.largest))
        return lo.momentum + w * (hi.momentum - lo.momentum)

    def warmup_epochs(self, batch) -> float:
        lo, hi, w = self._around(min(batch, self.largest))
        return lo.warmup_epochs + w * (hi.warmup_epochs - lo.warmup_epochs)

    def warmup_steps(self, batch) -> float:
        return math.ceil(self.warmup_epochs(batch) * self.examples / batch)

    @property
    def edge_rate(self) -> float:
        """The learning rate taken as the fresh-gradient stability edge (``sim.plan.asynchrony``):
        the rate at the first batch known to miss the target if there is one (Goyal: 16k), else
        the largest rate known to reach it (then asynchrony's cost is an upper estimate)."""
        if self.first_miss is not None:
            p = self.points[-1]
            return p.learning_rate * self.first_miss / p.batch
        return self.points[-1].learning_rate

    def budget_reaches(self, batch, epochs) -> bool:
        """With a fixed budget of ``epochs``: does this batch reach the target?"""
        return self.epochs(batch) <= epochs


def _goyal() -> Recipe:
    pts = tuple(Point(b, 90.0, 0.1 * b / 256, 5.0 if b > 256 else 0.0, 0.9)
                for b in (256, 512, 1024, 2048, 4096, 8192))
    return Recipe("goyal-sgd", "resnet50", "SGD, momentum 0.9", "linear, 0.1 x B / 256",
                  0.0, "top-1 76.3%", IMAGENET_EXAMPLES, pts,
                  "Goyal et al. 2017 (arXiv 1706.02677), abstract and §5", first_miss=16384)


# mlcommons/logging rcp_checker/training_4.0.0/rcps_resnet.json:
# (BS, median "Epochs to converge", opt_base_learning_rate, warmup epochs, momentum)
RCPS_RESNET = ((1632, 35, 7.4, 2, 0.9), (3264, 35, 10.5, 2, 0.9), (4096, 40, 10, 5, 0.9),
               (8192, 42, 17, 5, 0.9), (13056, 45.5, 12.8, 9, 0.9), (32768, 56, 21.2, 16, 0.94),
               (49152, 68, 19.405, 24, 0.951807), (58880, 80, 23.246, 29, 0.951807),
               (65536, 85, 24.699, 31, 0.951807), (67840, 86, 24.699, 31, 0.951807))


def _mlperf() -> Recipe:
    pts = tuple(Point(b, float(e), lr, w, m) for b, e, lr, w, m in RCPS_RESNET)
    return Recipe("mlperf-lars", "resnet50", "LARS", "MLPerf reference points", 0.1,
                  "top-1 75.9%", IMAGENET_EXAMPLES, pts,
                  "MLPerf RCPs, mlcommons/logging training_4.0.0/rcps_resnet.json",
                  async_supported=False)


# mlcommons/logging rcp_checker/training_4.0.0/rcps_bert.json, one entry "bert_ref_<BS>" each:
# (BS, median "Epochs to converge" = samples, opt_base_learning_rate, num_warmup_steps, opt_lamb_beta_1)
RCPS_BERT = ((256, 2546432, 0.00035, 0, 0.9), (448, 2408448, 0.000425, 0, 0.9),
             (1536, 2789376, 0.002, 0, 0.66), (3072, 2752512, 0.002, 100, 0.66),
             (4096, 2838528, 0.0024, 0, 0.66), (4608, 2810880, 0.0035, 0, 0.62),
             (6144, 3317760, 0.0029293, 0, 0.7206), (6912, 3621888, 0.0029293, 0, 0.7206),
             (8192, 4177920, 0.00288293, 287, 0.88), (8704, 4243200, 0.002971656225, 287, 0.88),
             (12288, 4442880, 0.0031, 300, 0.8), (13056, 4617600, 0.00319540686, 300, 0.8),
             (16384, 5494272, 0.0033, 290, 0.75))


def _mlperf_lamb() -> Recipe:
    # warmup in samples (num_warmup_steps x BS); the RCPs' start_warmup_step offsets are not modelled
    pts = tuple(Point(b, float(n), lr, float(w * b), beta1) for b, n, lr, w, beta1 in RCPS_BERT)
    return Recipe("mlperf-lamb", "bert_large_512", "LAMB", "MLPerf reference points", 0.0,
                  "masked-LM accuracy 72.0%", 1, pts,
                  "MLPerf RCPs, mlcommons/logging training_4.0.0/rcps_bert.json",
                  async_supported=False, unit="samples")


RECIPES = {r.name: r for r in (_goyal(), _mlperf(), _mlperf_lamb())}
# words a learner may type for a recipe (its name's parts count too); "adam" is only a hint
KEYWORDS = {"mlperf-lamb": ("bert", "bert-large", "bert-large-512")}
HINTS = {"adam": "mlperf-lamb", "adamw": "mlperf-lamb"}


def _key(name) -> str:
    return str(name).strip().lower().replace("_", "-").replace(" ", "-")


def recipe(name: str) -> Recipe:
    """The recipe called ``name``; a unique part of a name ("lamb", "LAMB", "goyal") is enough."""
    key = _key(name)
    if key in RECIPES:
        return RECIPES[key]
    from sim.i18n import join_list
    matches = [r for r in RECIPES if key in r.split("-") or key in KEYWORDS.get(r, ())]
    if len(matches) == 1:
        return RECIPES[matches[0]]
    if matches:
        raise ValueError(t("plan.ambiguous_recipe", name=name, known=join_list(matches),
                           example=matches[-1]))
    import difflib
    words = {w: r for r in RECIPES for w in (r, *r.split("-"), *KEYWORDS.get(r, ())) if w != "mlperf"}
    close = difflib.get_close_matches(key, list(words), 1, 0.6)
    near = HINTS.get(key) or (words[close[0]] if close else None)
    if near:
        raise ValueError(t("plan.unknown_recipe_near", name=name, known=join_list(list(RECIPES)),
                           near=near))
    raise ValueError(t("plan.unknown_recipe", name=name, known=join_list(list(RECIPES))))
