"""Issue 17's cross-check scenarios: tf.data transformations, Keras metrics (also under
MirroredStrategy), jacobians and tape edge cases. Registered into scenarios.SCENARIOS (imported
at the end of scenarios.py); the same rules hold: nothing depends on which framework runs."""
from __future__ import annotations

import numpy as np

from scenarios import GLOBAL_BATCH, LABELS, X, _model, scenario


def _shape(spec):
    return [d for d in spec.shape.as_list()] if spec.shape.rank is not None else "unknown"


def _elements(env, ds):
    return [env.val(e) if not isinstance(e, tuple) else [env.val(c) for c in e] for e in ds]


@scenario
def data_padding_windows_interleave(env):
    """The API documentation's examples of padded_batch, window + flat_map, interleave, scan,
    group_by_window and bucket_by_sequence_length, with element specs and cardinalities."""
    tf = env.tf
    D = tf.data.Dataset
    filled = D.range(1, 5, output_type=tf.int32).map(lambda x: tf.fill([x], x))
    out = {"fill spec": _shape(filled.element_spec)}
    for key, ds in {
        "padded_batch": filled.padded_batch(2),
        "padded_batch 5": filled.padded_batch(2, padded_shapes=5),
        "padded_batch 5 -1": filled.padded_batch(2, padded_shapes=5, padding_values=-1),
        "padded_batch zip": D.zip((filled, filled)).padded_batch(2, padding_values=-1),
        "padded_batch drop": filled.padded_batch(3, drop_remainder=True),
    }.items():
        out[key] = {"elements": _elements(env, ds),
                    "spec": [_shape(s) for s in tf.nest.flatten(ds.element_spec)],
                    "cardinality": int(ds.cardinality())}
    out["padded_batch too small"] = env.attempt(lambda: list(filled.padded_batch(2, padded_shapes=3)))
    r = D.range(7)
    for args in [(3,), (3, 2), (3, 2, 1, True), (3, 1, 2, True), (2, 3)]:
        ds = r.window(*args)
        out[f"window{args}"] = {"windows": [env.val(list(w)) for w in ds],
                                "cardinality": int(ds.cardinality())}
    pairs = D.from_tensor_slices(([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).window(2)
    out["window of pairs"] = [[env.val(list(a)), env.val(list(b))] for a, b in pairs]
    series = D.range(8).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
    out["window flat_map batch"] = {"elements": _elements(env, series),
                                    "spec": _shape(series.element_spec)}
    slices = D.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    out["flat_map"] = _elements(env, slices.flat_map(D.from_tensor_slices))
    out["interleave 2x4"] = _elements(env, D.range(1, 6).interleave(
        lambda x: D.from_tensors(x).repeat(6), cycle_length=2, block_length=4))
    out["interleave uneven"] = _elements(env, D.range(1, 5).interleave(
        lambda x: D.range(x), cycle_length=3, block_length=2))
    scan = D.range(10).scan(tf.constant(0, dtype=tf.int64), lambda s, i: (s + i, s + i))
    out["scan"] = {"elements": _elements(env, scan), "cardinality": int(scan.cardinality())}
    grouped = D.range(10).group_by_window(key_func=lambda x: x % 2,
                                          reduce_func=lambda key, d: d.batch(5), window_size=5)
    out["group_by_window"] = _elements(env, grouped)
    partial = D.range(7).group_by_window(key_func=lambda x: 2 - x % 3,
                                         reduce_func=lambda key, d: d.batch(10), window_size=2)
    out["group_by_window partial groups"] = _elements(env, partial)
    seqs = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20], [21, 22]]
    gen = D.from_generator(lambda: seqs, tf.int64, output_shapes=[None])
    out["from_generator spec"] = _shape(gen.element_spec)
    buckets = gen.bucket_by_sequence_length(element_length_func=lambda e: tf.shape(e)[0],
                                            bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2])
    out["bucket_by_sequence_length"] = _elements(env, buckets)
    return out


Y_TRUE = (np.arange(24) * 7 % 5 < 2).astype(np.float32)
Y_SCORE = ((np.arange(24) * 11 % 13) / 12.0 * 0.7 + 0.3 * Y_TRUE).astype(np.float32)
PROBS3 = np.stack([Y_SCORE, 1 - Y_SCORE, (np.arange(24) % 4) / 4.0], axis=1).astype(np.float32)
CLASS3 = (np.arange(24) * 5 % 3).astype(np.int64)


def _metric_catalogue(tf):
    K = tf.keras.metrics
    return {
        "precision": (K.Precision(), "binary"), "recall": (K.Recall(), "binary"),
        "precision thresholds": (K.Precision(thresholds=[0.3, 0.5, 0.7]), "binary"),
        "recall top_k class_id": (K.Recall(top_k=2, class_id=2), "onehot"),
        "auc roc": (K.AUC(num_thresholds=20), "binary"),
        "auc pr": (K.AUC(num_thresholds=20, curve="PR"), "binary"),
        "auc pr majoring": (K.AUC(num_thresholds=20, curve="PR", summation_method="majoring"),
                            "binary"),
        "mean iou": (K.MeanIoU(num_classes=3), "classes"),
        "top2": (K.TopKCategoricalAccuracy(k=2), "onehot"),
        "sparse top1": (K.SparseTopKCategoricalAccuracy(k=1), "sparse"),
    }


