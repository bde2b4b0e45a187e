"""Recording stand-in for ``msprobe.pytorch`` (26.x API surface).

Every public call appends one JSON object per line to the file named by the
environment variable ``MSPROBE_STUB_LOG`` (nothing is written when it is unset):

    {"call": "seed_all", "seed": 1234, "mode": false, ...}
    {"call": "construct", "config_path": "./config.json", "noop": false, ...}
    {"call": "start", "model_is_module": true, ...}
    {"call": "stop"}
    {"call": "step", "step": 1}

Each line also carries the recording process's ``pid``, so a multi-process
run can be checked per process.

Behaviour copied from the real tool's documented contract (not its code):
- ``PrecisionDebugger(config_path=None, task=None, dump_path=None, level=None, step=None)``;
  there is no ``model`` parameter, so ``model=`` raises TypeError as in 26.x.
- Singleton: every construction returns the same object; a second
  construction is a silent no-op (recorded with ``"noop": true``).
- ``config_path`` must be a string naming an existing, readable ``.json`` file.
- ``start``/``stop``/``step`` are classmethods and fail if no instance exists.
- ``start(model=...)`` accepts an nn.Module or a list/tuple of them.
- ``forward_backward_dump_end`` does not exist (removed in 26.x).

It also writes msProbe's dump layout and a dump.json with every tensor's
dtype and shape (see _dump.py), unless the config gives no dump_path.
"""
import json
import os
import random

from . import _dump

__all__ = ["PrecisionDebugger", "seed_all", "MsprobeException", "FileCheckException"]

_TASKS = ("statistics", "tensor", "acc_check", "structure", "diff_check", "nan_check")
_LEVELS = ("L0", "L1", "L2", "mix", "debug")


class MsprobeException(Exception):
    """Raised for invalid arguments, like msProbe's own exception type."""


class FileCheckException(FileNotFoundError):
    """Raised for a bad config path (missing, not .json, unreadable)."""


def _record(call, **fields):
    path = os.environ.get("MSPROBE_STUB_LOG")
    if not path:
        return
    entry = {"call": call, "pid": os.getpid()}
    entry.update(fields)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def _is_module(obj):
    try:
        import torch.nn as nn
    except ImportError:  # the stub itself does not need torch
        return False
    if isinstance(obj, (list, tuple)):
        return len(obj) > 0 and all(isinstance(m, nn.Module) for m in obj)
    return isinstance(obj, nn.Module)


