"""List flags in either form a learner types: ``--nodes 1,2,4``, ``--nodes 1 2 4`` or
``--nodes 1, 2, 4``: each word goes through the flag's own parser (a list from its commas), and the
flag's value is all of them in order."""
from __future__ import annotations

import argparse

from sim.i18n import t


class _Joined(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, [value for word in values for value in word])


LIST = {"nargs": "+", "action": _Joined}


def pieces(text: str) -> list[str]:
    """The comma-separated pieces of one word, without the empty ones ``"1,"`` leaves."""
    return [piece for piece in str(text).split(",") if piece.strip()]


def whole_numbers(flag: str, message: str, low: int = 1):
    """A parser of one word of whole numbers of at least ``low``; a mistake is ``message`` (an i18n
    key taking ``flag`` and ``value``)."""
    def parse(text: str) -> list[int]:
        try:
            values = [int(v) for v in pieces(text)]
        except ValueError:
            values = []
        if not values or min(values) < low:
            raise argparse.ArgumentTypeError(t(message, flag=flag, value=text))
        return values
    return parse
