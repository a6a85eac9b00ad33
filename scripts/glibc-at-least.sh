#!/usr/bin/env bash
# Prints "yes" when the C library is glibc at or above the version given (for example 2.36), "no" otherwise.
set -euo pipefail
wanted="$1"
have="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
if [[ -n "$have" ]] && [[ "$(printf '%s\n%s\n' "$wanted" "$have" | sort -V | head -1)" == "$wanted" ]]; then
    echo yes
else
    echo no
fi
