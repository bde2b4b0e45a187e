#!/bin/sh
# A stand-in Python for the environment probe tests: it ignores the probe
# script and answers as an environment with torch 2.7.1 and msProbe 26.0.0
# would; asked about the NPU (--npu), it has no torch_npu.
for a in "$@"; do [ "$a" = "--npu" ] && npu=1; done
if [ -n "$npu" ]; then
  echo 'MSPROBE-LSP-PROBE {"python": "3.10.12", "torch": "2.7.1", "msprobe": "26.0.0", "torch_npu": false, "npu_error": "No module named torch_npu"}'
else
  echo 'MSPROBE-LSP-PROBE {"python": "3.10.12", "torch": "2.7.1", "msprobe": "26.0.0"}'
fi