def seed_all(seed=1234, mode=False, rm_dropout=False, is_enhanced=False):
    """Validate like msProbe, seed the usual generators, and record the call."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 2 ** 32 - 1:
        raise MsprobeException("[msprobe] invalid argument: seed must be an int between 0 and 4294967295.")
    for name, value in (("mode", mode), ("rm_dropout", rm_dropout), ("is_enhanced", is_enhanced)):
        if not isinstance(value, bool):
            raise MsprobeException(f"[msprobe] invalid argument: {name} must be a bool.")
    os.environ["PYTHONHASHSEED"] = str(seed)
    random.seed(seed)
    try:
        import numpy as np
        np.random.seed(seed)
    except ImportError:
        pass
    try:
        import torch
        torch.manual_seed(seed)
        if mode:
            torch.use_deterministic_algorithms(True)
    except ImportError:
        pass
    _record("seed_all", seed=seed, mode=mode, rm_dropout=rm_dropout, is_enhanced=is_enhanced)


def _check_config_path(config_path):
    if not isinstance(config_path, str):
        raise MsprobeException("[msprobe] invalid argument: config_path must be a string.")
    real = os.path.realpath(config_path)
    if not os.path.exists(real):
        raise FileCheckException(f"[msprobe] illegal file path: the file {config_path} does not exist.")
    if not os.path.isfile(real) or not real.endswith(".json"):
        raise FileCheckException(f"[msprobe] illegal file path: {config_path} is not a .json file.")
    if not os.access(real, os.R_OK):
        raise FileCheckException(f"[msprobe] illegal file path: {config_path} is not readable.")
    with open(real, encoding="utf-8") as f:
        try:
            return json.load(f)
        except ValueError as exc:
            raise MsprobeException(f"[msprobe] invalid argument: {config_path} is not valid JSON: {exc}")


class PrecisionDebugger:
    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.initialized = False
        return cls._instance

    def __init__(self, config_path=None, task=None, dump_path=None, level=None, step=None):
        if self.initialized:
            _record("construct", config_path=config_path, noop=True)
            return
        config = _check_config_path(config_path) if config_path is not None else {}
        if task is not None and task not in _TASKS:
            raise MsprobeException(f"[msprobe] invalid argument: task {task} is not in {list(_TASKS)}")
        if level is not None and level not in _LEVELS:
            raise MsprobeException(f"[msprobe] invalid argument: level {level} is not in {list(_LEVELS)}")
        if step is not None and not isinstance(step, list):
            raise MsprobeException("[msprobe] invalid argument: step must be a list.")
        self.config_path = config_path
        self.level = level or config.get("level") or "L1"
        self.task = task or config.get("task") or "statistics"
        self.started = False
        self.current_step = 0
        try:
            self.rank_filter = _dump.expand(config.get("rank"))
            self.step_filter = _dump.expand(step if step is not None else config.get("step"))
        except ValueError as exc:
            raise MsprobeException(str(exc))
        self.dump_config = {"task": self.task, "level": self.level,
                            "dump_path": dump_path or config.get("dump_path"),
                            "extra_info": config.get("extra_info", True)}
        self.recorder = None
        self.dump_rank = None
        self.initialized = True
        _record("construct", config_path=config_path, task=self.task, level=self.level,
                dump_path=dump_path, noop=False)

    @classmethod
    def _get(cls):
        if cls._instance is None or not cls._instance.initialized:
            raise Exception("PrecisionDebugger instance is not created.")
        return cls._instance

    @classmethod
    def start(cls, model=None, token_range=None, rank_id=None, scheduled_tokens=None):
        inst = cls._get()
        if model is not None and not _is_module(model):
            raise MsprobeException("[msprobe] invalid argument: model must be a torch.nn.Module "
                                   "or a list/tuple of torch.nn.Module.")
        if model is None and (inst.level in ("L0", "mix") or inst.task == "structure" or token_range is not None):
            raise MsprobeException("[msprobe] invalid argument: missing the parameter 'model'.")
        inst.started = True
        inst._start_dump(model, rank_id)
        _record("start", model_is_module=model is not None and _is_module(model),
                model_count=len(model) if isinstance(model, (list, tuple)) else int(model is not None),
                token_range=token_range, rank_id=rank_id,
                has_scheduled_tokens=scheduled_tokens is not None, step=inst.current_step)

    @classmethod
    def stop(cls):
        inst = cls._get()
        was_started = inst.started
        inst.started = False
        if inst.recorder:
            inst.recorder.on = False
        _record("stop", was_started=was_started, step=inst.current_step)

    @classmethod
    def step(cls):
        inst = cls._get()
        if inst.recorder:
            inst.recorder.detach()
            _dump.write_step(inst.dump_config, inst.current_step, inst.dump_rank, inst.recorder)
            inst.recorder = None
        inst.current_step += 1
        _record("step", step=inst.current_step)

    def _start_dump(self, model, rank_id):
        """Switches the dump on when the rank and step filters let this step through."""
        if not self.dump_config["dump_path"]:
            return
        rank = _dump.current_rank(rank_id)
        if self.rank_filter and (rank is None or rank not in self.rank_filter):
            return  # msProbe dumps nothing, not even the dump_path
        if self.step_filter and self.current_step not in self.step_filter:
            return
        _dump.check_dump_path(self.dump_config["dump_path"])
        if self.recorder is None:
            self.recorder = _dump.Recorder(self.dump_config)
            self.dump_rank = rank
        if model is not None and not self.recorder.handles:
            self.recorder.attach(model)
        self.recorder.on = True

    @classmethod
    def set_init_step(cls, step):
        inst = cls._get()
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise MsprobeException("[msprobe] invalid argument: init step must be an int >= 0.")
        inst.current_step = step
        _record("set_init_step", step=step)