def _update(tf, metric, kind, lo, hi, weights=None):
    w = None if weights is None else weights[lo:hi]
    if kind == "binary":
        metric.update_state(Y_TRUE[lo:hi], Y_SCORE[lo:hi], sample_weight=w)
    elif kind == "onehot":
        metric.update_state(tf.one_hot(CLASS3[lo:hi], 3), PROBS3[lo:hi], sample_weight=w)
    elif kind == "sparse":
        metric.update_state(CLASS3[lo:hi], PROBS3[lo:hi], sample_weight=w)
    else:
        metric.update_state(CLASS3[lo:hi], np.argmax(PROBS3[lo:hi], axis=1), sample_weight=w)


@scenario
def keras_metrics_catalogue(env):
    """Precision, Recall, AUC, MeanIoU and top-k accuracies: the documented examples, then a
    24-example set in three updates, with and without sample weights."""
    tf = env.tf
    K = tf.keras.metrics
    out = {}

    def doc(metric, *args, **kwargs):
        metric.update_state(*args, **kwargs)
        return env.val(metric.result())
    out["doc precision"] = doc(K.Precision(), [0, 1, 1, 1], [1, 0, 1, 1])
    out["doc precision weighted"] = doc(K.Precision(), [0, 1, 1, 1], [1, 0, 1, 1],
                                        sample_weight=[0, 0, 1, 0])
    out["doc precision top_k 2"] = doc(K.Precision(top_k=2), [0, 0, 1, 1], [1, 1, 1, 1])
    out["doc precision top_k 4"] = doc(K.Precision(top_k=4), [0, 0, 1, 1], [1, 1, 1, 1])
    out["doc recall"] = doc(K.Recall(), [0, 1, 1, 1], [1, 0, 1, 1])
    out["doc auc"] = doc(K.AUC(num_thresholds=3), [0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    out["doc auc weighted"] = doc(K.AUC(num_thresholds=3), [0, 0, 1, 1], [0, 0.5, 0.3, 0.9],
                                  sample_weight=[1, 0, 0, 1])
    out["doc auc pr"] = doc(K.AUC(num_thresholds=3, curve="PR"), [0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    out["doc mean iou"] = doc(K.MeanIoU(num_classes=2), [0, 0, 1, 1], [0, 1, 0, 1])
    out["doc mean iou weighted"] = doc(K.MeanIoU(num_classes=2), [0, 0, 1, 1], [0, 1, 0, 1],
                                       sample_weight=[0.3, 0.3, 0.3, 0.1])
    out["doc top_k"] = doc(K.TopKCategoricalAccuracy(k=1), [[0, 0, 1], [0, 1, 0]],
                           [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    out["doc sparse top_k"] = doc(K.SparseTopKCategoricalAccuracy(k=1), [2, 1],
                                  [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    out["sparse top_k tie"] = doc(K.SparseTopKCategoricalAccuracy(k=1), [0, 1],
                                  [[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]])
    weights = ((np.arange(24) % 3) + 1).astype(np.float32)
    for weighted in (False, True):
        for key, (metric, kind) in _metric_catalogue(tf).items():
            for lo, hi in ((0, 8), (8, 16), (16, 24)):
                _update(tf, metric, kind, lo, hi, weights if weighted else None)
            out[f"{key}{' weighted' if weighted else ''}"] = env.val(metric.result())
    return out


@scenario
def keras_metrics_mirrored(env):
    """The same metrics updated inside strategy.run on 2 replicas (each replica its half of each
    batch), read in cross-replica context: the counts are summed before the ratio."""
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(2))
    with strategy.scope():
        catalogue = _metric_catalogue(tf)
    ds = tf.data.Dataset.from_tensor_slices(np.arange(24, dtype=np.int64)).batch(8)

    def step(index):
        lo, hi = int(index[0]), int(index[-1]) + 1
        for metric, kind in catalogue.values():
            _update(tf, metric, kind, lo, hi)

    for batch in strategy.experimental_distribute_dataset(ds):
        strategy.run(step, args=(batch,))
    return {key: env.val(metric.result()) for key, (metric, _) in catalogue.items()}


@scenario
def keras_fit_metrics_mirrored(env):
    """Model.fit and evaluate on 4 replicas with Precision, Recall and AUC compiled in."""
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(4))
    with strategy.scope():
        model = _model(tf)
        model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                      optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                      metrics=[tf.keras.metrics.Precision(name="precision"),
                               tf.keras.metrics.Recall(name="recall"),
                               tf.keras.metrics.AUC(name="auc", from_logits=True)])
    history = model.fit(X, LABELS, batch_size=GLOBAL_BATCH, epochs=2, shuffle=False, verbose=0)
    evaluated = model.evaluate(X, LABELS, batch_size=GLOBAL_BATCH, verbose=0, return_dict=True)
    return {"history": {k: [float(v) for v in history.history[k]]
                        for k in ("precision", "recall", "auc")},
            "evaluate": {k: float(evaluated[k]) for k in ("precision", "recall", "auc")}}


JAC_X = (((np.arange(12).reshape(3, 4) * 5) % 7 - 3) / 4.0)
JAC_W = (((np.arange(8).reshape(4, 2) * 3) % 5 - 2) / 3.0)


@scenario
def tape_jacobians_and_edges(env):
    """GradientTape.jacobian / batch_jacobian (documented examples and a tanh layer in float64),
    persistent tapes and the documented edge cases."""
    tf = env.tf
    out = {}
    with tf.GradientTape() as g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    out["doc jacobian"] = env.val(g.jacobian(y, x))
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        g.watch(x)
        y = x * x
    out["doc batch_jacobian"] = env.val(g.batch_jacobian(y, x))
    w = tf.Variable(JAC_W)
    xs = tf.constant(JAC_X)
    unused = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = tf.tanh(tf.matmul(xs, w)) * 2.0
    out["jacobian wrt kernel"] = env.val(tape.jacobian(y, w))
    out["batch_jacobian wrt input"] = env.val(tape.batch_jacobian(y, xs))
    out["jacobian unconnected"] = str(tape.jacobian(y, unused))
    out["jacobian unconnected zero"] = env.val(
        tape.jacobian(y, unused, unconnected_gradients=tf.UnconnectedGradients.ZERO))
    out["gradient after jacobians"] = env.val(tape.gradient(y, w))
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 3.0
    tape.jacobian(y, x)
    out["second use"] = env.attempt(lambda: tape.gradient(y, x))
    v = tf.Variable(2.0)
    frozen = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * frozen
    out["non-trainable"] = str(tape.gradient(y, [v, frozen])[1])
    n = tf.constant(3)
    with tf.GradientTape() as tape:
        tape.watch(n)
        m = n * n
    out["integer source"] = str(tape.gradient(m, n))
    with tf.GradientTape() as tape:
        ys = [v * 2.0, v * 3.0]
    out["output_gradients"] = env.val(tape.gradient(ys, v, output_gradients=[1.0, 10.0]))
    return out


@scenario
def tape_higher_order(env):
    """Higher-order gradients as the autodiff guide and tf.GradientTape's docstring write them:
    nested tapes, a persistent tape differentiating its own gradient, an unconnected second
    derivative, the input-gradient penalty, a Hessian by jacobian of a gradient, and the second
    derivatives of common losses."""
    tf = env.tf
    x = tf.Variable(1.0)

    def second():
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x * x * x
            dy_dx = t1.gradient(y, x)
        return t2.gradient(dy_dx, x)
    out = {"d2y_dx2": env.attempt(second)}
    c = tf.constant(5.0)
    with tf.GradientTape() as g:
        g.watch(c)
        with tf.GradientTape() as gg:
            gg.watch(c)
            y = c * c
        dy_dc = gg.gradient(y, c)
    out["docstring"] = [env.val(dy_dc), env.val(g.gradient(dy_dc, c))]
    v = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = v ** 4
            d1 = t1.gradient(y, v)
        d2 = t2.gradient(d1, v)
    out["third"] = [env.val(d1), env.val(d2), env.val(t3.gradient(d2, v))]
    with tf.GradientTape(persistent=True) as t:
        t.watch(c)
        y = tf.sin(c) * c
        dy = t.gradient(y, c)
    out["persistent own gradient"] = [env.val(dy), env.val(t.gradient(dy, c))]
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * 2.0
        dy_dx = t1.gradient(y, x)
    out["unconnected"] = [env.val(dy_dx), str(t2.gradient(dy_dx, x))]
    inputs = tf.constant(JAC_X[:, :3])
    kernel = tf.Variable(JAC_W[:3] + 0.25)
    bias = tf.Variable(np.array([0.1, -0.2]))
    with tf.GradientTape() as t2:
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(inputs)
            penalty = tf.reduce_sum(tf.nn.relu(tf.matmul(inputs, kernel) + bias) ** 2)
        g1 = t1.gradient(penalty, inputs)
        g1_mag = tf.norm(g1)
    out["input gradient penalty"] = [env.val(g1_mag)] + [
        env.val(d) for d in t2.gradient(g1_mag, [kernel, bias])]
    w1 = tf.Variable(JAC_W[:3] - 0.1)
    w2 = tf.Variable(JAC_W[:2].T)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_mean(tf.tanh(tf.matmul(tf.sigmoid(tf.matmul(inputs, w1)), w2)) ** 2)
        g = t1.gradient(loss, w1)
    out["hessian"] = env.val(t2.jacobian(g, w1))
    logits_w = tf.Variable(JAC_W)
    labels = tf.constant([1, 0, 1])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            logits = tf.matmul(tf.constant(JAC_X), logits_w)
            sparse = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
            soft = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(
                labels=tf.one_hot(labels, 2, dtype=tf.float64), logits=logits * logits))
            sig = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(
                labels=tf.ones_like(logits) * 0.3, logits=logits))
            total = sparse + soft + tf.reduce_logsumexp(logits) + sig
        gw = t1.gradient(total, logits_w)
        along = tf.reduce_sum(gw * tf.constant(JAC_W[::-1]))
    out["loss hessian-vector"] = env.val(t2.gradient(along, logits_w))
    xs = tf.constant(JAC_X[:2, :2])
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = tf.exp(xs) * xs
        j = inner.batch_jacobian(y, xs)
        summed = tf.reduce_sum(j * j)
    out["batch_jacobian differentiated"] = [env.val(j), env.val(outer.gradient(summed, xs))]
    return out


@scenario
def keras_version_history_keys(env):
    """Keras-version-sensitive: the key LearningRateScheduler writes into History
    ('learning_rate' under Keras 3, 'lr' under tf-keras), with validation keys beside it."""
    tf = env.tf
    model = _model(tf)
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.05))
    history = model.fit(X, LABELS, batch_size=GLOBAL_BATCH, epochs=2, shuffle=False, verbose=0,
                        validation_data=(X, LABELS), callbacks=[
                            tf.keras.callbacks.LearningRateScheduler(lambda e, lr: 0.05 / (e + 1))])
    rate_key = "learning_rate" if "learning_rate" in history.history else "lr"
    return {"keys": sorted(history.history), "rates": [float(v) for v in history.history[rate_key]]}


def _first_lines(env, fn, n=2):
    """A result, or the error's type and its first ``n`` lines (sim adds its explanation after)."""
    try:
        return env.val(fn())
    except Exception as e:  # compared by the test
        return {"__error__": type(e).__name__, "message": "\n".join(str(e).splitlines()[:n])}


@scenario
def keras_version_loss_in_strategy_run(env):
    """Keras-version-sensitive: a SUM_OVER_BATCH_SIZE loss object called under a 2-replica
    MirroredStrategy (inside strategy.run and in its scope). tf-keras refuses it; Keras 3 divides
    each replica's mean by num_replicas_in_sync."""
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(env.devices(2))
    y_true = tf.constant([[1.0], [2.0]])
    y_pred = tf.constant([[0.0], [0.0]])
    default = tf.keras.losses.MeanSquaredError()
    explicit = tf.keras.losses.MeanSquaredError(reduction="sum_over_batch_size")
    summed = tf.keras.losses.MeanSquaredError(reduction="sum")
    none = tf.keras.losses.MeanSquaredError(reduction="none")

    def local(fn):
        return lambda: [env.val(v) for v in strategy.experimental_local_results(strategy.run(fn))]
    out = {"outside": env.val(default(y_true, y_pred))}
    for key, loss in (("default", default), ("explicit", explicit), ("sum", summed),
                      ("none", none)):
        out[key] = _first_lines(env, local(lambda loss=loss: loss(y_true, y_pred)))
    with strategy.scope():
        out["in scope"] = _first_lines(env, lambda: default(y_true, y_pred))
    return out


@scenario
def keras_version_metrics_names(env):
    """Keras-version-sensitive: model.metrics_names before compile, after compile, after fit,
    after recompiling with a metric and after evaluate; evaluate's list itself agrees."""
    tf = env.tf
    model = _model(tf)
    out = {"before compile": model.metrics_names}
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.05))
    out["compiled, no metrics"] = list(model.metrics_names)
    model.fit(X, LABELS, batch_size=GLOBAL_BATCH, epochs=1, shuffle=False, verbose=0)
    out["after fit"] = list(model.metrics_names)
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.05),
                  metrics=["mae"])
    out["compiled with mae"] = list(model.metrics_names)
    out["evaluate"] = [float(v) for v in model.evaluate(X, LABELS, batch_size=GLOBAL_BATCH,
                                                        verbose=0)]
    out["after evaluate"] = list(model.metrics_names)
    return out


