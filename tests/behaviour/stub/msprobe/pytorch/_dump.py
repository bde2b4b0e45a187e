"""What the recording stand-in writes to disk: msProbe's folder layout and a
dump.json with the dtype and shape of every tensor it saw, so that
`msprobe-lsp check-dump` and `verify` can be tested against real runs under
Debian's torch. Written from msProbe's documented output (and from what real
8.3.3 / 26.0 runs were seen to write), not from its code:

- ``<dump_path>/step<N>/<folder>/dump.json``, ``stack.json`` and
  ``construct.json`` (the last two not with 26.x and ``extra_info: false``);
  <folder> is ``rank<R>`` under torch.distributed (or ``start(rank_id=R)``),
  else ``rank`` for 8.x and ``proc<pid>`` for 26.x (``MSPROBE_STUB_VERSION``,
  default 26.0.0);
- a non-empty ``rank`` filter that matches no process dumps nothing, and the
  dump_path is not even created; ``step`` filters steps;
- statistics entries come from forward and backward hooks on the model's leaf
  modules (names ``Functional.<module>.<n>.forward`` at L1,
  ``Module.<path>.<Class>.forward.<n>`` at L0/mix);
- ``task: tensor`` needs ``Tensor.untyped_storage()`` (PyTorch >= 2.0): without
  it 26.x raises AttributeError at the first dumped tensor and 8.x writes
  ``"data": {}`` with the error in ``dump_error_info.log``;
- a dump_path with characters msProbe rejects fails when the dump starts.
"""
import json
import os
import re

_PATH_OK = re.compile(r"^[a-zA-Z0-9_.:/-]+$")


def stub_version():
    return os.environ.get("MSPROBE_STUB_VERSION", "26.0.0")


def is_8x():
    try:
        return int(stub_version().split(".")[0]) < 26
    except ValueError:
        return False


def expand(entries):
    """rank/step entries as msProbe reads them: ints, "N" (26.x only) and "A-B"."""
    out = set()
    for e in entries or []:
        if isinstance(e, int):
            out.add(e)
            continue
        text = str(e).strip()
        if "-" in text[1:]:
            a, b = text.split("-", 1)
            out.update(range(int(a), int(b) + 1))
        elif is_8x():
            raise ValueError(f'[msprobe] invalid argument: The string parameter only supports formats like "3-5", '
                             f'not "{e}"')
        else:
            out.add(int(text))
    return out


def current_rank(rank_id):
    if rank_id is not None:
        return rank_id
    try:
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            return dist.get_rank()
    except ImportError:
        pass
    return None


def folder_name(rank):
    if rank is not None:
        return f"rank{rank}"
    return "rank" if is_8x() else f"proc{os.getpid()}"


def _entry(tensor, task):
    import torch
    entry = {"type": "torch.Tensor", "dtype": str(tensor.dtype), "shape": list(tensor.shape),
             "requires_grad": bool(tensor.requires_grad)}
    with torch.no_grad():
        t = tensor.detach().float() if tensor.numel() else None
        if t is not None:
            entry.update({"Max": t.max().item(), "Min": t.min().item(), "Mean": t.mean().item(),
                          "Norm": t.norm().item()})
    if task == "tensor":
        # msProbe saves each tensor through its untyped storage (PyTorch >= 2.0 only).
        tensor.untyped_storage()
    return entry


def _entries(value, task):
    import torch
    if isinstance(value, torch.Tensor):
        return [_entry(value, task)]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(_entries(v, task))
        return out
    if value is None:
        return []
    return [{"type": type(value).__name__, "value": value if isinstance(value, (int, float, bool, str)) else None}]


class Recorder:
    """The data of one step, filled by hooks while the dump is switched on."""

    def __init__(self, config):
        self.config = config
        self.data = {}
        self.errors = []
        self.counts = {}
        self.handles = []
        self.on = False

    def name(self, module_path, module, phase):
        cls = type(module).__name__
        key = (module_path, phase)
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        if self.config["level"] in ("L0", "mix"):
            return f"Module.{module_path or 'root'}.{cls}.{phase}.{n}"
        return f"Functional.{cls.lower()}.{n}.{phase}"

    def record(self, name, inputs, outputs):
        if not self.on:
            return
        task = self.config["task"]
        try:
            item = {"input_args": _entries(inputs, task), "input_kwargs": {}, "output": _entries(outputs, task)}
        except AttributeError as exc:
            if not is_8x():
                raise  # 26.x stops here
            self.errors.append(f"[ERROR] {name}: {exc}")
            return
        self.data[name] = item

    def attach(self, model):
        import torch.nn as nn
        models = model if isinstance(model, (list, tuple)) else [model]
        for index, m in enumerate(models):
            prefix = f"{index}." if len(models) > 1 else ""
            for path, module in m.named_modules():
                if len(list(module.children())) > 0 or not isinstance(module, nn.Module):
                    continue
                full = prefix + path

                def forward_hook(mod, inputs, outputs, full=full):
                    self.record(self.name(full, mod, "forward"), inputs, outputs)

                def backward_hook(mod, grad_inputs, grad_outputs, full=full):
                    self.record(self.name(full, mod, "backward"), grad_outputs, grad_inputs)

                self.handles.append(module.register_forward_hook(forward_hook))
                self.handles.append(module.register_full_backward_hook(backward_hook))

    def detach(self):
        for h in self.handles:
            h.remove()
        self.handles = []


def check_dump_path(dump_path):
    real = os.path.realpath(dump_path)
    if not _PATH_OK.match(real):
        raise FileNotFoundError(f"[msprobe] illegal file path: The file path {real} contains special characters.")


def write_step(config, step, rank, recorder):
    """Writes the step's files, as msProbe does when step() ends it."""
    folder = os.path.join(config["dump_path"], f"step{step}", folder_name(rank))
    os.makedirs(folder, exist_ok=True)
    data = {} if recorder.errors else recorder.data
    dump = {"task": config["task"], "level": config["level"], "framework": "pytorch",
            "dump_data_dir": os.path.join(folder, "dump_tensor_data") if config["task"] == "tensor" else None,
            "data": data}
    with open(os.path.join(folder, "dump.json"), "w", encoding="utf-8") as f:
        json.dump(dump, f, indent=1)
    if is_8x() or config.get("extra_info", True) is not False:
        with open(os.path.join(folder, "stack.json"), "w", encoding="utf-8") as f:
            json.dump({name: ["File stub.py, line 1, in <module>"] for name in data}, f)
        with open(os.path.join(folder, "construct.json"), "w", encoding="utf-8") as f:
            json.dump({name: None for name in data} if config["level"] in ("L0", "mix") else {}, f)
    if recorder.errors:
        with open(os.path.join(folder, "dump_error_info.log"), "a", encoding="utf-8") as f:
            f.write("\n".join(recorder.errors) + "\n")
    print(f"dump.json is at {os.path.join(config['dump_path'], f'step{step}')}. ", flush=True)
