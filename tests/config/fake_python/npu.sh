#!/bin/sh
# A stand-in Python on an Ascend machine: torch_npu imports, an NPU is there.
for a in "$@"; do [ "$a" = "--npu" ] && npu=1; done
if [ -n "$npu" ]; then
  echo 'MSPROBE-LSP-PROBE {"python": "3.10.12", "torch": "2.1.0", "msprobe": "8.3.3", "torch_npu": true, "npu_available": true}'
else
  echo 'MSPROBE-LSP-PROBE {"python": "3.10.12", "torch": "2.1.0", "msprobe": "8.3.3"}'
fi
