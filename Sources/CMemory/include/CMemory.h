// How Shelfed hands memory back to the system (benchmarks/README.md, "Idle memory"): glibc's malloc settings and
// trimming, and the clean pages of the server's own program file that only start-up or a busy moment needed.
#ifndef SHELFED_CMEMORY_H
#define SHELFED_CMEMORY_H

/// Caps glibc's malloc arenas at `arenas` and makes every allocation of `mmap_threshold` bytes or more a mapping of
/// its own, returned to the system as soon as it is freed. A fixed threshold also stops glibc raising it (and the
/// trim threshold, to twice as much) after the first large block is freed, which left the encoder's 10–20 MB working
/// arrays resident in an arena for good. Free space of `trim_threshold` bytes or more at the top of an arena is
/// given back at once; below that it waits for `shelfed_release_free_memory`. Each setting of 0 leaves glibc's own.
void shelfed_configure_malloc(int arenas, long mmap_threshold, long trim_threshold);

/// Hands the free pages malloc's arenas keep back to the system (glibc's malloc_trim).
void shelfed_release_free_memory(void);

/// Drops from the process the resident pages of its own program file that hold nothing but the file's contents:
/// the machine code and read-only data that start-up, a page or an import touched and an idle server no longer
/// runs. They stay in the kernel's page cache (reclaimable first when memory runs short) and come back on the next
/// use with a minor fault. Only mappings of the executable itself are touched, never unmapped while the process
/// lives, and only those the process cannot write and holding no private copy of a page, so nothing is ever lost.
/// Returns the bytes that were resident in them, or -1 when /proc cannot be read.
long shelfed_release_program_pages(void);

#endif
