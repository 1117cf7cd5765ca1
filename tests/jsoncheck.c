/* jsoncheck.c - see jsoncheck.h. A recursive-descent reader over the
 * grammar of RFC 8259; it builds nothing, it only walks. */
#include "jsoncheck.h"

#include <string.h>

typedef struct {
    const char *s;
    size_t i;
    int depth;
    /* string capture: where to decode the current string, or NULL */
    char *out;
    size_t size, len;
    /* jc_string: the key looked for, where its first string value goes */
    const char *want;
    char *found;
    size_t fsize;
    bool got;
} Rd;

static bool value(Rd *r);

static void ws(Rd *r)
{
    while (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r') r->i++;
}

static void put(Rd *r, unsigned c)
{
    if (r->out && r->len + 1 < r->size) r->out[r->len++] = (char)c;
}

static void put_utf8(Rd *r, unsigned cp)
{
    if (cp < 0x80) put(r, cp);
    else if (cp < 0x800) put(r, 0xC0 | cp >> 6), put(r, 0x80 | (cp & 63));
    else put(r, 0xE0 | cp >> 12), put(r, 0x80 | (cp >> 6 & 63)), put(r, 0x80 | (cp & 63));
}

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool string(Rd *r)
{
    if (r->s[r->i] != '"') return false;
    r->i++;
    for (;;) {
        unsigned char c = (unsigned char)r->s[r->i];
        if (c == '"') break;
        if (c < 0x20) return false; /* raw control characters (a raw newline too) are not allowed */
        r->i++;
        if (c != '\\') {
            put(r, c);
            continue;
        }
        char e = r->s[r->i++];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *p = e ? strchr(from, e) : NULL;
        if (p) {
            put(r, (unsigned char)to[p - from]);
        } else if (e == 'u') {
            unsigned cp = 0;
            for (int k = 0; k < 4; k++) {
                int h = hex(r->s[r->i++]);
                if (h < 0) return false;
                cp = cp << 4 | (unsigned)h;
            }
            put_utf8(r, cp);
        } else {
            return false;
        }
    }
    r->i++;
    if (r->out && r->size) r->out[r->len] = '\0';
    return true;
}

static bool digits(Rd *r)
{
    size_t start = r->i;
    while (r->s[r->i] >= '0' && r->s[r->i] <= '9') r->i++;
    return r->i > start;
}

static bool number(Rd *r)
{
    if (r->s[r->i] == '-') r->i++;
    if (r->s[r->i] == '0') r->i++;
    else if (!digits(r)) return false;
    if (r->s[r->i] == '.') {
        r->i++;
        if (!digits(r)) return false;
    }
    if (r->s[r->i] == 'e' || r->s[r->i] == 'E') {
        r->i++;
        if (r->s[r->i] == '+' || r->s[r->i] == '-') r->i++;
        if (!digits(r)) return false;
    }
    return true;
}

static bool word(Rd *r, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(r->s + r->i, w, n) != 0) return false;
    r->i += n;
    return true;
}

/* Members or elements between open and close; keys for objects. */
static bool container(Rd *r, char close, bool keys)
{
    if (++r->depth > 64) return false;
    r->i++;
    ws(r);
    if (r->s[r->i] == close) {
        r->i++;
        r->depth--;
        return true;
    }
    for (;;) {
        bool capture = false;
        if (keys) {
            char name[256];
            r->out = name;
            r->size = sizeof name;
            r->len = 0;
            bool ok = string(r);
            r->out = NULL;
            if (!ok) return false;
            ws(r);
            if (r->s[r->i++] != ':') return false;
            ws(r);
            capture = r->want && !r->got && strcmp(name, r->want) == 0 && r->s[r->i] == '"';
        }
        if (capture) {
            r->out = r->found;
            r->size = r->fsize;
            r->len = 0;
            r->got = true;
        }
        bool ok = value(r);
        r->out = NULL;
        if (!ok) return false;
        ws(r);
        char c = r->s[r->i++];
        if (c == close) break;
        if (c != ',') return false;
        ws(r);
    }
    r->depth--;
    return true;
}

static bool value(Rd *r)
{
    ws(r);
    char c = r->s[r->i];
    bool ok = c == '{'   ? container(r, '}', true)
              : c == '[' ? container(r, ']', false)
              : c == '"' ? string(r)
              : c == 't' ? word(r, "true")
              : c == 'f' ? word(r, "false")
              : c == 'n' ? word(r, "null")
                         : number(r);
    ws(r);
    return ok;
}

bool jc_valid(const char *text, size_t *where)
{
    Rd r = {.s = text};
    bool ok = value(&r) && text[r.i] == '\0';
    if (where) *where = r.i;
    return ok;
}

bool jc_string(const char *text, const char *key, char *out, size_t size)
{
    Rd r = {.s = text, .want = key, .found = out, .fsize = size};
    return value(&r) && text[r.i] == '\0' && r.got;
}
