"""A small Sudoku campaign that records search trees, for the tests of trees in the
store, the runner and the report: ``SPEC`` (``{data}`` stands for the Sudoku data folder)
and the ``trees`` key that asks for them."""

SPEC = """
name = "trees"
puzzle = "sudoku"
instances = [{ file = "{data}/kul_named_9x9.txt", select = ["lambda", "hard17"] }]
viewpoints = [
    { name = "classic", options = { alldiff = "weak" }, label = "classic-weak" },
    { name = "value-position", options = { alldiff = "weak" }, label = "value-position-weak" },
]
solvers = ["cp", "cpsat"]
heuristics = ["first-fail/min"]
repeats = 2
time_limit = 20
"""
TREES = 'trees = { instances = ["lambda"] }\n'
