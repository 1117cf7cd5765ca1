/* serve_assets.h - the page of `ocsolve serve`: the files of web/, embedded
 * into the binary at build time (scripts/embed-web writes the table into
 * BUILD/gen/web_assets.c; the Makefile compiles it in). Embedded rather
 * than read from the repository at run time, so that build/ocsolve serve
 * works from any folder and the page served is always the one built with
 * the API it talks to. */
#ifndef OCS_SERVE_ASSETS_H
#define OCS_SERVE_ASSETS_H

#include <stddef.h>

typedef struct {
    const char *path;         /* "/board.js" ("/index.html" is also "/") */
    const char *content_type; /* "text/javascript; charset=utf-8" ... */
    const unsigned char *data;
    size_t size;
} ServeAsset;

extern const ServeAsset serve_assets[];
extern const size_t serve_nassets;

#endif
