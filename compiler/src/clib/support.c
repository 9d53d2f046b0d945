/* rtc's side of the C interface of external functions (Modelica 3.6, 12.9.6 and 12.9.7):
 * the ModelicaUtilities.h callbacks the libraries call, and the error catch of the shims.
 *
 * ModelicaError is declared no-return: each shim (clib/shim.rs) sets a jmp_buf with setjmp
 * before it calls the library and registers it with rtc_ext_enter; ModelicaError records the
 * message and longjmps back to that shim, which writes NaN to its outputs and returns. The
 * longjmp crosses only C frames (the library's and the shim's). rtc reads the message with
 * rtc_ext_take_error and reports it as the run's error, with the model time and the function.
 *
 * Strings allocated by the libraries (ModelicaAllocateString) come from a list freed when the
 * run ends (rtc_ext_release); rtc_ext_allocated reports how many bytes a run took. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define RTC_TLS __thread
#else
#define RTC_TLS _Thread_local
#endif

static RTC_TLS jmp_buf *rtc_jump = NULL;
static RTC_TLS const char *rtc_function = NULL;
static char rtc_error[2048];
static volatile int rtc_failed = 0;

struct rtc_block { struct rtc_block *next; };
static struct rtc_block *rtc_blocks = NULL;
static size_t rtc_allocated = 0;

void rtc_ext_enter(jmp_buf *b, const char *function) {
    rtc_jump = b;
    rtc_function = function;
}

void rtc_ext_leave(void) {
    rtc_jump = NULL;
}

/* The first error since the last take: 1 and the message, or 0. */
int rtc_ext_take_error(char *buf, int n) {
    if (!rtc_failed) return 0;
    snprintf(buf, (size_t)n, "%s", rtc_error);
    rtc_failed = 0;
    return 1;
}

size_t rtc_ext_allocated(void) {
    return rtc_allocated;
}

void rtc_ext_release(void) {
    while (rtc_blocks) {
        struct rtc_block *b = rtc_blocks;
        rtc_blocks = b->next;
        free(b);
    }
}

static void rtc_fail(const char *msg) {
    if (!rtc_failed) {
        snprintf(rtc_error, sizeof rtc_error, "%s%s%s", rtc_function ? rtc_function : "",
                 rtc_function ? ": " : "", msg);
        rtc_failed = 1;
    }
    if (rtc_jump) {
        jmp_buf *b = rtc_jump;
        rtc_jump = NULL;
        longjmp(*b, 1);
    }
    /* Outside every shim (no external call is made so): stop as a located error would. */
    fprintf(stderr, "error[external]: %s\n", rtc_error);
    exit(1);
}

void ModelicaMessage(const char *string) {
    fprintf(stderr, "%s", string);
}

void ModelicaVFormatMessage(const char *format, va_list args) {
    vfprintf(stderr, format, args);
}

void ModelicaFormatMessage(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatMessage(format, args);
    va_end(args);
}

void ModelicaWarning(const char *string) {
    fprintf(stderr, "warning[external]: %s\n", string);
}

void ModelicaVFormatWarning(const char *format, va_list args) {
    char buf[2048];
    vsnprintf(buf, sizeof buf, format, args);
    ModelicaWarning(buf);
}

void ModelicaFormatWarning(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatWarning(format, args);
    va_end(args);
}

void ModelicaError(const char *string) {
    rtc_fail(string);
}

void ModelicaVFormatError(const char *format, va_list args) {
    char buf[2048];
    vsnprintf(buf, sizeof buf, format, args);
    rtc_fail(buf);
}

void ModelicaFormatError(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatError(format, args);
    va_end(args);
}

char *ModelicaAllocateStringWithErrorReturn(size_t len) {
    struct rtc_block *b = (struct rtc_block *)malloc(sizeof(struct rtc_block) + len + 1);
    if (!b) return NULL;
    b->next = rtc_blocks;
    rtc_blocks = b;
    rtc_allocated += len + 1;
    char *s = (char *)(b + 1);
    s[len] = '\0';
    return s;
}

char *ModelicaAllocateString(size_t len) {
    char *s = ModelicaAllocateStringWithErrorReturn(len);
    if (!s) rtc_fail("out of memory allocating a string");
    return s;
}

char *ModelicaDuplicateStringWithErrorReturn(const char *str) {
    size_t n = strlen(str);
    char *s = ModelicaAllocateStringWithErrorReturn(n);
    if (s) memcpy(s, str, n);
    return s;
}

char *ModelicaDuplicateString(const char *str) {
    char *s = ModelicaDuplicateStringWithErrorReturn(str);
    if (!s) rtc_fail("out of memory allocating a string");
    return s;
}
