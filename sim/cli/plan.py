"""``python -m sim plan``: which cluster, strategy and batch reach the target soonest, and which
cheapest? Steps to target (a recipe's published convergence, or your own curve) x simulated time
per step, ranked.

    python -m sim plan --model resnet50 --recipe goyal-sgd --machines dgx1-p100 --nodes 1,2,4,8,16 \
        --networks 10gbe,edr-ib --strategies mirrored-nccl,ps-async --price 2.5 --budget 500
    python -m sim plan --recipe mlperf-lars --epochs 40        # what does a 40-epoch budget reach?
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from sim.cli.list_flags import LIST, pieces, whole_numbers
from sim.i18n import t
from sim.plan.candidates import STRATEGIES


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (no usage block) and exit status 2."""

    def error(self, message):
        self.exit(2, t("plan.cli_error", message=message) + "\n")


def _counts(flag: str):
    return whole_numbers(flag, "plan.bad_list")


def _number(flag: str, example: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value >= 0):
            raise argparse.ArgumentTypeError(t("plan.bad_number", flag=flag, value=text, example=example))
        return value
    return parse


def _top(text: str) -> int:
    if not str(text).isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(t("plan.bad_top", value=text))
    return int(text)


def _names(flag: str, example: str):
    def parse(text: str) -> list:
        names = [v.strip() for v in pieces(text)]
        if not names:
            raise argparse.ArgumentTypeError(t("plan.empty_list", flag=flag, example=example))
        return names
    return parse


def _whole_list(flag: str):
    return whole_numbers(flag, "plan.bad_list0", low=0)


