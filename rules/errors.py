"""The engine's one exception: an input that is not well formed."""


class InputError(ValueError):
    """A command, fact set or state that is malformed: the message names the key at fault.

    A well-formed input that the rules refuse is not an error but a `Rejection`.
    """
