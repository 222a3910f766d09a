"""The compiled kernels of the automata backend (numba), one module per pass.

:mod:`.layout` is what they all share: the types of the network's arrays, the walks
over them and the counters' places. :mod:`.propagation` revises constraints to domain
consistency, :mod:`.probing` tries values on top of it, and :mod:`.beliefs` weighs the
values for a guided search. Each kernel takes the network's arrays first
(:meth:`~solvers.backends.automata.network.Network.kernel_arguments`), then the
search state; a domain is a bit set: bit 0 for value 0, bit 1 for value 1.

Every module here is compiled when imported, or loaded from the disk cache, whose folder
is named after their source (:mod:`~solvers.backends.automata.kernel_cache`): this
package holds kernels and nothing else.
"""
