/*
 * Names given small numbers, in the order first met: a service's or a
 * CPU's instance name to the index of its figures.
 */
#ifndef SMTCPU_INTERN_H
#define SMTCPU_INTERN_H

struct intern {
	char **names;		/* [n], by number */
	int n, cap;
	int *slots;		/* [nslots] number + 1 by hash, 0 empty */
	int nslots;
};

/* name's number, new if it was not known: -1 out of memory. */
int intern(struct intern *t, const char *name);

/* name's number, -1 where it is not known. */
int intern_find(const struct intern *t, const char *name);

void intern_free(struct intern *t);

#endif