def _rate(env, value):
    """What optimizer.learning_rate is: its kind, name (if any) and float value."""
    kind = "variable" if hasattr(value, "assign") else "tensor" if hasattr(value, "numpy") else \
        type(value).__name__
    return {"kind": kind, "name": getattr(value, "name", None) if kind == "variable" else None,
            "dtype": str(getattr(value.dtype, "name", value.dtype)) if hasattr(value, "dtype") else None,
            "value": float(value)}


@scenario
def keras_version_learning_rate(env):
    """Keras-version-sensitive: optimizer.learning_rate for a float rate (a float32 variable,
    named 'learning_rate' or 'learning_rate:0') and under ExponentialDecay (Keras 3: the current
    step's rate as a tensor; tf-keras: 'current_learning_rate:0', the last applied rate), before
    and after steps; assigning to the variable; setting a rate on a scheduled optimizer."""
    tf = env.tf
    v = tf.Variable([1.0, 2.0])
    grad = tf.constant([0.5, -1.0])
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)
    out = {"float": _rate(env, opt.learning_rate)}
    opt.learning_rate.assign(0.5)
    opt.apply_gradients([(grad, v)])
    out["after assign"] = [_rate(env, opt.learning_rate), env.val(v)]
    opt.learning_rate = 0.25
    opt.apply_gradients([(grad, v)])
    out["after set"] = [_rate(env, opt.learning_rate), env.val(v)]
    scheduled = tf.keras.optimizers.SGD(
        learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))
    out["schedule"] = [_rate(env, scheduled.learning_rate)]
    for _ in range(2):
        scheduled.apply_gradients([(grad, v)])
        out["schedule"].append(_rate(env, scheduled.learning_rate))
    out["weights"] = env.val(v)
    out["set on schedule"] = env.attempt(lambda: setattr(scheduled, "learning_rate", 0.5))
    return out


