"""The one error type the command line turns into a message and exit code 2."""


class InputError(ValueError):
    """Bad or unusable input: the message says what is wrong and how to fix it."""
