/*
 * Diagnostics from the library: one sink, set by the PMDA (pmNotifyErr) or a
 * tool (stderr), and a "once" variant so a problem that repeats every
 * sampling pass is reported a single time.
 */
#ifndef SMTCPU_LOG_H
#define SMTCPU_LOG_H

enum smt_log_level { SMT_LOG_INFO, SMT_LOG_WARNING, SMT_LOG_ERROR };

typedef void (*smt_log_sink)(enum smt_log_level level, const char *message);

void smt_log_set_sink(smt_log_sink sink);

void smt_log(enum smt_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Logs only the first time this exact message is seen. */
void smt_log_once(enum smt_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Forget what was logged, so a recurring problem is reported again. */
void smt_log_reset_once(void);

#endif
