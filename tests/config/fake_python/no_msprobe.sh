#!/bin/sh
# A stand-in Python with torch 2.1.0 and no mindstudio-probe installed.
echo 'MSPROBE-LSP-PROBE {"python": "3.9.18", "torch": "2.1.0", "msprobe": null}'