@scenario
def data_choose_and_sample(env):
    """choose_from_datasets (the API documentation's example, stopping on or skipping an
    emptied dataset, its errors) and what sample_from_datasets guarantees whatever the random
    stream: every element once, each dataset in order, weights that leave one dataset, errors."""
    tf = env.tf
    D = tf.data.Dataset

    def values(ds):
        return [v.decode() if isinstance(v, bytes) else v.tolist()
                for v in (x.numpy() for x in ds)]

    def error(fn):
        try:
            fn()
        except Exception as e:  # compared by the test: type and TensorFlow's own sentence
            text = str(e)
            if "Selector" in text:  # TensorFlow wraps the kernel's sentence in the op's names
                return [type(e).__name__, text[text.find("Selector"):].split(" [Op:")[0]]
            return [type(e).__name__, text.splitlines()[0]]
        return "no error"
    words = [D.from_tensors(s).repeat() for s in ["foo", "bar", "baz"]]
    out = {"doc": values(D.choose_from_datasets(words, D.range(3).repeat(3)))}
    a, b = D.range(0, 3), D.range(100, 105)
    choices = D.from_tensor_slices(tf.constant([0, 0, 0, 0, 1, 1], tf.int64))
    chosen = D.choose_from_datasets([a, b], choices)
    out["stop"] = [values(chosen), int(chosen.cardinality())]
    out["skip"] = values(D.choose_from_datasets([a, b], choices, stop_on_empty_dataset=False))
    out["shapes"] = tf.data.experimental.choose_from_datasets(
        [D.from_tensors([1, 2]), D.from_tensors([1, 2, 3])], D.range(2)).element_spec.shape.as_list()
    out["out of range"] = error(lambda: values(D.choose_from_datasets(
        [a, b], D.from_tensor_slices(tf.constant([0, 2], tf.int64)))))
    out["int32 choices"] = error(lambda: D.choose_from_datasets(
        [a, b], D.from_tensor_slices(tf.constant([0, 1], tf.int32))))
    out["no datasets"] = error(lambda: D.choose_from_datasets([], D.range(2)))
    out["incompatible"] = error(lambda: D.choose_from_datasets([a, D.from_tensors("x")], D.range(2)))
    mixed = values(D.sample_from_datasets([D.range(0, 20), D.range(100, 120)], [0.3, 0.7], seed=5))
    out["sample"] = [sorted(mixed), [x for x in mixed if x < 100], [x for x in mixed if x >= 100]]
    only = D.sample_from_datasets([a, b], weights=[1.0, 0.0])
    out["one weight"] = [values(only), int(only.cardinality())]
    out["negative weight"] = values(D.sample_from_datasets([a, b], weights=[0.5, -1.0]))
    stopped = values(D.sample_from_datasets([a, D.range(100, 200)], seed=1,
                                            stop_on_empty_dataset=True))
    out["stop on empty"] = [x for x in stopped if x < 100]
    out["weights length"] = error(lambda: D.sample_from_datasets([a, b], weights=[0.5]))
    out["sample spec"] = str(tf.data.experimental.sample_from_datasets([a, b]).element_spec.dtype.name)
    return out


