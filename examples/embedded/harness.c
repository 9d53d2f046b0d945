/*
 * harness.c: the minimal fixed-step loop around a model compiled by `rtc compile`.
 *
 * It is the loop a user copies into firmware: one static memory block, init once, then at
 * every tick write the inputs, call step, read the outputs. Here the "tick" is a plain loop
 * (as fast as possible); on a board it is a timer interrupt or an RTOS task with the period
 * RTC_MODEL_STEP_SIZE. Inputs come from a CSV file (time column first, then one column per
 * model input, held between samples), outputs go to standard output as CSV. Each input slot
 * is written with the signal's value at the time the step reads it (the header's
 * input_offsets: 1 for the end of the step, where its equations hold; stage times for
 * multi-stage formulas).
 *
 * Models with events (when-equations, relations in if-expressions) step through
 * rtc_events.c, which handles them as `rtc run` does (Cellier & Kofman §10.8, bounded work);
 * the event counts are printed to standard error at the end.
 *
 *   cc -std=c99 -DRTC_MODEL_HEADER='"DCMotor.h"' -I<dir> harness.c rtc_events.c <dir>/DCMotor.o -lm
 *   ./run [--stop T] [--every N] [--all] [--inputs FILE.csv]
 *
 * Exit status: 0 done (also when the model's terminate() ended the run), 1 usage or input
 * file error, 2 the model stopped (status printed).
 */
#define RTC_MODEL_GENERIC
#include RTC_MODEL_HEADER
#include "rtc_events.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's memory and its outputs: static, so the loop allocates nothing. */
static double mem[RTC_MODEL_MEM_SLOTS];
static double out[RTC_MODEL_OUTPUT_COUNT];

#if RTC_MODEL_EVENT_STEPPER
/* The event stepper's description of the model and its work arrays. */
static const rtc_event_model event_model = {
    RTC_MODEL_EVENT_COUNT,        RTC_MODEL_MEM_SLOTS,     RTC_MODEL_event_kind,
    RTC_MODEL_event_chain,        RTC_MODEL_event_branch,  RTC_MODEL_event_sample,
    RTC_MODEL_event_terminates,   RTC_MODEL_event_cubic,   RTC_MODEL_event_slot,
    RTC_MODEL_event_observes,     RTC_MODEL_event_rank,    RTC_MODEL_event_group,
    RTC_MODEL_event_scale,        RTC_MODEL_event_scale_start, RTC_MODEL_event_scale_slots,
    RTC_MODEL_DISCRETE_PRE_COUNT,
    RTC_MODEL_discrete_pre,
    RTC_MODEL_STEP,
    RTC_MODEL_ZC,                 RTC_MODEL_PRE,           RTC_MODEL_EVENT};
static double event_doubles[RTC_EVENTS_DOUBLES(RTC_MODEL_MEM_SLOTS, RTC_MODEL_EVENT_COUNT)];
static int32_t event_ints[RTC_EVENTS_INTS(RTC_MODEL_EVENT_COUNT)];
static rtc_events events;
#endif

/* Input samples (read once before the loop; a board would take them from its A/D). */
static double *in_times;
static double *in_values; /* rows of RTC_MODEL_INPUT_COUNT, NAN where the file has none */
static long in_rows;
static long in_cursor[RTC_MODEL_INPUT_COUNT > 0 ? RTC_MODEL_INPUT_COUNT : 1];
static int in_column_of[RTC_MODEL_INPUT_COUNT > 0 ? RTC_MODEL_INPUT_COUNT : 1];

/* Why `x` may not enter input i (its declaration's min/max and type), or NULL: the rule rtc
 * run applies at its doors. */
static const char *rejection(int i, double x) {
    if (!isfinite(x)) return "not finite";
    if (RTC_MODEL_input_type[i] == 1 && x != floor(x)) return "not a whole number (an Integer)";
    if (RTC_MODEL_input_type[i] == 2 && x != 0.0 && x != 1.0) return "not 0 or 1 (a Boolean)";
    if (x < RTC_MODEL_input_min[i]) return "below its min";
    if (x > RTC_MODEL_input_max[i]) return "above its max";
    return NULL;
}

