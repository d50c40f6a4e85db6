/*
 * The checks of the provider's C test programs: CHECK counts every check and reports each
 * failed one on stderr with its place and a message; main prints the counts and fails if
 * any check failed.
 */
#ifndef VECRYPT_OPENSSL_TEST_CHECK_H
#define VECRYPT_OPENSSL_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        checks++;                                                              \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,   \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

#endif
