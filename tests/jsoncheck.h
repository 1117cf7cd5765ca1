/* jsoncheck.h - the tests' own JSON reader (RFC 8259), independent of the
 * writer in app/json.c: it checks that a text is exactly one JSON value
 * (surrounding whitespace allowed) and finds a member's string value,
 * decoded, so that tests can compare what came out with what went in. */
#ifndef OCS_JSONCHECK_H
#define OCS_JSONCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* true when text is one valid JSON value; else false and where it broke in
 * *where (a byte offset). */
bool jc_valid(const char *text, size_t *where);

/* The decoded string value of the first member named key (at any depth,
 * in text order) whose value is a string, into out (NUL-terminated;
 * \u escapes above 0x7F are written as UTF-8). false when text is not
 * valid JSON or has no such member. */
bool jc_string(const char *text, const char *key, char *out, size_t size);

#endif
