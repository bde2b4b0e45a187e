#!/bin/sh
# A stand-in Python that prints something else (a wrapper script, a banner).
echo "Welcome to the cluster!"
exit 3
