/* json.c - see json.h. */
#include "json.h"

#include <assert.h>
#include <math.h>

void json_begin(Json *j, FILE *f) { *j = (Json){.f = f}; }

void json_end(Json *j)
{
    assert(j->depth == 0);
    fputc('\n', j->f);
}

void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7F) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* The comma and key before a value. */
static void member(Json *j, const char *key)
{
    if (j->later[j->depth]) fputc(',', j->f);
    j->later[j->depth] = true;
    if (key) {
        json_write_string(j->f, key);
        fputc(':', j->f);
    }
}

static void open(Json *j, const char *key, char c)
{
    assert(j->depth < JSON_MAX_DEPTH);
    member(j, key);
    fputc(c, j->f);
    j->depth++;
    j->later[j->depth] = false;
    j->close[j->depth] = c == '{' ? '}' : ']';
}

void json_object(Json *j, const char *key) { open(j, key, '{'); }
void json_array(Json *j, const char *key) { open(j, key, '['); }

void json_close(Json *j)
{
    assert(j->depth > 0);
    fputc(j->close[j->depth], j->f);
    j->depth--;
}

void json_str(Json *j, const char *key, const char *v)
{
    member(j, key);
    if (v) json_write_string(j->f, v);
    else fputs("null", j->f);
}

void json_int(Json *j, const char *key, long long v)
{
    member(j, key);
    fprintf(j->f, "%lld", v);
}

void json_uint(Json *j, const char *key, unsigned long long v)
{
    member(j, key);
    fprintf(j->f, "%llu", v);
}

void json_real(Json *j, const char *key, double v, int decimals)
{
    member(j, key);
    if (isfinite(v)) fprintf(j->f, "%.*f", decimals, v);
    else fputs("null", j->f);
}

void json_bool(Json *j, const char *key, bool v)
{
    member(j, key);
    fputs(v ? "true" : "false", j->f);
}

void json_null(Json *j, const char *key)
{
    member(j, key);
    fputs("null", j->f);
}
