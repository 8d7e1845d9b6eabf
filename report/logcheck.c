/*
 * pmlogcheck run on an archive that failed: $PCP_BIN_DIR/pmlogcheck, no
 * shell, its output read through a pipe (the first line, at most len).
 */
#include "logcheck.h"
#include "printable.h"

#include <fcntl.h>
#include <pcp/pmapi.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void logcheck_says(const char *archive, char *buf, size_t len)
{
	const char *bindir = pmGetConfig("PCP_BIN_DIR");
	char prog[4096], out[1024], rest[1024];
	char *argv[] = { prog, (char *)archive, NULL };
	posix_spawn_file_actions_t actions;
	int fd[2], status;
	size_t n = 0;
	ssize_t got;
	pid_t pid;

	buf[0] = '\0';
	snprintf(prog, sizeof prog, "%s/pmlogcheck", bindir && *bindir ? bindir : "/usr/bin");
	if (pipe2(fd, O_CLOEXEC) != 0)
		return;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, fd[1], STDERR_FILENO);
	if (posix_spawn(&pid, prog, &actions, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&actions);
		close(fd[0]);
		close(fd[1]);
		return;
	}
	posix_spawn_file_actions_destroy(&actions);
	close(fd[1]);
	/* the first of it kept, the rest read too, so that pmlogcheck is not
	 * held by a full pipe */
	while ((got = n < sizeof out - 1 ? read(fd[0], out + n, sizeof out - 1 - n)
					 : read(fd[0], rest, sizeof rest)) > 0)
		if (n < sizeof out - 1)
			n += (size_t)got;
	close(fd[0]);
	waitpid(pid, &status, 0);
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	printable_copy(buf, len, out, strlen(out));
}