AUC_TRUE = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]], np.float32)
AUC_PRED = (((np.arange(15).reshape(5, 3) * 7) % 11) / 10.0).astype(np.float32)


@scenario
def keras_auc_multi_label(env):
    """AUC over several labels: multi_label (one curve per label, averaged, or weighted by
    label_weights; num_labels given or found at the first update), label_weights weighing the
    labels of a single curve, ROC and PR, with and without sample weights, two updates."""
    tf = env.tf
    out = {}
    for key, kwargs in {
        "multi ROC": dict(multi_label=True),
        "multi ROC 3 labels": dict(multi_label=True, num_labels=3),
        "multi PR": dict(multi_label=True, curve="PR"),
        "multi weighted": dict(multi_label=True, label_weights=[0.2, 0.0, 0.8]),
        "multi PR minoring": dict(multi_label=True, curve="PR", summation_method="minoring",
                                  num_thresholds=7),
        "single label weights": dict(label_weights=[1.0, 0.5, 2.0]),
        "single label weights PR": dict(label_weights=[1.0, 0.5, 2.0], curve="PR"),
    }.items():
        m = tf.keras.metrics.AUC(**kwargs)
        m.update_state(AUC_TRUE, AUC_PRED)
        first = float(m.result())
        m.update_state(AUC_TRUE[::-1], AUC_PRED, sample_weight=[1.0, 2.0, 0.5, 0.0, 1.5])
        out[key] = [first, float(m.result()), [list(v.shape) for v in m.variables]]
    return out