def _recipe(text: str) -> str:
    from sim.plan.recipes import recipe
    try:
        return recipe(text).name
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _positive(flag: str, example: str):
    number = _number(flag, example)

    def parse(text: str) -> float:
        value = number(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(t("plan.bad_positive", flag=flag, value=text, example=example))
        return value
    return parse


def parser() -> argparse.ArgumentParser:
    from sim.cli.scale import MACHINE_NODES
    from sim.hardware.networks import network_names
    from sim.plan.recipes import RECIPES
    from sim.scaling.lr_rules import RULES
    from sim.cli.limits import plan_limits_text
    ap = _Parser(prog="python -m sim plan", description=t("plan.cli_help"), epilog=plan_limits_text())
    ap.add_argument("--model", default=None,
                    help="a sim.workloads model (default: the recipe's own, resnet50 for goyal-sgd)")
    ap.add_argument("--recipe", type=_recipe, default=None, metavar="|".join(RECIPES),
                    help="where the steps come from: a recipe's published epochs to the target per "
                         "batch (goyal-sgd: SGD momentum, linear rule, warmup, Goyal et al. 2017; "
                         "mlperf-lars: LARS, MLPerf reference convergence points; mlperf-lamb: "
                         "BERT-Large with LAMB, MLPerf reference convergence points); default goyal-sgd "
                         "(or the recipe of --model); a unique part of a name works: lamb, lars, goyal")
    ap.add_argument("--epochs", type=_positive("--epochs", "40"), default=None,
                    help="a fixed budget in epochs (in training sequences for mlperf-lamb): every "
                         "plan trains that long, and the table says which reach the recipe's target "
                         "(!: not reached)")
    ap.add_argument("--backups", type=_whole_list("--backups"), default=[0], **LIST,
                    help="backup workers of ps-sync (TF1 SyncReplicasOptimizer, history): "
                         "the first N of N + b gradients are used each step")
    ap.add_argument("--machines", type=_names("--machines", "dgx1-p100,big-basin"), default=["dgx1-p100"], **LIST,
                    help=", ".join(MACHINE_NODES))
    from sim.workloads.roofline import DEFAULT_PRECISION, PRECISIONS
    ap.add_argument("--machine-file", default=None, metavar="FILE.toml",
                    help="your own node and network (docs/machine_files.md); replaces --machines")
    ap.add_argument("--precision", default=DEFAULT_PRECISION, metavar="|".join(PRECISIONS),
                    help=f"the Keras policy steps compute in (default {DEFAULT_PRECISION})")
    ap.add_argument("--nodes", type=_counts("--nodes"), default=[1, 2, 4, 8, 16], **LIST)
    ap.add_argument("--networks", type=_names("--networks", "10gbe,edr-ib"), default=[None], **LIST, help=", ".join(network_names()))
    ap.add_argument("--gpus", type=_counts("--gpus"), default=[None], **LIST, help="GPUs used per node")
    ap.add_argument("--strategies", type=_names("--strategies", "mirrored-nccl,ps-async"), **LIST,
                    default=["mirrored-nccl", "ps-sync", "ps-async"],
                    help=", ".join(STRATEGIES) + " (ps-async: TF2 ParameterServerStrategy; "
                         "ps-sync: TF1 SyncReplicasOptimizer, history)")
    ap.add_argument("--ps", type=_counts("--ps"), default=[None], **LIST,
                    help="parameter-server tasks (default: one per node)")
    ap.add_argument("--batch-per-device", type=_counts("--batch-per-device"), default=[32, 64], **LIST)
    ap.add_argument("--price", type=_number("--price", "2.5"), default=2.5,
                    help="price per device-hour")
    ap.add_argument("--rank", choices=("time", "cost"), default="time")
    ap.add_argument("--budget", type=_number("--budget", "500"), default=None)
    ap.add_argument("--deadline", type=_number("--deadline", "12"), default=None, help="hours")
    ap.add_argument("--s-min", type=_number("--s-min", "3000"), default=None,
                    help="steps to target at a huge batch (with --b-crit: your own curve)")
    ap.add_argument("--b-crit", type=_number("--b-crit", "8192"), default=None, help="critical batch")
    ap.add_argument("--target", default=None, help="what the curve's target is, in words")
    ap.add_argument("--rule", choices=[r for r in RULES if r != "guide"], default=None)
    ap.add_argument("--base-lr", type=_number("--base-lr", "0.1"), default=None)
    ap.add_argument("--base-batch", type=_counts("--base-batch"), default=None)
    ap.add_argument("--top", type=_top, default=15, help="rows shown")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    return ap


def check_arguments(args) -> None:
    """Raise a ValueError naming the first argument that cannot work, and its fix."""
    from sim.cli.scale import MACHINE_NODES
    from sim.hardware.networks import network
    from sim.plan.candidates import check_strategy
    from sim.plan.recipes import RECIPES
    from sim.hardware import read_machine_file
    from sim.workloads import workload
    from sim.workloads.roofline import check_precision
    if args.model is not None:
        workload(args.model)
    from sim.cli.limits import check_plan
    check_plan(args)
    check_precision(args.precision)
    if args.machine_file is not None:
        args.machines = [read_machine_file(args.machine_file)]
    for m in args.machines:
        if isinstance(m, str) and m not in MACHINE_NODES:
            raise ValueError(t("plan.bad_machine", name=m, known=", ".join(MACHINE_NODES)))
    for n in args.networks:
        if n is not None:
            network(n)
    for s in args.strategies:
        check_strategy(s)
    if (args.s_min is None) != (args.b_crit is None):
        raise ValueError(t("plan.curve_pair"))
    if args.s_min is not None and args.recipe is not None:
        raise ValueError(t("plan.recipe_and_curve"))
    if args.s_min is not None and args.epochs is not None:
        raise ValueError(t("plan.epochs_needs_recipe"))
    if args.s_min is not None:
        args.model = args.model or "resnet50"
        return
    from sim.plan.ranking import check_model
    if args.recipe is None and args.model is not None:       # the first recipe of that model
        same = [r.name for r in RECIPES.values() if workload(r.model).name == workload(args.model).name]
        if not same:
            raise ValueError(t("plan.no_curve", model=args.model))
        args.recipe = same[0]
    args.recipe = args.recipe or "goyal-sgd"
    args.model = args.model or RECIPES[args.recipe].model
    check_model(args.model, RECIPES[args.recipe])


def curve_of(args):
    from dataclasses import replace
    from sim.plan.recipes import recipe
    from sim.plan.steps_curve import StepsCurve
    if args.s_min is None:
        return recipe(args.recipe or "goyal-sgd")
    curve = StepsCurve(args.s_min, args.b_crit, args.target or "?", "assumed", "--s-min/--b-crit")
    changes = {k: v for k, v in (("rule", args.rule), ("base_learning_rate", args.base_lr),
                                 ("base_batch", args.base_batch and args.base_batch[0]),
                                 ("target", args.target)) if v is not None}
    return replace(curve, **changes)


def rows_json(rows) -> list:
    out = []
    for r in rows:
        c = r.candidate
        out.append({"machine": str(c.machine), "nodes": c.nodes, "network": c.network, "gpus": c.gpus,
                    "devices": c.devices, "strategy": c.strategy, "tf_strategy": c.tf_name, "ps": c.ps,
                    "backups": c.backups, "update_batch": c.update_batch,
                    "batch_per_device": c.batch_per_device, "learning_rate": r.learning_rate,
                    "warmup_steps": r.warmup_steps, "status": r.status, "epochs": r.epochs,
                    "async_slowdown": r.asynchrony.slowdown if r.asynchrony else None,
                    "staleness": r.asynchrony.tau if r.asynchrony else None,
                    "steps": r.steps if r.reaches else None,
                    "step_seconds": r.step.seconds, "seconds": r.seconds if r.reaches else None,
                    "cost": r.cost if r.reaches else None, "sources": r.sources})
    return out


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        check_arguments(args)
        from sim.plan import Plan, grid, make_plan, model_step
        from sim.plan.table import render
        candidates = grid(args.machines, args.nodes, args.networks, args.gpus, args.strategies,
                          args.batch_per_device, args.ps, args.backups)
        step_of = lambda c: model_step(args.model, c, args.precision)  # noqa: E731
        plan = make_plan(step_of, curve_of(args), candidates, args.price, args.rank, args.epochs)
    except ValueError as err:
        print(t("plan.cli_error", message=err), file=sys.stderr)
        return 2
    total = len(plan.rows)
    if args.budget is not None or args.deadline is not None:
        plan = Plan(plan.within(args.budget, args.deadline), plan.curve, plan.rank_by, plan.epochs)
    if args.json:
        print(json.dumps(rows_json(plan.rows), indent=1))
        return 0
    target = t(f"plan.target_{plan.curve.name}") if hasattr(plan.curve, "points") else plan.curve.target
    print(t("plan.cli_header", model=args.model, target=target, n=total,
            rank_by=t(f"plan.rank_{args.rank}"), price=args.price))
    if args.budget is not None or args.deadline is not None:
        parts = ([t("plan.budget_part", budget=args.budget)] if args.budget is not None else []) + \
            ([t("plan.deadline_part", hours=args.deadline)] if args.deadline is not None else [])
        from sim.i18n import join_list
        print(t("plan.budget_line", what=join_list(parts), n=len(plan.rows), total=total))
        if not plan.rows:
            print(t("plan.nothing_fits"))
            return 0
    print(render(plan, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
