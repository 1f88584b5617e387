"""``python -m sim plan``: which cluster, strategy and batch reach the target soonest, and which
cheapest? Steps to target (a steps-versus-batch curve) x simulated time per step, ranked.

    python -m sim plan --model resnet50 --machines dgx1-p100 --nodes 1,2,4,8,16 \
        --networks 10gbe,edr-ib --strategies mirrored-nccl,ps-async --price 2.5 --budget 500
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from sim.i18n import t
from sim.plan.candidates import STRATEGIES


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (no usage block) and exit status 2."""

    def error(self, message):
        self.exit(2, t("plan.cli_error", message=message) + "\n")


def _counts(flag: str):
    def parse(text: str) -> list:
        try:
            values = [int(v) for v in str(text).split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(t("plan.bad_list", flag=flag, value=text)) from None
        if min(values) < 1:
            raise argparse.ArgumentTypeError(t("plan.bad_list", flag=flag, value=text))
        return values
    return parse


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
        names = [v for v in str(text).split(",") if v]
        if not names:
            raise argparse.ArgumentTypeError(t("plan.empty_list", flag=flag, example=example))
        return names
    return parse


def parser() -> argparse.ArgumentParser:
    from sim.cli.scale import MACHINE_NODES
    from sim.hardware.networks import network_names
    from sim.scaling.lr_rules import RULES
    from sim.cli.limits import plan_limits_text
    ap = _Parser(prog="python -m sim plan", description=t("plan.cli_help"), epilog=plan_limits_text())
    ap.add_argument("--model", default="resnet50", help="a sim.workloads model")
    ap.add_argument("--machines", type=_names("--machines", "dgx1-p100,big-basin"), default=["dgx1-p100"], help=", ".join(MACHINE_NODES))
    ap.add_argument("--nodes", type=_counts("--nodes"), default=[1, 2, 4, 8, 16])
    ap.add_argument("--networks", type=_names("--networks", "10gbe,edr-ib"), default=[None], help=", ".join(network_names()))
    ap.add_argument("--gpus", type=_counts("--gpus"), default=[None], help="GPUs used per node")
    ap.add_argument("--strategies", type=_names("--strategies", "mirrored-nccl,ps-async"),
                    default=["mirrored-nccl", "ps-sync", "ps-async"],
                    help=", ".join(STRATEGIES))
    ap.add_argument("--ps", type=_counts("--ps"), default=[None],
                    help="parameter-server tasks (default: one per node)")
    ap.add_argument("--batch-per-device", type=_counts("--batch-per-device"), default=[32, 64])
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
    from sim.plan.steps_curve import CURVES
    from sim.workloads import workload
    workload(args.model)
    from sim.cli.limits import check_plan
    check_plan(args)
    for m in args.machines:
        if m not in MACHINE_NODES:
            raise ValueError(t("plan.bad_machine", name=m, known=", ".join(MACHINE_NODES)))
    for n in args.networks:
        if n is not None:
            network(n)
    for s in args.strategies:
        check_strategy(s)
    if (args.s_min is None) != (args.b_crit is None):
        raise ValueError(t("plan.curve_pair"))
    if args.s_min is None and args.model not in CURVES:
        raise ValueError(t("plan.no_curve", model=args.model))


def curve_of(args):
    from dataclasses import replace
    from sim.plan.steps_curve import CURVES, StepsCurve
    if args.s_min is not None:
        curve = StepsCurve(args.s_min, args.b_crit, args.target or "?", "assumed", "--s-min/--b-crit")
    else:
        curve = CURVES[args.model]
    changes = {k: v for k, v in (("rule", args.rule), ("base_learning_rate", args.base_lr),
                                 ("base_batch", args.base_batch and args.base_batch[0]),
                                 ("target", args.target)) if v is not None}
    return replace(curve, **changes)


def rows_json(rows) -> list:
    out = []
    for r in rows:
        c = r.candidate
        out.append({"machine": c.machine, "nodes": c.nodes, "network": c.network, "gpus": c.gpus,
                    "devices": c.devices, "strategy": c.strategy, "tf_strategy": c.tf_name, "ps": c.ps,
                    "batch_per_device": c.batch_per_device, "learning_rate": r.learning_rate,
                    "warmup_steps": r.warmup_steps,
                    "steps": r.steps if r.reaches else None, "staleness_steps": r.staleness_steps,
                    "step_seconds": r.step.seconds, "seconds": r.seconds if r.reaches else None,
                    "cost": r.cost if r.reaches else None, "sources": r.sources})
    return out


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        check_arguments(args)
        from sim.plan import Plan, grid, make_plan
        from sim.plan.table import render
        candidates = grid(args.machines, args.nodes, args.networks, args.gpus, args.strategies,
                          args.batch_per_device, args.ps)
        plan = make_plan(args.model, curve_of(args), candidates, args.price, args.rank)
    except ValueError as err:
        print(t("plan.cli_error", message=err), file=sys.stderr)
        return 2
    total = len(plan.rows)
    if args.budget is not None or args.deadline is not None:
        plan = Plan(plan.within(args.budget, args.deadline), plan.curve, plan.rank_by)
    if args.json:
        print(json.dumps(rows_json(plan.rows), indent=1))
        return 0
    print(t("plan.cli_header", model=args.model, target=plan.curve.target, n=total,
            rank_by=t(f"plan.rank_{args.rank}"), price=args.price))
    if args.budget is not None or args.deadline is not None:
        parts = ([t("plan.budget_part", budget=args.budget)] if args.budget is not None else []) + \
            ([t("plan.deadline_part", hours=args.deadline)] if args.deadline is not None else [])
        print(t("plan.budget_line", what=", ".join(parts), n=len(plan.rows), total=total))
        if not plan.rows:
            print(t("plan.nothing_fits"))
            return 0
    print(render(plan, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
