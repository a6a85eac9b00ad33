#include "CMemory.h"

#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void shelfed_configure_malloc(int arenas, long mmap_threshold, long trim_threshold) {
    if (arenas > 0) mallopt(M_ARENA_MAX, arenas);
    if (mmap_threshold > 0) mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    if (trim_threshold > 0) mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
}

void shelfed_release_free_memory(void) { malloc_trim(0); }

enum { MAX_RANGES = 64 };

long shelfed_release_program_pages(void) {
    char program[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length <= 0) return -1;
    program[length] = '\0';

    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (smaps == NULL) return -1;
    struct { unsigned long start, end; long resident; } ranges[MAX_RANGES];
    int count = 0;
    // The mapping being read: a candidate while it is the program's, not writable, and its Rss is known.
    int candidate = 0;
    unsigned long start = 0, end = 0;
    long resident = 0;
    char line[PATH_MAX + 128];
    while (fgets(line, sizeof line, smaps) != NULL) {
        unsigned long from, to;
        char permissions[8];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &from, &to, permissions, &path_at) == 3 && path_at > 0) {
            char *path = line + path_at;
            path[strcspn(path, "\n")] = '\0';
            candidate = permissions[1] != 'w' && strcmp(path, program) == 0;
            start = from;
            end = to;
            resident = 0;
        } else if (candidate && sscanf(line, "Rss: %ld kB", &resident) == 1) {
            continue;
        } else if (candidate && strncmp(line, "Anonymous:", 10) == 0) {
            long anonymous = -1;
            // A page relocated at start (RELRO) is a private copy: dropping it would lose the relocation.
            if (sscanf(line, "Anonymous: %ld kB", &anonymous) == 1 && anonymous == 0 && resident > 0 &&
                count < MAX_RANGES) {
                ranges[count].start = start;
                ranges[count].end = end;
                ranges[count].resident = resident;
                count += 1;
            }
            candidate = 0;
        }
    }
    fclose(smaps);

    long released = 0;
    for (int i = 0; i < count; i++) {
        if (madvise((void *)ranges[i].start, ranges[i].end - ranges[i].start, MADV_DONTNEED) == 0)
            released += ranges[i].resident * 1024;
    }
    return released;
}
