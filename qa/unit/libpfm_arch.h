/*
 * For the unit tests that check smtcpu's x86 event codes against libpfm4's
 * tables (include after cmocka.h).
 */
#ifndef SMTCPU_LIBPFM_ARCH_H
#define SMTCPU_LIBPFM_ARCH_H

/*
 * libpfm4 is built with its own architecture's tables only (lib/Makefile
 * takes the x86 ones under CONFIG_PFMLIB_ARCH_X86, which config.mk sets on
 * x86 alone; Debian's ppc64el libpfm4 knows none of them), so smtcpu's x86
 * event codes are checked against it by the x86 build; a POWER build says so.
 */
#if defined(__x86_64__) || defined(__i386__)
#define skip_unless_libpfm_has_x86() ((void)0)
#else
#define skip_unless_libpfm_has_x86() do { \
	print_message("skipped: this libpfm4 is built for another architecture and has no x86 " \
		      "tables (the x86 build checks them)\n"); \
	skip(); \
} while (0)
#endif

#endif
