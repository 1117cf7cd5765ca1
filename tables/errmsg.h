/* errmsg.h - the tables layer's one way to fill a caller's error buffer.
 *
 * errmsg_set(err, errlen, fmt, ...) formats into err (at most errlen
 * bytes, always terminated); a NULL err or errlen <= 0 is allowed and
 * writes nothing, for callers that do not want the message. It returns
 * -1, so a failing function can end with `return errmsg_set(...)`.
 * The layers above (solver/, bench/, jobs/) use it too: one formatter. */
#ifndef OCS_ERRMSG_H
#define OCS_ERRMSG_H

int errmsg_set(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
