// Starting a program beside the server without Foundation's Process (Capture/ChildProcess.swift says why).
#ifndef SHELFED_CSPAWN_H
#define SHELFED_CSPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (each ending in NULL) through posix_spawn: its standard input is /dev/null,
/// its output goes to `out_fd` and its errors to `err_fd` (/dev/null for -1), every other descriptor the server has
/// open is closed in the child, and its signal mask and dispositions are the defaults, not the server's. Returns 0
/// with the child's id in `*pid`, or the errno value that stopped it.
int shelfed_spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, pid_t *pid);

/// A pipe whose two ends close on exec (pipe2 with O_CLOEXEC, which Swift's Glibc module does not show): 0, or -1
/// with errno set.
int shelfed_pipe(int ends[2]);

#endif
