/*
 * A main for the fuzz harnesses where libFuzzer is not at hand (a cross
 * build): each file named, or each file in each directory named, is given to
 * LLVMFuzzerTestOneInput once, as libFuzzer's -runs=0 would.  A crash or an
 * abort is the finding; the count of inputs goes to stdout.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *file = fopen(path, "rb");
	struct stat st;
	uint8_t *data;
	size_t size;

	if (file == NULL || fstat(fileno(file), &st) != 0) {
		perror(path);
		if (file != NULL)
			fclose(file);
		return -1;
	}
	size = (size_t)st.st_size;
	/* (one byte more: malloc(0) may give NULL) */
	data = malloc(size + 1);
	if (data == NULL || fread(data, 1, size, file) != size) {
		fprintf(stderr, "%s: cannot read %zu bytes\n", path, size);
		free(data);
		fclose(file);
		return -1;
	}
	fclose(file);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 1;
}

static int run_path(const char *path)
{
	struct stat st;
	struct dirent *entry;
	DIR *dir;
	char child[4096];
	int count = 0, n;

	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	dir = opendir(path);
	if (dir == NULL) {
		perror(path);
		return -1;
	}
	while ((entry = readdir(dir)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, entry->d_name);
		n = run_path(child);
		if (n < 0) {
			closedir(dir);
			return -1;
		}
		count += n;
	}
	closedir(dir);
	return count;
}

int main(int argc, char **argv)
{
	int total = 0, n;

	for (int i = 1; i < argc; i++) {
		n = run_path(argv[i]);
		if (n < 0)
			return 1;
		total += n;
	}
	printf("%d inputs\n", total);
	return 0;
}
