"""User-facing errors.

Every problem caused by input (files, configs, names, arguments) raises a
subclass of :class:`BleukitError`. The CLI prints its message on one line and
exits with status 2; anything else is a bug and keeps its traceback.
"""


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
