"""Readable, valid identifiers for a model's variables, shared by every export format.

One rule for every format, so a variable has the same name in each exported file:
letters, digits and ``_``, starting with a letter, and none of the words the formats
reserve (MiniZinc's keywords and the names its files call, XCSP3's operators).

>>> from solvers import Model
>>> model = Model("names")
>>> _ = model.int_var(0, 1, "cell_3_4"), model.int_var(0, 1, "x-1"), model.int_var(0, 1, "eq")
>>> identifiers(model.variables)
['cell_3_4', 'x_1', 'eq_']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from solvers.variables import IntVar

#: MiniZinc's keywords and the names its files call, which a variable may not take
_MINIZINC_WORDS = """
    ann annotation any array bool case constraint default diff div else elseif endif enum
    false float function if in include int intersect let list maximize minimize mod not of
    op opt output par predicate record satisfy set solve string subset superset symdiff
    test then true tuple type union var where xor alldifferent inverse table regular
    global_cardinality count_eq diffn array1d array2d sum bool2int show join
    int_search seq_search input_order first_fail dom_w_deg indomain_min indomain_max
"""
#: the operators of XCSP3's functional expressions (``eq(x,1)``), kept out of the names
_XCSP3_WORDS = """
    neg abs add sub mul div mod sqr pow min max dist lt le ge gt ne eq set in notin
    not and or xor iff imp if
"""
RESERVED = frozenset(_MINIZINC_WORDS.split()) | frozenset(_XCSP3_WORDS.split())


def identifiers(variables: Sequence[IntVar]) -> list[str]:
    """Each variable's name as an identifier, distinct and readable: ``cell_3_4``
    stays, other characters become ``_``, a reserved word gains a ``_``."""
    taken: set[str] = set()
    result = []
    for variable in variables:
        text = re.sub(r"\W", "_", variable.name, flags=re.ASCII)
        if not text[:1].isalpha():
            text = "v_" + text
        if text in RESERVED:
            text += "_"
        if text in taken:
            text = f"{text}_{variable.index}"
        taken.add(text)
        result.append(text)
    return result