@scenario
def keras_version_loss_reductions(env):
    """Keras-version-sensitive: a loss's default reduction, the reductions each version accepts
    ('auto' in tf-keras; 'mean', 'mean_with_sample_weight' and None in Keras 3) and what they
    compute with sample weights; the rejected ones raise each version's ValueError."""
    tf = env.tf
    y_true = tf.constant([[1.0], [2.0], [3.0]])
    y_pred = tf.constant([[0.0], [0.0], [1.0]])
    weights = tf.constant([1.0, 0.5, 0.0])
    out = {"default": tf.keras.losses.MeanSquaredError().reduction,
           "config": tf.keras.losses.MeanSquaredError().get_config()["reduction"]}
    for reduction in ["auto", "none", "sum", "sum_over_batch_size", "mean",
                      "mean_with_sample_weight", None]:
        def compute(reduction=reduction):
            loss = tf.keras.losses.MeanSquaredError(reduction=reduction)
            return [env.val(loss(y_true, y_pred)), env.val(loss(y_true, y_pred, sample_weight=weights))]
        result = _first_lines(env, compute, 1)
        if isinstance(result, dict) and "{" in result["message"]:  # Keras 3 prints a Python set:
            head, rest = result["message"].split("{", 1)           # its order follows the hash
            items, tail = rest.split("}", 1)                       # seed, so compare it sorted
            result["message"] = head + "{" + ", ".join(sorted(items.split(", "))) + "}" + tail
        out[str(reduction)] = result
    return out


@scenario
def tape_higher_order_mirrored(env):
    """A gradient penalty (as WGAN-GP writes it) inside strategy.run on 4 replicas: the norm of
    the input gradient, differentiated again with respect to mirrored weights, then applied.
    (ReductionToOneDevice: TensorFlow's collective ops in one process reuse their instance keys
    across strategies, so other shapes than the earlier scenarios' would collide.)"""
    tf = env.tf
    strategy = tf.distribute.MirroredStrategy(
        env.devices(4), cross_device_ops=tf.distribute.ReductionToOneDevice())
    with strategy.scope():
        w1 = tf.Variable(JAC_W[:, :2].astype(np.float32) + 0.3)       # 4 x 2
        w2 = tf.Variable(np.array([[0.5], [-1.0]], np.float32))
        opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    inputs = tf.data.Dataset.from_tensor_slices(JAC_X[:, :4].astype(np.float32).repeat(4, 0)).batch(8)
    dist = strategy.experimental_distribute_dataset(inputs)

    def step(x):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.matmul(tf.tanh(tf.matmul(x, w1)), w2)
            g = inner.gradient(y, x)
            per_example = tf.square(tf.norm(g, axis=1) - 1.0)
            penalty = tf.nn.compute_average_loss(per_example, global_batch_size=8)
        grads = outer.gradient(penalty, [w1, w2])
        opt.apply_gradients(zip(grads, [w1, w2]))
        return penalty
    losses = []
    for x in dist:
        losses.append(float(strategy.reduce("SUM", strategy.run(step, args=(x,)), axis=None)))
    return {"penalties": losses, "w1": env.val(w1), "w2": env.val(w2)}


@scenario
def keras_version_metric_variable_names(env):
    """Keras-version-sensitive: metric variables' names ('true_positives' under Keras 3,
    'true_positives:0' under tf-keras), Keras 3's paths (the metric's unique name, compared
    without its '_1' counter, which depends on what the process made before) and AUC's order."""
    import re
    tf = env.tf

    def names(metric):
        return [[v.name, None if getattr(v, "path", None) is None
                 else re.sub(r"_\d+/", "/", v.path)] for v in metric.variables]
    out = {"precision": names(tf.keras.metrics.Precision()),
           "mean named": names(tf.keras.metrics.Mean(name="my_mean")),
           "auc": names(tf.keras.metrics.AUC(num_thresholds=3))}
    strategy = tf.distribute.MirroredStrategy(env.devices(2))
    with strategy.scope():
        out["recall in scope"] = names(tf.keras.metrics.Recall())
    return out


