/* hugemap.c: see hugemap.h. */
#include "hugemap.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

void *hugemap_alloc(HugeMap *m, size_t len)
{
    m->map_len = len + HUGEMAP_PAGE;
    m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m->map == MAP_FAILED) {
        m->map = NULL;
        m->map_len = 0;
        return NULL;
    }
    void *start = (void *)(((uintptr_t)m->map + HUGEMAP_PAGE - 1) & ~(uintptr_t)(HUGEMAP_PAGE - 1));
#ifdef MADV_HUGEPAGE
    madvise(start, len, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
    memset(start, 0, len); /* every page touched now */
    return start;
}

void hugemap_free(HugeMap *m)
{
    if (m->map) munmap(m->map, m->map_len);
    m->map = NULL;
    m->map_len = 0;
}
