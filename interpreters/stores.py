"""State that outlives a call (memo entries, epochs, shield history), behind one protocol.

Layers reach a store only through effects, so an interpreter can be handed a shared store
(another process, a database) without any layer changing.

A store may block (a network round trip): the async interpreters then call it on a worker
thread, under the call's deadline. One that never blocks says ``blocking = False`` and is
called on the loop. Whatever a store raises ends the call that asked (cause
``ComponentFailed``, component "the store"), never the run.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any, Protocol

from returns.maybe import Maybe, Nothing, Some

from toolpipe.effects import CacheLimits, CacheLookup, CachePut


class Store(Protocol):
    def get(self, namespace: str, key: str) -> Maybe[Any]: ...

    def put(
        self, namespace: str, key: str, value: Any, paths: frozenset[str], if_epoch: int | None
    ) -> bool: ...

    def delete(self, namespace: str, key: str) -> None: ...

    def invalidate(self, namespace: str, paths: frozenset[str] | None) -> int: ...

    def epoch(self, namespace: str) -> int: ...

    def append(self, namespace: str, item: Any, keep: int) -> None: ...

    def history(self, namespace: str) -> tuple[Any, ...]: ...


class _Namespace:
    __slots__ = ("ages", "by_path", "bytes", "entries", "epoch", "history", "pathless")

    def __init__(self) -> None:
        # key -> (value, paths, size, age), least recently used first
        self.entries: OrderedDict[str, tuple[Any, frozenset[str], int, int]] = OrderedDict()
        self.by_path: dict[str, set[str]] = {}
        self.pathless: set[str] = set()
        self.epoch = 0
        self.history: deque[Any] = deque()
        self.bytes = 0
        self.ages: deque[tuple[int, str]] = deque()  # (age, key) in the order stored


class MemoryStore:
    """The in-memory default. Bounded where the layer says so (``CacheLimits``): expired
    entries leave as the turns pass, and beyond ``max_entries`` or ``max_bytes`` the least
    recently used go first. Without limits it keeps everything it is given."""

    blocking = False  # called on the event loop: every operation is a few dict steps
    takes_limits = True

    def __init__(self) -> None:
        self._spaces: dict[str, _Namespace] = {}

    def _ns(self, namespace: str) -> _Namespace:
        space = self._spaces.get(namespace)
        if space is None:
            space = self._spaces[namespace] = _Namespace()
        return space

    def get(self, namespace: str, key: str) -> Maybe[Any]:
        space = self._spaces.get(namespace)
        if space is None:
            return Nothing
        found = space.entries.get(key)
        if found is None:
            return Nothing
        space.entries.move_to_end(key)
        return Some(found[0])

    def lookup(self, effect: CacheLookup) -> tuple[Maybe[Any], int]:
        """``CacheLookup``'s answer, ``get`` and ``epoch`` in one call (the interpreters'
        fast path for this store)."""
        space = self._spaces.get(effect.namespace)
        if space is None:
            return Nothing, 0
        found = space.entries.get(effect.key)
        if found is None:
            return Nothing, space.epoch
        space.entries.move_to_end(effect.key)
        return Some(found[0]), space.epoch

    def put_effect(self, effect: CachePut) -> bool:
        """``CachePut``'s answer (the interpreters' fast path for this store)."""
        return self.put(effect.namespace, effect.key, effect.value, effect.paths,
                        effect.if_epoch, limits=effect.limits)

    def put(
        self, namespace: str, key: str, value: Any, paths: frozenset[str], if_epoch: int | None,
        *, limits: CacheLimits | None = None,
    ) -> bool:
        space = self._ns(namespace)
        if if_epoch is not None and space.epoch != if_epoch:
            return False
        entries = space.entries
        if key in entries:
            _drop(space, key)
        if limits is None:
            entries[key] = (value, paths, 0, 0)
        else:
            size = limits.size
            entries[key] = (value, paths, size, limits.age)
            space.bytes += size
        if paths:
            by_path = space.by_path
            for path in paths:
                keys = by_path.get(path)
                if keys is None:
                    by_path[path] = {key}
                else:
                    keys.add(key)
        else:
            space.pathless.add(key)
        if limits is not None:
            _bound(space, key, limits)
        return True

    def delete(self, namespace: str, key: str) -> None:
        space = self._spaces.get(namespace)
        if space is not None and key in space.entries:
            _drop(space, key)

    def invalidate(self, namespace: str, paths: frozenset[str] | None) -> int:
        space = self._ns(namespace)
        space.epoch += 1
        if paths is None:
            doomed = set(space.entries)
        else:
            doomed = set(space.pathless)
            for path in paths:
                doomed |= space.by_path.get(path, set())
        for key in doomed:
            self.delete(namespace, key)
        return len(doomed)

    def epoch(self, namespace: str) -> int:
        space = self._spaces.get(namespace)
        return 0 if space is None else space.epoch

    def append(self, namespace: str, item: Any, keep: int) -> None:
        history = self._ns(namespace).history
        history.append(item)
        while len(history) > keep:
            history.popleft()

    def history(self, namespace: str) -> tuple[Any, ...]:
        space = self._spaces.get(namespace)
        return () if space is None else tuple(space.history)

    def __len__(self) -> int:
        return sum(len(s.entries) for s in self._spaces.values())


def _bound(space: _Namespace, key: str, limits: CacheLimits) -> None:
    """Expired entries out (the oldest stored first), then the least recently used until
    the entry and byte bounds hold."""
    ages = space.ages
    ages.append((limits.age, key))
    entries = space.entries
    min_age = limits.min_age
    if min_age is not None:
        while ages and ages[0][0] < min_age:
            age, old = ages.popleft()
            found = entries.get(old)
            if found is not None and found[3] == age:
                _drop(space, old)
    if len(ages) > 2 * len(entries) + 16:  # bookkeeping of entries gone already
        space.ages = deque(item for item in ages
                           if (found := entries.get(item[1])) is not None
                           and found[3] == item[0])
    max_entries, max_bytes = limits.max_entries, limits.max_bytes
    if max_entries is not None:
        while len(entries) > max_entries:
            _drop(space, next(iter(entries)))
    if max_bytes is not None:
        while entries and space.bytes > max_bytes:
            _drop(space, next(iter(entries)))


def _drop(space: _Namespace, key: str) -> None:
    """Remove a stored key, and every trace of it."""
    _, paths, size, _ = space.entries.pop(key)
    space.bytes -= size
    space.pathless.discard(key)
    for path in paths:
        keys = space.by_path.get(path)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del space.by_path[path]