@scenario
def keras_version_optimizer_arguments(env):
    """Keras-version-sensitive: the Keras 2 optimizer arguments the seeds use. Keras 3 has no
    tf.keras.optimizers.legacy (ImportError), refuses lr= and drops decay=; tf-keras's legacy
    optimizers take both, its new ones ignore lr= and refuse decay=; optimizer.lr."""
    import warnings
    tf = env.tf

    def rate(make):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _first_lines(env, lambda: float(make().learning_rate), 1)
    out = {"legacy SGD": rate(lambda: tf.keras.optimizers.legacy.SGD(0.1)),
           "legacy lr decay": rate(lambda: tf.keras.optimizers.legacy.SGD(lr=0.1, decay=0.5)),
           "SGD lr": rate(lambda: tf.keras.optimizers.SGD(lr=0.1)),
           "SGD decay": rate(lambda: tf.keras.optimizers.SGD(0.1, decay=0.5)),
           "Adam lr": rate(lambda: tf.keras.optimizers.Adam(lr=0.1))}
    opt = tf.keras.optimizers.SGD(0.1)
    out["has lr"] = hasattr(opt, "lr")
    opt.lr = 0.5
    out["after opt.lr = 0.5"] = float(opt.learning_rate)
    return out


@scenario
def keras_version_weight_names(env):
    """Keras-version-sensitive: layer weight names as each Keras writes them ('kernel' with the
    path 'seq/dense/kernel' under Keras 3; 'dense/kernel:0' under tf-keras, whose name scopes
    skip Sequential and functional models but keep a subclassed model's), their repr (plain and
    under MirroredStrategy), a metric variable's and optimizer.iterations' repr, and a model
    made outside the strategy scope (tf-keras refuses it at compile, Keras 3 at the first step).
    Layers and models are named, so no name counter shared with other scenarios matters."""
    import re
    tf = env.tf
    L = tf.keras.layers

    def names(variables):
        return [[v.name, getattr(v, "path", None)] for v in variables]

    seq = tf.keras.Sequential([tf.keras.Input((2,)), L.Dense(2, kernel_initializer="ones",
                                                             name="w_dense")], name="w_seq")
    out = {"sequential": names(seq.weights), "trainable": names(seq.trainable_variables),
           "kernel repr": repr(seq.layers[0].kernel), "bias str": str(seq.layers[0].bias)}
    conv = L.Conv2D(2, 3, name="w_conv")
    conv.build((None, 5, 5, 1))
    emb = L.Embedding(10, 2, name="w_emb")
    emb.build((None,))
    out["built directly"] = names(conv.weights + emb.weights)
    inp = tf.keras.Input((1,))
    fun = tf.keras.Model(inp, L.Dense(1, name="w_head")(L.Dense(2, name="w_hidden")(inp)),
                         name="w_fun")
    out["functional"] = names(fun.weights)
    inner = tf.keras.Sequential([L.Dense(2, name="w_in")], name="w_inner")
    out["nested"] = names(tf.keras.Sequential([tf.keras.Input((1,)), inner, L.Dense(1, name="w_top")],
                                              name="w_outer").weights)

    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__(name="w_sub")
            self.first = L.Dense(2, name="w_first")

        def call(self, x):
            return self.first(x)
    sub = Sub()
    sub(tf.ones((1, 1)))
    out["subclassed"] = names(sub.weights)
    lazy = tf.keras.Sequential([L.Dense(1, name="w_lazy")], name="w_fit")
    lazy.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))
    lazy.fit(X, LABELS, batch_size=GLOBAL_BATCH, epochs=1, shuffle=False, verbose=0)
    out["built by fit"] = names(lazy.weights)
    out["iterations"] = re.sub(r"sgd_\d+/", "sgd/", repr(lazy.optimizer.iterations))
    out["metric variable"] = repr(tf.keras.metrics.Mean(name="w_mean").variables[0])

    strategy = tf.distribute.MirroredStrategy(   # no collectives: their keys would collide
        env.devices(2), cross_device_ops=tf.distribute.ReductionToOneDevice())   # (see above)
    with strategy.scope():
        mirrored = tf.keras.Sequential([tf.keras.Input((1,)), L.Dense(2, kernel_initializer="ones",
                                                                       name="m_dense")], name="m_seq")
    out["mirrored"] = names(mirrored.trainable_variables)
    out["mirrored kernel repr"] = repr(mirrored.layers[0].kernel)   # before any step: exact
    with strategy.scope():
        mirrored.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))
        mean = tf.keras.metrics.Mean(name="m_mean")
    mirrored.fit(X[:8, :1], LABELS[:8], batch_size=8, epochs=1, shuffle=False, verbose=0)
    out["mirrored types"] = {   # Keras 3 wraps each distributed variable in its own Variable
        "weights": [type(v).__name__ for v in mirrored.weights],
        "metric": [type(v).__name__ for v in mean.variables],
        "iterations": type(mirrored.optimizer.iterations).__name__}

    outside = tf.keras.Sequential([L.Dense(1, input_shape=(1,), name="o_dense")], name="o_seq")

    def error(fn):
        try:
            fn()
        except Exception as e:   # the type, and the variable a tf-keras message names
            return {"type": type(e).__name__, "names": str(e).split(" shape=")[0]
                    if str(e).startswith("Variable (") else None}
        return "ok"
    with strategy.scope():
        out["outside: compile"] = error(lambda: outside.compile(loss="mse", optimizer="sgd"))
    ones = np.ones((4, 1), np.float32)
    out["outside: fit"] = error(lambda: outside.fit(ones, ones, verbose=0))
    out["outside: train_on_batch"] = error(lambda: outside.train_on_batch(ones, ones))
    out["outside: evaluate"] = error(lambda: outside.evaluate(ones, ones, verbose=0))
    return out


