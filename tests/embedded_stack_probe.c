/* Stack-use probe for tests/embedded.rs: paints a stack region, runs init and 100 steps of a
 * model compiled by `rtc compile`, and prints how many bytes below the probe's own frame were
 * overwritten (base, init, step). GNU C (noinline) on purpose; not part of the harness. */
#define RTC_MODEL_GENERIC
#include RTC_MODEL_HEADER
#include <stdio.h>
#include <stddef.h>
#define DEPTH 65536
static double mem[RTC_MODEL_MEM_SLOTS];
__attribute__((noinline)) static void paint(void) {
    volatile unsigned char buf[DEPTH];
    size_t i;
    for (i = 0; i < DEPTH; i++) buf[i] = 0xA5;
}
__attribute__((noinline)) static size_t measure(void) {
    volatile unsigned char buf[DEPTH];
    size_t i;
    for (i = 0; i < DEPTH && buf[i] == 0xA5; i++) {}
    return DEPTH - i;
}
__attribute__((noinline)) static void baseline(void) {}
int main(void) {
    size_t base, init, step;
    int k;
    paint(); baseline(); base = measure();
    paint(); RTC_MODEL_INIT(mem, RTC_MODEL_START_TIME); init = measure();
    paint();
    for (k = 0; k < 100; k++) RTC_MODEL_STEP(mem, RTC_MODEL_START_TIME + k * RTC_MODEL_STEP_SIZE, RTC_MODEL_STEP_SIZE);
    step = measure();
    printf("%lu %lu %lu\n", (unsigned long)base, (unsigned long)init, (unsigned long)step);
    return 0;
}
