"""The short run behind `msprobe-lsp verify`: runs a training script (or
`-m module`) as `python` would, but with every PrecisionDebugger(...) pointed
at a copy of its config limited to the first N steps, and ends the process
cleanly right after the N-th step() has returned. Standard library only; it
ships with msprobe-lsp and is found next to it at run time.

    python msprobe_verify_runner.py --config COPY --steps N --dump-path DIR
           [--status FILE] [-m MODULE] -- [SCRIPT] [ARGS...]

The user's files are not touched: the copy and the dump directory are made by
msprobe-lsp. The script sees `__name__ == "__main__"` and
`sys.argv == [SCRIPT, ARGS...]`, as it would under `python SCRIPT ARGS...`.

The status FILE (JSON) tells msprobe-lsp what happened: how many times
PrecisionDebugger was built and with which config_path, how many step() calls
returned, and whether this runner ended the run.
"""
import argparse
import functools
import importlib.abc
import inspect
import json
import os
import runpy
import sys

MODULE = "msprobe.pytorch"


class ShortRunDone(SystemExit):
    """Raised after the N-th step(); caught in main(), which exits with 0."""


class State:
    def __init__(self, options):
        self.options = options
        self.built = 0
        self.config_paths = []   # what the script passed, before it was replaced
        self.overridden = []     # constructor arguments replaced besides config_path
        self.steps = 0
        self.stopped = False
        self.patched = False

    def write(self, **extra):
        if not self.options.status:
            return
        data = {"patched": self.patched, "built": self.built, "config_paths": self.config_paths,
                "overridden": self.overridden, "steps": self.steps, "stopped_by_runner": self.stopped,
                "steps_wanted": self.options.steps}
        data.update(extra)
        tmp = self.options.status + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, self.options.status)


def patch_debugger(module, state):
    """Points PrecisionDebugger at the copy and counts its step() calls."""
    cls = getattr(module, "PrecisionDebugger", None)
    if not isinstance(cls, type) or getattr(cls, "_msprobe_verify_patched", False):
        return
    options = state.options
    original_init = cls.__init__
    signature = inspect.signature(original_init)

    @functools.wraps(original_init)
    def init(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            return original_init(self, *args, **kwargs)  # msProbe reports the misuse itself
        state.built += 1
        state.config_paths.append(bound.arguments.get("config_path"))
        if "config_path" in signature.parameters:
            bound.arguments["config_path"] = options.config
        # Constructor arguments win over the file in msProbe: keep them from
        # undoing the short run's step list and dump directory.
        if bound.arguments.get("step") is not None:
            bound.arguments["step"] = list(range(options.steps))
            state.overridden.append("step")
        if bound.arguments.get("dump_path") is not None:
            bound.arguments["dump_path"] = options.dump_path
            state.overridden.append("dump_path")
        state.write()
        return original_init(*bound.args, **bound.kwargs)

    cls.__init__ = init

    step = inspect.getattr_static(cls, "step", None)
    if isinstance(step, classmethod):
        original_step = step.__func__

        def counted_step(klass, *args, **kwargs):
            result = original_step(klass, *args, **kwargs)
            after_step(state)
            return result

        cls.step = classmethod(functools.wraps(original_step)(counted_step))
    elif callable(step):
        original_method = step

        @functools.wraps(original_method)
        def counted_method(self, *args, **kwargs):
            result = original_method(self, *args, **kwargs)
            after_step(state)
            return result

        cls.step = counted_method
    cls._msprobe_verify_patched = True
    state.patched = True
    state.write()


def after_step(state):
    state.steps += 1
    state.write()
    # A step() called while the run unwinds (a finally block) does not end it twice.
    if state.steps == state.options.steps and not state.stopped:
        state.stopped = True
        state.write()
        print(f"msprobe-lsp verify: step() returned {state.steps} time(s); ending the short run here",
              file=sys.stderr, flush=True)
        raise ShortRunDone(0)


class PatchingLoader(importlib.abc.Loader):
    def __init__(self, loader, state):
        self.loader = loader
        self.state = state

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        patch_debugger(module, self.state)


class PatchingFinder(importlib.abc.MetaPathFinder):
    """Patches msprobe.pytorch when the script imports it, not before: importing
    it early would import torch before the script's own set-up runs."""

    def __init__(self, state):
        self.state = state

    def find_spec(self, fullname, path, target=None):
        if fullname != MODULE:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = PatchingLoader(spec.loader, self.state)
                return spec
            if spec is not None:
                return spec
        return None


def parse(argv):
    parser = argparse.ArgumentParser(prog="msprobe_verify_runner.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help="the copy of the config the debugger must read")
    parser.add_argument("--steps", type=int, default=1, help="end the run after this many step() calls")
    parser.add_argument("--dump-path", required=True, help="replaces a dump_path= given to the constructor")
    parser.add_argument("--status", help="JSON file this runner keeps up to date")
    parser.add_argument("-m", dest="module", help="run a module as `python -m MODULE` does")
    parser.add_argument("target", nargs=argparse.REMAINDER, help="SCRIPT [ARGS...], or the module's ARGS")
    options = parser.parse_args(argv)
    if options.target and options.target[0] == "--":
        options.target = options.target[1:]
    if options.steps < 1:
        parser.error("--steps must be at least 1")
    if options.module is None and not options.target:
        parser.error("a SCRIPT or -m MODULE is required")
    return options


def main(argv=None):
    options = parse(sys.argv[1:] if argv is None else argv)
    state = State(options)
    sys.meta_path.insert(0, PatchingFinder(state))
    if MODULE in sys.modules:
        patch_debugger(sys.modules[MODULE], state)
    state.write()
    try:
        if options.module:
            # As `python -m`: the current directory first on the path, argv[0] set by runpy.
            sys.path[0] = os.getcwd()
            sys.argv = [options.module] + options.target
            runpy.run_module(options.module, run_name="__main__", alter_sys=True)
        else:
            script = options.target[0]
            sys.path[0] = os.path.dirname(os.path.abspath(script))
            sys.argv = list(options.target)
            runpy.run_path(script, run_name="__main__")
    except ShortRunDone:
        sys.stdout.flush()
        state.write(exit_code=0)
        return 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        state.write(exit_code=code)
        raise
    except BaseException as exc:
        state.write(exit_code=1, exception=f"{type(exc).__name__}: {exc}")
        raise
    state.write(exit_code=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