static int read_inputs(const char *path) {
    FILE *f = fopen(path, "r");
    char line[4096];
    int ncols = 0;
    long cap = 0;
    char *tok;
    int i;
    if (!f) {
        fprintf(stderr, "harness: cannot open %s\n", path);
        return 1;
    }
    for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++) in_column_of[i] = -1;
    if (!fgets(line, sizeof line, f)) {
        fprintf(stderr, "harness: %s is empty\n", path);
        fclose(f);
        return 1;
    }
    line[strcspn(line, "\r\n")] = 0;
    for (tok = strtok(line, ","); tok; tok = strtok(NULL, ",")) {
        int found = -1;
        while (*tok == ' ') tok++;
        if (ncols == 64) {
            fprintf(stderr, "harness: %s:1: more than 64 columns\n", path);
            fclose(f);
            return 1;
        }
        /* Every slot of the input (its stage slots too) reads this column. */
        for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++)
            if (ncols > 0 && RTC_MODEL_input_names[i] &&
                strcmp(tok, RTC_MODEL_input_names[i]) == 0) {
                found = i;
                in_column_of[i] = ncols;
            }
        if (ncols == 0 && strcmp(tok, "time") != 0) {
            fprintf(stderr, "harness: %s:1: the first column must be `time`\n", path);
            fclose(f);
            return 1;
        }
        if (ncols > 0 && found < 0) {
            fprintf(stderr, "harness: %s:1: the model has no input `%s`\n", path, tok);
            fclose(f);
            return 1;
        }
        ncols++;
    }
    while (fgets(line, sizeof line, f)) {
        double row[64] = {0};
        int n = 0;
        char *p = line, *end;
        if (strspn(line, " \r\n") == strlen(line)) continue;
        while (n < ncols) {
            row[n] = strtod(p, &end);
            if (end == p) break;
            n++;
            p = end;
            while (*p == ' ') p++;
            if (*p == ',') p++;
        }
        if (n != ncols) {
            fprintf(stderr, "harness: %s:%ld: expected %d numbers\n", path, in_rows + 2, ncols);
            fclose(f);
            return 1;
        }
        if (in_rows == cap) {
            cap = cap ? 2 * cap : 64;
            in_times = realloc(in_times, (size_t)cap * sizeof *in_times);
            in_values = realloc(in_values,
                                (size_t)cap * (RTC_MODEL_INPUT_COUNT + 1) * sizeof *in_values);
            if (!in_times || !in_values) {
                fprintf(stderr, "harness: out of memory\n");
                fclose(f);
                return 1;
            }
        }
        in_times[in_rows] = row[0];
        for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++) {
            const char *why;
            if (in_column_of[i] >= 0 && (why = rejection(i, row[in_column_of[i]]))) {
                fprintf(stderr, "harness: %s:%ld: `%s` = %g: the value is %s\n", path,
                        in_rows + 2, RTC_MODEL_input_names[i], row[in_column_of[i]], why);
                fclose(f);
                return 1;
            }
            in_values[in_rows * RTC_MODEL_INPUT_COUNT + i] =
                in_column_of[i] >= 0 ? row[in_column_of[i]] : NAN;
        }
        in_rows++;
    }
    fclose(f);
    if (in_rows == 0) {
        fprintf(stderr, "harness: %s has no samples\n", path);
        return 1;
    }
    return 0;
}

/* Zero-order hold: for the step from t of length h, each slot takes the last sample at or
 * before t + offset*h (the first one before the first time). */
static void apply_inputs(double t, double h) {
    int i;
    if (in_rows == 0) return;
    for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++) {
        const double at = t + RTC_MODEL_input_offsets[i] * h;
        if (in_column_of[i] < 0) continue;
        while (in_cursor[i] + 1 < in_rows && in_times[in_cursor[i] + 1] <= at) in_cursor[i]++;
        mem[RTC_MODEL_input_slots[i]] = in_values[in_cursor[i] * RTC_MODEL_INPUT_COUNT + i];
    }
}

static int all_outputs;

static void print_header(void) {
    int i;
    printf("time");
    for (i = 0; i < RTC_MODEL_OUTPUT_COUNT; i++)
        if (all_outputs || RTC_MODEL_output_default[i]) printf(",%s", RTC_MODEL_output_names[i]);
    printf("\n");
}

static void print_row(double t) {
    int i;
    RTC_MODEL_OUTPUTS(mem, out);
    printf("%.17g", t);
    for (i = 0; i < RTC_MODEL_OUTPUT_COUNT; i++)
        if (all_outputs || RTC_MODEL_output_default[i]) printf(",%.17g", out[i]);
    printf("\n");
}

static const char *status_text(int32_t code) {
    switch (code & 15) {
    case 1: return "Newton iteration did not converge (detail: block)";
    case 2: return "a variable became non-finite (detail: slot)";
    case 3: return "singular Jacobian (detail: block)";
    case 4: return "an event chatters: it comes back faster than the step resolves (detail: event)";
    case 5: return "the event iteration did not settle (detail: event)";
    case 7: return "an assertion of the model failed (detail: assertion)";
    default: return "unknown status";
    }
}

/* Assertions of level warning: each reported on stderr the first time it fails; the run goes
 * on (as rtc run, which also counts the failed checks). */
static unsigned char warned[RTC_MODEL_WARNING_COUNT > 0 ? RTC_MODEL_WARNING_COUNT : 1];

static void report_warnings(double t) {
    int32_t k;
    while ((k = RTC_MODEL_CHECK_WARNINGS(mem, warned)) >= 0)
        fprintf(stderr, "%s: warning at t = %g: %s (an assert of level warning; the run goes on)\n",
                RTC_MODEL_NAME, t, RTC_MODEL_assertion_messages[k]);
}

