"""User-facing errors.

Every problem caused by input (files, configs, names, arguments) raises a
subclass of :class:`BleukitError`. The CLI prints its message on one line and
exits with status 2; anything else is a bug and keeps its traceback.
"""

from collections.abc import Iterable, Mapping


class BleukitError(Exception):
    """An error caused by user input, reported as one line without a traceback."""


class ConfigError(BleukitError):
    """A variant (YAML file, override or signature) is invalid."""


class UnknownComponentError(BleukitError):
    """A component name is not registered."""


class InputError(BleukitError):
    """Hypothesis or reference text cannot be scored as given."""


class InputTypeError(InputError, TypeError):
    """An argument of the wrong type (a string where a list of references
    belongs, None where a hypothesis belongs): also a ``TypeError``, which
    Python and sacrebleu raise for the same mistake, so code written for
    either catches it."""


class MissingDependencyError(BleukitError):
    """A component needs an optional extra that is not installed."""


class PluginError(BleukitError):
    """A plugin (an entry point of another distribution) is broken: misnamed,
    failing to import, or not the kind of component its group holds. The
    message names the plugin, its entry point and its distribution."""


class BleukitWarning(UserWarning):
    """Something the user should know about their input that does not stop
    the run: the CLI prints it as ``bleukit: warning: ...`` on standard
    error (``-q`` silences it); library callers get a Python warning."""


class ByteOrderMarkWarning(BleukitWarning):
    """A text file starts with a UTF-8 byte-order mark, which is read as
    text (U+FEFF, part of the first segment), as sacrebleu reads it."""


def did_you_mean(name: str, choices: Iterable[str] | Mapping[str, str]) -> str:
    """``"did you mean X? "`` for the choices closest to a mistyped name
    (case first: ``chrf`` is ``chrF``), or ``""`` when none is close.
    ``choices`` may map the form compared (``13a``) to the form named
    (``13a.v1``), so that a shared suffix does not make names look alike."""
    import difflib  # here: only a mistake pays for it

    named = choices if isinstance(choices, Mapping) else {c: c for c in choices}
    by_folded: dict[str, str] = {}
    for compared, shown in named.items():
        by_folded.setdefault(compared.casefold(), shown)
    asked = name.casefold()
    if asked in by_folded:
        close = [by_folded[asked]]
    else:
        close = [by_folded[c] for c in difflib.get_close_matches(asked, by_folded, 3, 0.6)]
    return f"did you mean {' or '.join(close)}? " if close else ""
