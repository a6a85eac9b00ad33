#define _GNU_SOURCE
#include "CSpawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

static int spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, pid_t *pid);

// Output to `fd`, or to /dev/null when there is none.
static int redirect(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) return posix_spawn_file_actions_addopen(actions, target, "/dev/null", O_WRONLY, 0);
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

// A copy above 2 (close-on-exec) of a descriptor that is one of the child's standard three, so setting those up
// cannot overwrite it before it is copied (a server started with 0-2 closed); -1 when there is nothing to copy.
static int copy_above_standard(int fd) { return fd >= 0 && fd <= 2 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1; }

int shelfed_spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, pid_t *pid) {
    int out_copy = copy_above_standard(out_fd), err_copy = copy_above_standard(err_fd);
    int error = spawn(path, argv, envp, out_copy >= 0 ? out_copy : out_fd, err_copy >= 0 ? err_copy : err_fd, pid);
    if (out_copy >= 0) close(out_copy);
    if (err_copy >= 0) close(err_copy);
    return error;
}

static int spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int error = posix_spawn_file_actions_init(&actions);
    if (error != 0) return error;
    posix_spawnattr_t attributes;
    error = posix_spawnattr_init(&attributes);
    if (error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    error = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (error == 0) error = redirect(&actions, out_fd, 1);
    if (error == 0) error = redirect(&actions, err_fd, 2);
    // The server's sockets and database files stay the server's (most are close-on-exec already; this is all).
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#elif defined(__APPLE__)
    short flags = POSIX_SPAWN_CLOEXEC_DEFAULT;
#else
#error "Closing the server's descriptors in a child needs glibc 2.34 or later (Debian 12, Ubuntu 22.04)."
#endif
    // A signal the server ignores (SIGPIPE, for one) would stay ignored in the program; the rest reset on exec.
    sigset_t none, ignorable;
    sigemptyset(&none);
    sigemptyset(&ignorable);
    int signals[] = {SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&ignorable, signals[i]);
    if (error == 0) error = posix_spawnattr_setsigmask(&attributes, &none);
    if (error == 0) error = posix_spawnattr_setsigdefault(&attributes, &ignorable);
#if defined(__APPLE__)
    flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#else
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#endif
    if (error == 0) error = posix_spawnattr_setflags(&attributes, flags);
    if (error == 0) error = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}

int shelfed_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }
