"""Frozen value objects that cost next to nothing to define (``Record``).

Every ``@dataclass`` compiles its generated methods with ``exec`` when its
module is imported (half a millisecond a class on CPython 3.11), and
importing ``dataclasses`` imports ``inspect``, ``ast`` and ``dis``. On the
path of ``bleukit score`` the two took a quarter of the command's start-up
(issue 42). A Record subclass is written as a frozen dataclass is: fields
are annotations, with a default or a ``field(...)``; ``kw_only=True`` and
``eq=False`` are class keywords. The methods are shared, not generated:
``__init_subclass__`` makes each class's field table once (a dict walk),
and one ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` read it.

What a frozen dataclass does, a Record does: ``__init__`` takes the fields
in order (a ``kw_only`` field by keyword only) and runs ``__post_init__``;
equality and hashing compare the fields' values (``compare=False`` leaves
one out) between instances of the same class; ``repr`` names every field
(but one with ``repr=False``);
assigning an attribute raises ``FrozenInstanceError``; instances pickle and
copy as plain objects do, and ``copy.replace`` (Python 3.13) works. What it
does not: ``dataclasses.fields`` and ``dataclasses.replace`` do not know
it. This module's ``fields`` and ``replace`` take a Record or a dataclass
(a plugin's configuration may be either), importing ``dataclasses`` only
for a dataclass.

Annotations are read as written (``from __future__ import annotations``
makes them strings); one starting with ``ClassVar`` declares no field.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: Any) -> Callable[[type], type]:
        # what type checkers read; at run time typing's own only sets an
        # attribute nothing reads, and Python 3.10's typing lacks it
        return lambda cls: cls


class FrozenInstanceError(AttributeError):
    """An attribute of a Record was assigned or deleted."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: a field without a default
MISSING: Any = _Missing()


class Field:
    """One field of a Record: its name, default (``MISSING``: none) or
    ``default_factory``, whether equality compares it, whether ``__init__``
    takes it only by keyword, and what it declares (``metadata``)."""

    __slots__ = ("compare", "default", "default_factory", "kw_only", "metadata", "name", "repr")

    def __init__(
        self,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | None = None,
        compare: bool = True,
        metadata: Mapping[str, Any] | None = None,
        repr: bool = True,
    ) -> None:
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr
        self.kw_only = False
        self.metadata: Mapping[str, Any] = metadata or {}

    def named(self, name: str, kw_only: bool) -> Field:
        out = Field(self.default, self.default_factory, self.compare, self.metadata, self.repr)
        out.name, out.kw_only = name, kw_only
        return out

    @property
    def required(self) -> bool:
        return self.default is MISSING and self.default_factory is None

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, kw_only={self.kw_only})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | None = None,
    compare: bool = True,
    metadata: Mapping[str, Any] | None = None,
    repr: bool = True,
) -> Any:
    """A field with more than a default, as ``dataclasses.field``."""
    if default is not MISSING and default_factory is not None:
        raise ValueError("a field takes a default or a default_factory, not both")
    return Field(default, default_factory, compare, metadata, repr)


def _is_class_var(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record:
    """A frozen value object: see the module's documentation."""

    __slots__ = ()

    #: every field, the inherited first, in declaration order
    _record_fields: ClassVar[tuple[Field, ...]] = ()
    #: the fields ``__init__`` takes by position, in order
    _record_positional: ClassVar[tuple[str, ...]] = ()
    #: the fields equality and hashing compare
    _record_compared: ClassVar[tuple[str, ...]] = ()
    _record_names: ClassVar[frozenset[str]] = frozenset()
    _record_post_init: ClassVar[Callable[[Any], None] | None] = None

    def __init_subclass__(cls, *, kw_only: bool = False, eq: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = {f.name: f for f in cls._record_fields}
        # the class's own annotations as written (inspect.get_annotations
        # would import inspect, which this module exists to avoid)
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
        for name, annotation in own.items():
            if _is_class_var(annotation):
                continue
            spec = cls.__dict__.get(name, MISSING)
            if isinstance(spec, Field):
                # as a dataclass: the class attribute is the default, if any
                if spec.default is MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, spec.default)
            else:
                spec = Field(spec)
            table[name] = spec.named(name, kw_only)
        fields = tuple(table.values())
        positional = [f for f in fields if not f.kw_only]
        for before, after in itertools.pairwise(positional):
            if after.required and not before.required:
                raise TypeError(f"non-default argument {after.name!r} follows default argument")
        cls._record_fields = fields
        cls._record_positional = tuple(f.name for f in positional)
        cls._record_compared = tuple(f.name for f in fields if f.compare)
        cls._record_names = frozenset(table)
        cls._record_post_init = getattr(cls, "__post_init__", None)
        if not eq:
            cls.__eq__ = object.__eq__  # type: ignore[method-assign]
            cls.__hash__ = object.__hash__  # type: ignore[method-assign]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        positional = cls._record_positional
        if len(args) > len(positional):
            raise TypeError(
                f"{cls.__name__}() takes {len(positional)} positional arguments "
                f"but {len(args)} were given"
            )
        values = self.__dict__
        values.update(zip(positional, args))
        names = cls._record_names
        for name, value in kwargs.items():
            if name not in names:
                raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            values[name] = value
        if len(values) < len(names):
            for f in cls._record_fields:
                if f.name in values:
                    continue
                if f.default is not MISSING:
                    values[f.name] = f.default
                elif f.default_factory is not None:
                    values[f.name] = f.default_factory()
                else:
                    raise TypeError(f"{cls.__name__}() missing required argument: {f.name!r}")
        post_init = cls._record_post_init
        if post_init is not None:
            post_init(self)

    def _compared(self) -> tuple[Any, ...]:
        values = self.__dict__
        return tuple([values[name] for name in type(self)._record_compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        values = self.__dict__
        shown = ", ".join(
            f"{f.name}={values[f.name]!r}" for f in type(self)._record_fields if f.repr
        )
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __replace__(self, **changes: Any) -> Any:
        return replace(self, **changes)


def fields(obj: Any) -> tuple[Any, ...]:
    """The fields of a Record or a dataclass, class or instance, in order:
    each has a ``name`` and ``metadata``."""
    cls = obj if isinstance(obj, type) else type(obj)
    if issubclass(cls, Record):
        return cls._record_fields
    import dataclasses

    return dataclasses.fields(cls)  # type: ignore[arg-type]


def field_names(obj: Any) -> tuple[str, ...]:
    return tuple(f.name for f in fields(obj))


T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of a Record or a dataclass instance with ``changes``."""
    if not isinstance(obj, Record):
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values = {name: getattr(obj, name) for name in field_names(obj)}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(obj)(**values)


def has_fields(cls: Any) -> bool:
    """Whether ``cls`` is a Record class or a dataclass (what ``fields``
    takes), without importing ``dataclasses``."""
    return isinstance(cls, type) and (
        issubclass(cls, Record) or hasattr(cls, "__dataclass_fields__")
    )
