/*
 * The smtcpu PMDA's performance metrics domain: end-user PMDAs take
 * 385-510, allocated from the top down.
 */
#define SMTCPU 510
