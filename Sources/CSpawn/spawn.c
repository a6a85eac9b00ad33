#define _GNU_SOURCE
#include "CSpawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>

// Output to `fd`, or to /dev/null when there is none.
static int redirect(posix_spawn_file_actions_t *actions, int fd, int target) {
    if (fd < 0) return posix_spawn_file_actions_addopen(actions, target, "/dev/null", O_WRONLY, 0);
    return posix_spawn_file_actions_adddup2(actions, fd, target);
}

int shelfed_spawn(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd, pid_t *pid) {
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
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // The server's sockets and database files stay the server's (most are close-on-exec already; this is all).
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    // A signal the server ignores (SIGPIPE, for one) would stay ignored in the program; the rest reset on exec.
    sigset_t none, ignorable;
    sigemptyset(&none);
    sigemptyset(&ignorable);
    int signals[] = {SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&ignorable, signals[i]);
    if (error == 0) error = posix_spawnattr_setsigmask(&attributes, &none);
    if (error == 0) error = posix_spawnattr_setsigdefault(&attributes, &ignorable);
    if (error == 0) error = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (error == 0) error = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
}
