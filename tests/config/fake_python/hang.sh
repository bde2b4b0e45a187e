#!/bin/sh
# A stand-in Python that never answers (a broken environment, a network
# mount...): the probe must stop it after its timeout. It leaves its pid in
# $MSPROBE_TEST_PIDFILE so a test can check it was killed.
[ -n "$MSPROBE_TEST_PIDFILE" ] && echo $$ > "$MSPROBE_TEST_PIDFILE"
exec sleep 60
