#ifndef SHELFED_DYNAMIC_SYMBOL_H
#define SHELFED_DYNAMIC_SYMBOL_H

#include <dlfcn.h>
#include <stddef.h>

// The libraries Shelfed opens on first use (libvips, zbar) are looked up symbol by symbol; one missing symbol
// marks the whole library unusable instead of leaving a null function pointer to call later.
static inline void *shelfed_symbol(void *library, const char *name, int *missing) {
    void *found = dlsym(library, name);
    if (found == NULL) *missing = 1;
    return found;
}

#endif