@scenario
def keras_version_model_metrics(env):
    """Keras-version-sensitive: model.metrics before and after compile and fit (Keras 3: the
    loss tracker and one CompileMetrics whose result is a dict; tf-keras: each metric, once a
    step has built them), their results, variables, reset_metrics and evaluate's dict."""
    tf = env.tf
    x = (np.arange(8, dtype=np.float32).reshape(8, 1) / 8)
    y = 2 * x + 1

    def listed(model):
        return [[type(m).__name__, m.name] for m in model.metrics]

    def result(m):
        r = m.result()
        return {k: float(v) for k, v in r.items()} if isinstance(r, dict) else float(r)
    model = tf.keras.Sequential([tf.keras.Input((1,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    out = {"before compile": listed(model)}
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))
    out["compiled, no metrics"] = listed(model)
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1),
                  metrics=["mae", tf.keras.metrics.RootMeanSquaredError()])
    out["compiled"] = listed(model)
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out["after fit"] = listed(model)
    out["results"] = [result(m) for m in model.metrics]
    out["variables"] = [[v.name for v in m.variables] for m in model.metrics]
    out["inner metrics"] = [[s.name for s in getattr(m, "metrics", [])] for m in model.metrics]
    model.reset_metrics()
    out["after reset"] = [result(m) for m in model.metrics]
    out["evaluate"] = {k: float(v) for k, v in model.evaluate(x, y, verbose=0, return_dict=True).items()}
    return out


@scenario
def keras_version_optimizer_variables(env):
    """Keras-version-sensitive: optimizer slot variable names and order (Keras 3:
    'o_seq_o_dense_kernel_momentum', path 'adam/...'; tf-keras: 'Adam/m/o_dense/kernel:0') for
    Adam and RMSprop on a model, SGD with momentum on a plain tf.Variable, after 'iteration'
    (and, in Keras 3, 'learning_rate'; not under a schedule); tf-keras's legacy optimizers."""
    import re
    tf = env.tf

    def slots(opt):
        return [[v.name, None if getattr(v, "path", None) is None else re.sub(r"_\d+/", "/", v.path)]
                for v in opt.variables]
    out = {}
    for key, opt in (("adam", tf.keras.optimizers.Adam(0.01)),
                     ("rmsprop", tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True))):
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, name="o_dense")],
                                    name="o_seq")
        model.compile(loss="mse", optimizer=opt)
        model.fit(X[:4, :2], LABELS[:4], batch_size=4, epochs=1, shuffle=False, verbose=0)
        out[key] = slots(opt)
    scheduled = tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))
    scheduled.apply_gradients([(tf.constant([1.0]), tf.Variable([1.0], name="s"))])
    out["scheduled sgd"] = slots(scheduled)
    sgd = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    w = tf.Variable([1.0, 2.0], name="w")
    sgd.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    out["sgd on tf.Variable"] = slots(sgd)
    out["sgd weights"] = env.val(w)

    def legacy():   # optimizer_v2 (tf-keras only; Keras 3 raises its ImportError)
        names = []
        for opt in (tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9),
                    tf.keras.optimizers.legacy.Adam(0.1),
                    tf.keras.optimizers.legacy.RMSprop(0.1, momentum=0.5, centered=True)):
            a, b = tf.Variable([1.0], name="legacy_a"), tf.Variable([1.0], name="legacy_b")
            opt.apply_gradients([(tf.constant([1.0]), a), (tf.constant([1.0]), b)])
            names.append([v.name for v in opt.variables()])
        return names
    try:
        out["legacy sgd"] = legacy()
    except ImportError as e:   # compared by the test
        out["legacy sgd"] = {"__error__": type(e).__name__, "message": str(e).splitlines()[0]}
    return out
