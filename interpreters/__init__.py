"""Interpreters: the only code that touches time, tasks, processes and stores.

``interpreters.simulated`` (a deterministic virtual clock), ``interpreters.asyncio``
(production) and ``interpreters.trio`` run the very same programs.
"""

from interpreters.stores import MemoryStore, Store

__all__ = ["MemoryStore", "Store"]
