"""Read-only data tables and the bounded caches that keep them: what one game loads, no caller can change.

Every data loader returns `freeze(...)` of what it read, kept in a bounded cache (the `loader` decorator does
both); other caches are `BoundedCache` (by value) or `SameObjectCache` (by identity) objects with a size.

A frozen table is a `ReadOnlyDict` of `ReadOnlyDict`s and `ReadOnlyList`s all the way down: reading it costs
what reading a dict or list costs, it still is a dict or list to `json.dumps`, `isinstance`, `==` and the
engines' own fast copies (which return plain, writable dicts and lists), but any write (`d[k] = v`, `del`,
`update`, `append`, `sort`, `+=`...) raises `ReadOnlyError`. A caller that must change a table's entry copies
it first (`thaw`, `copy.deepcopy`, `dict(...)`, `[*...]`: every copy is writable).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, NoReturn, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
R = TypeVar("R")


class ReadOnlyError(TypeError):
    """Something tried to change a shared, read-only data table (copy it first)."""


def _refuse(self: object, *_args: object, **_kwargs: object) -> NoReturn:
    raise ReadOnlyError(f"{type(self).__name__} is a shared data table and cannot be changed; copy it first")


class ReadOnlyDict(dict[K, V]):
    """A dict whose contents cannot change after it is built (its values are frozen too, see `freeze`)."""

    __slots__ = ()
    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __ior__(self, _other: object) -> NoReturn:  # type: ignore[misc]
        _refuse(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle rebuilds it from a plain dict (dict's own protocol would call __setitem__)
        return (type(self), (dict(self),))

    def __copy__(self) -> dict[K, V]:
        return dict(self)

    def __deepcopy__(self, _memo: object) -> dict[K, V]:
        copied: dict[K, V] = thaw(self)
        return copied

    def __repr__(self) -> str:
        return f"ReadOnlyDict({dict.__repr__(self)})"


class ReadOnlyList(list[V]):
    """A list whose items cannot change after it is built (its items are frozen too, see `freeze`)."""

    __slots__ = ()
    __setitem__ = __delitem__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __iadd__(self, _other: object) -> NoReturn:  # type: ignore[misc]
        _refuse(self)

    def __imul__(self, _other: object) -> NoReturn:
        _refuse(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __copy__(self) -> list[V]:
        return list(self)

    def __deepcopy__(self, _memo: object) -> list[V]:
        copied: list[V] = thaw(self)
        return copied

    def __repr__(self) -> str:
        return f"ReadOnlyList({list.__repr__(self)})"


def freeze(value: Any) -> Any:
    """`value` with every dict and list in it (however deep) made read-only; sets become frozensets.

    Scalars, tuples of scalars and other immutable values come back as they are; already frozen parts are
    reused, so freezing twice is cheap."""
    if isinstance(value, (ReadOnlyDict, ReadOnlyList)):
        return value
    if isinstance(value, dict):
        return ReadOnlyDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return ReadOnlyList([freeze(v) for v in value])
    if isinstance(value, tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def thaw(value: Any) -> Any:
    """A writable deep copy of frozen (or plain) JSON-like data: plain dicts and lists all the way down."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value


class BoundedCache(Generic[K, V]):
    """At most `maxsize` values by key, the least recently used dropped first. An explicit object, so whoever
    reads the code sees what is kept and how much, and a test can empty it. Safe to share between threads (the
    table asks the AI in a worker thread while the engines run on the event loop)."""

    __slots__ = ("_kept", "_lock", "maxsize")

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("a bounded cache keeps at least one value")
        self.maxsize = maxsize
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), or None."""
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, made (and kept) on first use."""
        found = self.find(key)
        return found if found is not None else self.put(key, make())

    def put(self, key: K, value: V) -> V:
        with self._lock:
            kept = self._kept
            kept[key] = value
            kept.move_to_end(key)
            if len(kept) > self.maxsize:
                kept.popitem(last=False)
            return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)

    def keys(self) -> Iterable[K]:
        with self._lock:
            return tuple(self._kept)


class SameObjectCache(Generic[V]):
    """What was worked out from each of the last `maxsize` objects seen, found by identity (`is`), not by value:
    for a value that is costly to compare but shared by many callers (a state's map, shared by every copy of the
    state). The objects are kept with their results, so a new object can never be taken for an old one.
    The list of kept pairs is replaced, never changed in place, so threads sharing the cache need no lock (at
    worst one thread's most recent object goes unrecorded)."""

    __slots__ = ("_kept", "maxsize")

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError("a bounded cache keeps at least one value")
        self.maxsize = maxsize
        self._kept: tuple[tuple[object, V], ...] = ()

    def find(self, obj: object) -> V | None:
        """The result kept for this very object, or None."""
        kept = self._kept
        if kept and kept[0][0] is obj:
            return kept[0][1]
        for i, (seen, value) in enumerate(kept):
            if seen is obj:
                self._kept = (kept[i], *kept[:i], *kept[i + 1:])
                return value
        return None

    def put(self, obj: object, value: V) -> V:
        self._kept = ((obj, value), *self._kept[:self.maxsize - 1])
        return value

    def get(self, obj: object, make: Callable[[], V]) -> V:
        found = self.find(obj)
        return found if found is not None else self.put(obj, make())

    def clear(self) -> None:
        self._kept = ()

    def __len__(self) -> int:
        return len(self._kept)


def loader(maxsize: int = 1) -> Callable[[Callable[..., R]], functools._lru_cache_wrapper[R]]:
    """Decorate a data loader: its result is frozen (see `freeze`) and kept for at most `maxsize` distinct
    argument tuples (1 for a loader without arguments), least recently used dropped first. The cache is the
    loader's own bounded object (`cache_info()`, `cache_clear()`), and `is_loader` tells a loader apart."""

    def wrap(load: Callable[..., R]) -> functools._lru_cache_wrapper[R]:
        @functools.wraps(load)
        def frozen(*args: Hashable, **kwargs: Hashable) -> R:
            result: R = freeze(load(*args, **kwargs))
            return result

        cached = functools.lru_cache(maxsize=maxsize)(frozen)
        cached.frozen_loader = True  # type: ignore[attr-defined]
        return cached

    return wrap


def is_loader(fn: object) -> bool:
    """Whether `fn` is a function decorated with `loader` (a test lists them all)."""
    return getattr(fn, "frozen_loader", False) is True


def is_frozen(value: Any) -> bool:
    """Whether every dict and list in `value` is read-only (a test's check of a loader)."""
    if isinstance(value, dict):
        return isinstance(value, ReadOnlyDict) and all(is_frozen(v) for v in value.values())
    if isinstance(value, list):
        return isinstance(value, ReadOnlyList) and all(is_frozen(v) for v in value)
    if isinstance(value, tuple):
        return all(is_frozen(v) for v in value)
    return not isinstance(value, set)


__all__ = ["BoundedCache", "ReadOnlyDict", "ReadOnlyError", "ReadOnlyList", "SameObjectCache", "freeze",
           "is_frozen", "is_loader", "loader", "thaw"]
