/*
 * Names and texts from the machine (a process's comm and command line, a
 * cgroup's path, a file's words) as a terminal, pmrep's CSV and an archive
 * can take them: any user can put an escape sequence or a newline in a
 * process's name (prctl PR_SET_NAME) or a cgroup's.
 */
#ifndef SMTCPU_PRINTABLE_H
#define SMTCPU_PRINTABLE_H

#include <stddef.h>

/* Copies src, up to len bytes or its first NUL, into dst (size bytes,
 * always terminated) with every control character (C0, DEL, and C1 as
 * UTF-8) and every byte outside a well-formed UTF-8 sequence (RFC 3629:
 * no overlong form, no surrogate, nothing past U+10FFFF) as '?'.  A
 * sequence that does not fit whole is left out.  dst may be src: the text
 * never grows.  Returns the length written. */
size_t printable_copy(char *dst, size_t size, const char *src, size_t len);

#endif
