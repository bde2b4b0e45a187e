"""Recording stand-in for msProbe (package ``mindstudio-probe``), used only by
the behavioural tests in tests/behaviour. It is NOT msProbe: it dumps nothing,
it only records which API calls a script makes, in which order.

See msprobe/pytorch/__init__.py for the recorded API.
"""

__version__ = "26.0.0+recording-stub"
