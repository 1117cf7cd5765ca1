/* json.h - the one JSON writer of the command layer: solve, verify and
 * bench print their --json objects through it.
 *
 * A streaming writer: open objects and arrays, add members, close them; it
 * puts the commas, escapes every string (quotes, backslashes, control
 * characters; bytes >= 0x80 are passed through, so UTF-8 stays UTF-8), and
 * writes null for a NULL string and for a number that is not finite.
 * Inside an object every value takes a key; inside an array and at the top
 * the key is NULL. Nesting deeper than JSON_MAX_DEPTH is a programming
 * error (assert).
 *
 * Invariant: after json_end every opened container is closed and the text
 * written is one JSON value followed by a newline.
 */
#ifndef OCS_JSON_H
#define OCS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 16 };

typedef struct {
    FILE *f;
    int depth;
    bool later[JSON_MAX_DEPTH + 1]; /* a member was written at this depth: the next needs a comma */
    char close[JSON_MAX_DEPTH + 1]; /* what closes the container at this depth: '}' or ']' */
} Json;

void json_begin(Json *j, FILE *f);
void json_end(Json *j); /* the closing newline */

void json_object(Json *j, const char *key); /* opens { */
void json_array(Json *j, const char *key);  /* opens [ */
void json_close(Json *j);                   /* closes the innermost */

void json_str(Json *j, const char *key, const char *v); /* NULL: null */
void json_int(Json *j, const char *key, long long v);
void json_uint(Json *j, const char *key, unsigned long long v);
void json_real(Json *j, const char *key, double v, int decimals); /* not finite: null */
void json_bool(Json *j, const char *key, bool v);
void json_null(Json *j, const char *key);

/* Writes s as a JSON string literal (quotes included) to f. */
void json_write_string(FILE *f, const char *s);

#endif