int main(int argc, char **argv) {
    const double h = RTC_MODEL_STEP_SIZE;
    const double t0 = RTC_MODEL_START_TIME;
    double stop = RTC_MODEL_STOP_TIME;
    long every = 1, n, k;
    int i;
    int32_t st;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stop") == 0 && i + 1 < argc) {
            stop = strtod(argv[++i], NULL);
        } else if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) {
            every = strtol(argv[++i], NULL, 10);
            if (every < 1) every = 1;
        } else if (strcmp(argv[i], "--inputs") == 0 && i + 1 < argc) {
            if (read_inputs(argv[++i])) return 1;
        } else if (strcmp(argv[i], "--all") == 0) {
            all_outputs = 1;
        } else {
            fprintf(stderr, "usage: %s [--stop T] [--every N] [--all] [--inputs FILE.csv]\n",
                    argv[0]);
            return 1;
        }
    }
    /* Inputs hold their start values until the environment sets them. */
    for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++)
        if (RTC_MODEL_input_names[i]) mem[RTC_MODEL_input_slots[i]] = RTC_MODEL_input_starts[i];
    apply_inputs(t0, 0.0);
#ifdef RTC_MODEL_EXT_OBJECTS
    /* The external objects the model's library constructs, made before init (their
     * destructors run at exit, on every way out). */
    if (RTC_MODEL_EXT_INIT() != 0) {
        fprintf(stderr, "%s: an external object's constructor failed\n", RTC_MODEL_NAME);
        return 2;
    }
    atexit(RTC_MODEL_EXT_FREE);
#endif
    st = RTC_MODEL_INIT(mem, t0);
#if RTC_MODEL_EVENT_STEPPER
    rtc_events_init(&events, &event_model, event_doubles, event_ints);
    if (st == 0) st = rtc_events_initial(&events, mem, t0);
#endif
    if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(mem, 1);
    if (st == 0) report_warnings(t0);
    if (st != 0) {
        fprintf(stderr, "%s: init failed at t = %g: %s, detail %ld%s%s\n", RTC_MODEL_NAME, t0,
                status_text(st), (long)(st >> 4), (st & 15) == 7 ? ": " : "",
                (st & 15) == 7 ? RTC_MODEL_assertion_messages[st >> 4] : "");
        return 2;
    }
    print_header();
    print_row(t0);
    n = (long)round((stop - t0) / h);
    for (k = 0; k < n; k++) {
        /* The fixed-step loop: a board runs this body once per timer tick. */
        const double t = t0 + (double)k * h;
        const double t1 = t0 + (double)(k + 1) * h;
        apply_inputs(t, h);
#if RTC_MODEL_EVENT_STEPPER
        st = rtc_events_step(&events, mem, t, h);
        if ((st & 15) == 6) {
            /* terminate() in an event's actions: the run ends after this step. */
            print_row(t1);
            fprintf(stderr, "%s: terminated at t = %.17g by event %ld (%s); the run ends at t = %g\n",
                    RTC_MODEL_NAME, events.terminated_at, (long)(st >> 4),
                    RTC_MODEL_event_conditions[st >> 4], t1);
            break;
        }
#else
        st = RTC_MODEL_STEP(mem, t, h);
#endif
        if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(mem, 0);
        if (st == 0) report_warnings(t1);
        if (st != 0) {
            print_row(t1);
            fprintf(stderr, "%s: stopped at t = %g: %s, detail %ld%s%s\n", RTC_MODEL_NAME, t1,
                    status_text(st), (long)(st >> 4), (st & 15) == 7 ? ": " : "",
                    (st & 15) == 7 ? RTC_MODEL_assertion_messages[st >> 4] : "");
            return 2;
        }
        if ((k + 1) % every == 0 || k + 1 == n) print_row(t1);
    }
#if RTC_MODEL_EVENT_STEPPER
    /* A run that reached its end: terminal() is true once, at its last instant. */
    if (events.terminated < 0) {
        const double t_end = t0 + (double)n * h;
        st = rtc_events_terminal(&events, mem, t_end);
        if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(mem, 0);
        if (st != 0) {
            fprintf(stderr, "%s: the run reached t = %g, and then its terminal() actions failed: %s, detail %ld%s%s\n",
                    RTC_MODEL_NAME, t_end, status_text(st), (long)(st >> 4),
                    (st & 15) == 7 ? ": " : "",
                    (st & 15) == 7 ? RTC_MODEL_assertion_messages[st >> 4] : "");
            return 2;
        }
    }
    fprintf(stderr, "%s: events: %ld handled, %ld deferred to the end of their step\n",
            RTC_MODEL_NAME, events.handled, events.deferred);
#endif
    free(in_times);
    free(in_values);
    return 0;
}
