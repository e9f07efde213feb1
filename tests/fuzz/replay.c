// Runs a libFuzzer harness over corpus files without libFuzzer (for machines with gcc only):
// link it with fuzz_<name>.c and c/*.c, then `replay DIR_OR_FILE...`. Each input goes through
// LLVMFuzzerTestOneInput once, in sorted order, so a replay is deterministic.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);   // exactly the input (plus 1 byte when empty)
    size_t got = n > 0 ? fread(data, 1, (size_t)n, f) : 0;
    fclose(f);
    if ((long)got != n) {
        fprintf(stderr, "%s: short read\n", path);
        free(data);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, (size_t)n);
    free(data);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    int files = 0, errors = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            errors += run_file(argv[i]);
            files++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (dir == NULL) {
            perror(argv[i]);
            return 1;
        }
        char **names = NULL;
        size_t count = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            if (e->d_name[0] == '.') continue;
            names = realloc(names, (count + 1) * sizeof *names);
            size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[count] = malloc(len);
            snprintf(names[count], len, "%s/%s", argv[i], e->d_name);
            count++;
        }
        closedir(dir);
        qsort(names, count, sizeof *names, by_name);
        for (size_t k = 0; k < count; k++) {
            errors += run_file(names[k]);
            files++;
            free(names[k]);
        }
        free(names);
    }
    printf("replayed %d inputs\n", files);
    return errors != 0;
}
