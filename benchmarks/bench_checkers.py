"""Wall time of privlab's exact checkers and of the staircase optimiser.

    python benchmarks/bench_checkers.py
    python benchmarks/bench_checkers.py --repeats 3 --eps 0.1 1 5 --json

* ``privlab.verify.check_pure_dp`` on the optimal staircase, Laplace and the broken controls
  (the verdict is printed beside the time: a fast wrong answer is no answer);
* ``privlab.verify.compare`` (staircase vs Laplace, the thesis's optimality order);
* ``Staircase.optimal(eps, objective=…)`` for each objective.

A checker module that does not exist yet (or fails to import) is skipped with a message.
Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    Row,
    best_of,
    dump_json,
    format_table,
    log,
    machine_info,
    print_machine,
    rows_to_json,
)

from privlab.mechanisms.noise._base import OBJECTIVES
from privlab.mechanisms.noise.controls import (
    HalfScaleLaplace,
    HalfWidthStaircase,
    WrongRatioStaircase,
)
from privlab.mechanisms.noise.laplace import Laplace
from privlab.mechanisms.noise.staircase import Staircase


def _verify_attr(name: str) -> tuple[Callable[..., Any] | None, str]:
    try:
        mod = importlib.import_module("privlab.verify")
    except Exception as exc:
        return None, f"privlab.verify failed to import: {exc!r}"
    fn = getattr(mod, name, None)
    if fn is None:  # not re-exported (yet): look for a submodule of the same name
        try:
            sub = importlib.import_module(f"privlab.verify.{name}")
            fn = getattr(sub, name, None)
        except ModuleNotFoundError:
            fn = None
        except Exception as exc:
            return None, f"privlab.verify.{name} failed to import: {exc!r}"
    if not callable(fn):
        return None, f"privlab.verify.{name} does not exist yet"
    return fn, ""


def _summary(res: Any) -> dict[str, Any]:
    """The verdict fields of a CheckResult (or whatever came back), for the table."""
    out: dict[str, Any] = {}
    for k in ("holds", "decided", "method", "value"):
        if hasattr(res, k):
            v = getattr(res, k)
            out[k] = v if isinstance(v, bool | int | float | str) or v is None else str(v)
    if not out:
        out["result"] = repr(res)[:60]
    return out


def _time_check(name: str, fn: Callable[[], Any], repeats: int, note: str = "") -> Row:
    log(f"timing {name}")
    try:
        res = fn()  # the untimed first call doubles as warm-up and gives the verdict
    except Exception as exc:
        return Row(name, {}, f"raised {type(exc).__name__}: {str(exc)[:80]}")
    t = best_of(fn, repeats=repeats, warmup=0)
    return Row(name, {"best_s": t.best, "median_s": t.median, **_summary(res)}, note)


def bench_check_pure_dp(args: argparse.Namespace) -> list[Row]:
    fn, why = _verify_attr("check_pure_dp")
    if fn is None:
        log(f"skipping check_pure_dp: {why}")
        return []
    rows = []
    for eps in args.eps:
        st = Staircase.optimal(eps)
        mechs: list[tuple[str, Any]] = [
            (f"Staircase.optimal({eps:g})", st),
            (f"Laplace(epsilon={eps:g})", Laplace(epsilon=eps)),
            (f"HalfScaleLaplace({eps:g}) [broken]", HalfScaleLaplace(epsilon=eps)),
            (f"WrongRatioStaircase({eps:g}) [broken]",
             WrongRatioStaircase(epsilon=eps, sensitivity=1.0, d=st.d)),
            (f"HalfWidthStaircase({eps:g}, d=0.25) [broken]",
             HalfWidthStaircase(epsilon=eps, sensitivity=1.0, d=0.25)),
        ]
        for label, m in mechs:
            rows.append(_time_check(f"check_pure_dp {label}", lambda m=m: fn(m),
                                    args.repeats))
    return rows


def bench_compare(args: argparse.Namespace) -> list[Row]:
    fn, why = _verify_attr("compare")
    if fn is None:
        log(f"skipping compare: {why}")
        return []
    try:
        sig = str(inspect.signature(fn))
    except (TypeError, ValueError):
        sig = "?"
    rows = []
    for eps in args.eps:
        st, lap = Staircase.optimal(eps), Laplace(epsilon=eps)
        rows.append(_time_check(f"compare(Staircase.optimal({eps:g}), Laplace({eps:g}))",
                                lambda st=st, lap=lap: fn(st, lap), args.repeats,
                                note=f"signature {sig}"[:70]))
    return rows


def bench_optimal(args: argparse.Namespace) -> list[Row]:
    rows = []
    for eps in args.eps:
        for obj in OBJECTIVES:
            def run(eps: float = eps, obj: str = obj) -> Staircase:
                return Staircase.optimal(eps, 1.0, obj)
            log(f"timing Staircase.optimal({eps:g}, objective={obj})")
            st = run()
            t = best_of(run, repeats=args.repeats, warmup=0)
            rows.append(Row(f"Staircase.optimal({eps:g}, objective={obj!r})",
                            {"best_s": t.best, "median_s": t.median, "d": st.d,
                             "objective_value": st.objective_value(obj)}))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="best-of-k timing")
    ap.add_argument("--eps", type=float, nargs="+", default=[0.1, 1.0, 5.0])
    ap.add_argument("--json", action="store_true", help="JSON on stdout, progress on stderr")
    args = ap.parse_args(argv)

    info = machine_info()
    dp = bench_check_pure_dp(args)
    cmp_rows = bench_compare(args)
    opt = bench_optimal(args)
    if args.json:
        print(dump_json({"machine": info, "args": vars(args), "check_pure_dp": rows_to_json(dp),
                         "compare": rows_to_json(cmp_rows), "optimal": rows_to_json(opt)}))
        return 0
    print_machine(info)
    verdict_cols = ["best_s", "median_s", "holds", "decided", "method", "value"]
    if dp:
        print(f"\n## check_pure_dp (best of {args.repeats}, after one untimed call)\n")
        print(format_table(dp, verdict_cols))
    else:
        print("\n## check_pure_dp: skipped (see stderr)")
    if cmp_rows:
        print(f"\n## compare (best of {args.repeats}, after one untimed call)\n")
        print(format_table(cmp_rows, verdict_cols))
    else:
        print("\n## compare: skipped (see stderr)")
    print(f"\n## Staircase.optimal (best of {args.repeats}, after one untimed call)\n")
    print(format_table(opt, ["best_s", "median_s", "d", "objective_value"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
