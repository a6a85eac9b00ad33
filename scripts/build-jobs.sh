#!/usr/bin/env bash
# How many compile jobs fit in this machine's memory (issue 26). The release build's largest process (compiling
# ShelfedKit as one module, or linking) reached 1.67 GB on the machine the figures in README "Build on a Pi" come
# from; with two jobs, everything together peaked near 1.2–1.7 GB more than at rest. So: one job for every 1.7 GB
# after leaving 400 MB to the system, at least one, at most one per core. `make JOBS=n` overrides it.
per_job_mb=${SHELFED_BUILD_JOB_MB:-1700}
total_mb=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo)
cores=$(nproc)
jobs=$(( (total_mb - 400) / per_job_mb ))
if [ "$jobs" -lt 1 ]; then jobs=1; fi
if [ "$jobs" -gt "$cores" ]; then jobs=$cores; fi
echo "$jobs"
