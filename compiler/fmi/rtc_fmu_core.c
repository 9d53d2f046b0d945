/*
 * rtc_fmu_core.c: see rtc_fmu_core.h. Written for rtc.
 *
 * fmi*DoStep runs whole steps of the compiled step size (RTC_MODEL_STEP_SIZE), each the
 * bounded-work inline step of the chosen method with the events located inside it as
 * `rtc run` does; a communication step that is not a whole number of steps is an error.
 * Inputs set before a step hold over it (every slot the step reads them from). Tunable
 * parameters set before initialisation initialise the model (`<m>_start`); set later,
 * `<m>_parameters` recomputes what depends on them before the next step. Nothing here
 * allocates.
 */
#include "rtc_fmu_core.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if RTC_MODEL_EVENT_STEPPER
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
#endif

void rtc_fmu_logf(rtc_fmu *f, int error, const char *category, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    if (!f->log) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->log(f, error, category, msg);
}

double rtc_fmu_time(const rtc_fmu *f) {
    return f->start + (double)f->s.steps * RTC_MODEL_STEP_SIZE;
}

void rtc_fmu_resources(const char *location) {
#ifdef RTC_MODEL_EXT_RESOURCES
    /* A path, or a file URI (FMI 2.0's fmuResourceLocation): file:///p, file:/p or
     * file://localhost/p, percent escapes decoded; with a trailing separator. */
    char dir[4096];
    size_t n = 0;
    const char *p = location ? location : "";
    if (strncmp(p, "file://localhost/", 17) == 0)
        p += 16;
    else if (strncmp(p, "file:///", 8) == 0)
        p += 7;
    else if (strncmp(p, "file:/", 6) == 0)
        p += 5;
    for (; *p && n + 2 < sizeof dir; p++) {
        int hi, lo;
        if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
            dir[n++] = (char)(hi * 16 + lo);
            p += 2;
        } else {
            dir[n++] = *p;
        }
    }
    if (n > 0 && dir[n - 1] != '/') dir[n++] = '/';
    dir[n] = 0;
    RTC_MODEL_EXT_RESOURCES(dir);
#else
    (void)location;
#endif
}

int rtc_fmu_objects(rtc_fmu *f) {
#ifdef RTC_MODEL_EXT_OBJECTS
    if (RTC_MODEL_EXT_INIT() != 0) {
        rtc_fmu_logf(f, 1, "logStatusError", "an external object's constructor failed");
        return -1;
    }
#else
    (void)f;
#endif
    return 0;
}

void rtc_fmu_free_objects(void) {
#ifdef RTC_MODEL_EXT_OBJECTS
    RTC_MODEL_EXT_FREE();
#endif
}

void rtc_fmu_defaults(rtc_fmu *f) {
    int i;
    memset(&f->s, 0, sizeof f->s);
    memset(f->warned, 0, sizeof f->warned);
    f->start = RTC_MODEL_START_TIME;
    /* Parameters and start values as the model gives them (init from defaults), readable
     * before initialisation; the master may then change the tunable ones. */
    RTC_MODEL_INIT(f->s.mem, f->start);
    for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++)
        f->s.mem[RTC_MODEL_input_slots[i]] = RTC_MODEL_input_starts[i];
    f->s.mode = RTC_FMU_INSTANTIATED;
}

/* What a nonzero status of the step or the event stepper means, for the log. */
static void explain(rtc_fmu *f, int32_t st, double t) {
    long detail = (long)(st >> 4);
    const char *c = "logStatusError";
    switch (st & 15) {
    case 1:
        rtc_fmu_logf(f, 1, c,
                     "t = %.15g: the Newton iteration of block %ld did not converge within its "
                     "iteration bound", t, detail);
        break;
    case 2:
        rtc_fmu_logf(f, 1, c, "t = %.15g: `%s` became non-finite", t,
                     detail < RTC_FMU_SLOT_COUNT ? rtc_fmu_slot_names[detail] : "?");
        break;
    case 3:
        rtc_fmu_logf(f, 1, c, "t = %.15g: the Jacobian of block %ld is singular", t, detail);
        break;
    case 4:
        rtc_fmu_logf(f, 1, c,
                     "t = %.15g: event %ld chatters: it comes back faster than the step "
                     "resolves", t, detail);
        break;
    case 5:
        rtc_fmu_logf(f, 1, c, "t = %.15g: the event iteration did not settle (event %ld)", t,
                     detail);
        break;
    case 7:
        rtc_fmu_logf(f, 1, c, "t = %.15g: assertion failed: %s", t,
                     RTC_MODEL_assertion_messages[detail]);
        break;
    default:
        rtc_fmu_logf(f, 1, c, "t = %.15g: status %ld", t, (long)st);
    }
}

/* Assertions of level warning that fail for the first time: logged, and the step goes on. */
static void report_warnings(rtc_fmu *f, double t) {
    int32_t k;
    while ((k = RTC_MODEL_CHECK_WARNINGS(f->s.mem, f->warned)) >= 0)
        rtc_fmu_logf(f, 2, "logStatusWarning", "t = %.15g: warning (an assert of level warning): %s",
                     t, RTC_MODEL_assertion_messages[k]);
}

int rtc_fmu_initialize(rtc_fmu *f) {
    int32_t st = RTC_MODEL_START(f->s.mem, f->start);
#if RTC_MODEL_EVENT_STEPPER
    rtc_events_init(&f->s.events, &event_model, f->s.event_doubles, f->s.event_ints);
    if (st == 0) st = rtc_events_initial(&f->s.events, f->s.mem, f->start);
#endif
    if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(f->s.mem, 1);
    if (st == 0) report_warnings(f, f->start);
    f->s.params_changed = 0;
    if (st != 0 && (st & 15) != 6) {
        explain(f, st, f->start);
        f->s.mode = RTC_FMU_FAILED;
        return -1;
    }
    f->s.mode = (st & 15) == 6 ? RTC_FMU_TERMINATED : RTC_FMU_STEPPING;
    return (st & 15) == 6 ? 1 : 0;
}

int rtc_fmu_terminate(rtc_fmu *f) {
    int32_t st = 0;
    if (f->s.mode != RTC_FMU_STEPPING) {
        f->s.mode = RTC_FMU_TERMINATED;
        return 0;
    }
#if RTC_MODEL_EVENT_STEPPER
    st = rtc_events_terminal(&f->s.events, f->s.mem, rtc_fmu_time(f));
#endif
    if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(f->s.mem, 0);
    if (st != 0) {
        rtc_fmu_logf(f, 1, "logStatusError", "the terminal() actions at the end of the run failed");
        explain(f, st, rtc_fmu_time(f));
        f->s.mode = RTC_FMU_FAILED;
        return -1;
    }
    f->s.mode = RTC_FMU_TERMINATED;
    return 0;
}

static int check_vr(rtc_fmu *f, unsigned vr, const char *fn) {
    if (vr >= RTC_FMU_VAR_COUNT) {
        rtc_fmu_logf(f, 1, "logStatusError", "%s: unknown value reference %u", fn, vr);
        return -1;
    }
    return 0;
}

int rtc_fmu_get(rtc_fmu *f, unsigned vr, double *x) {
    int32_t idx;
    if (check_vr(f, vr, "get") != 0) return -1;
    idx = rtc_fmu_index[vr];
    switch (rtc_fmu_kind[vr]) {
    case RTC_FMU_TIME:
        *x = f->s.mode == RTC_FMU_STEPPING || f->s.mode == RTC_FMU_TERMINATED ? rtc_fmu_time(f)
                                                                            : f->start;
        break;
    case RTC_FMU_PARAMETER:
    case RTC_FMU_CALCULATED:
        *x = f->s.mem[idx];
        break;
    case RTC_FMU_INPUT:
        *x = f->s.mem[rtc_fmu_input_slots[rtc_fmu_input_first[idx]]];
        break;
    default:
        RTC_MODEL_OUTPUTS(f->s.mem, f->out);
        *x = f->out[idx];
    }
    return 0;
}

/* Why `x` may not be written to `vr` (its declaration's min/max and type), or NULL. */
static const char *rejection(unsigned vr, double x) {
    if (!isfinite(x)) return "not finite";
    if (rtc_fmu_type[vr] == 1 && x != floor(x)) return "not a whole number (an Integer)";
    if (rtc_fmu_type[vr] == 2 && x != 0.0 && x != 1.0) return "not 0 or 1 (a Boolean)";
    if (x < rtc_fmu_min[vr]) return "below its min";
    if (x > rtc_fmu_max[vr]) return "above its max";
    return NULL;
}

int rtc_fmu_admit(rtc_fmu *f, unsigned vr, double x, const char *fn) {
    const char *why;
    if (check_vr(f, vr, fn) != 0) return -1;
    why = rejection(vr, x);
    if (why) {
        rtc_fmu_logf(f, 1, "logStatusError",
                     "%s: `%s` = %g: the value is %s (min %g, max %g); nothing was set", fn,
                     rtc_fmu_names[vr], x, why, rtc_fmu_min[vr], rtc_fmu_max[vr]);
        return -1;
    }
    return 0;
}

int rtc_fmu_set(rtc_fmu *f, unsigned vr, double x, const char *fn) {
    int32_t idx, j;
    if (check_vr(f, vr, fn) != 0) return -1;
    idx = rtc_fmu_index[vr];
    switch (rtc_fmu_kind[vr]) {
    case RTC_FMU_PARAMETER:
        f->s.mem[idx] = x;
        if (f->s.mode == RTC_FMU_STEPPING) f->s.params_changed = 1;
        return 0;
    case RTC_FMU_INPUT:
        for (j = rtc_fmu_input_first[idx]; j < rtc_fmu_input_first[idx + 1]; j++)
            f->s.mem[rtc_fmu_input_slots[j]] = x;
        return 0;
    default:
        rtc_fmu_logf(f, 1, "logStatusError",
                     "%s: `%s` (value reference %u) is not an input or a tunable parameter", fn,
                     rtc_fmu_names[vr], vr);
        return -1;
    }
}

int rtc_fmu_do_step(rtc_fmu *f, double t0, double step, double *last, const char *fn) {
    const double h = RTC_MODEL_STEP_SIZE;
    double steps = step / h;
    long n = (long)floor(steps + 0.5), k;
    *last = rtc_fmu_time(f);
    if (f->s.mode != RTC_FMU_STEPPING) {
        rtc_fmu_logf(f, 1, "logStatusError", "%s: the FMU is not initialised or has terminated",
                     fn);
        return -1;
    }
    if (fabs(t0 - rtc_fmu_time(f)) > 1e-9 * fmax(h, fabs(t0))) {
        rtc_fmu_logf(f, 1, "logStatusError",
                     "%s: the communication point %.17g is not the FMU's time %.17g", fn, t0,
                     rtc_fmu_time(f));
        return -1;
    }
    if (n < 0 || fabs(steps - (double)n) > 1e-9 * fmax(1.0, steps)) {
        rtc_fmu_logf(f, 1, "logStatusError",
                     "%s: the communication step %.17g is not a whole number of the FMU's fixed "
                     "step %.17g", fn, step, h);
        return -1;
    }
    if (f->s.params_changed) {
        RTC_MODEL_PARAMETERS(f->s.mem);
        f->s.params_changed = 0;
    }
    for (k = 0; k < n; k++) {
        const double t = rtc_fmu_time(f);
        int32_t st;
#if RTC_MODEL_EVENT_STEPPER
        st = rtc_events_step(&f->s.events, f->s.mem, t, h);
#else
        st = RTC_MODEL_STEP(f->s.mem, t, h);
#endif
        if (st == 0) st = RTC_MODEL_CHECK_ASSERTIONS(f->s.mem, 0);
        f->s.steps++;
        if (st == 0) report_warnings(f, rtc_fmu_time(f));
        if ((st & 15) == 6) {
            rtc_fmu_logf(f, 0, "logEvents", "t = %.15g: terminate() in the model (event %ld)",
                         rtc_fmu_time(f), (long)(st >> 4));
            f->s.mode = RTC_FMU_TERMINATED;
            *last = rtc_fmu_time(f);
            return 1;
        }
        if (st != 0) {
            explain(f, st, rtc_fmu_time(f));
            f->s.mode = RTC_FMU_FAILED;
            *last = t;
            return -1;
        }
    }
    *last = rtc_fmu_time(f);
    return 0;
}

static int owns(const rtc_fmu *f, const rtc_fmu_snapshot *s) {
    return s >= f->saved && s < f->saved + RTC_FMU_STATES;
}

rtc_fmu_snapshot *rtc_fmu_save(rtc_fmu *f, rtc_fmu_snapshot *reuse, const char *fn) {
    int k;
    if (reuse) {
        if (!owns(f, reuse)) {
            rtc_fmu_logf(f, 1, "logStatusError", "%s: not a state of this instance", fn);
            return NULL;
        }
        *reuse = f->s;
        return reuse;
    }
    for (k = 0; k < RTC_FMU_STATES; k++)
        if (!f->saved_used[k]) {
            f->saved_used[k] = 1;
            f->saved[k] = f->s;
            return &f->saved[k];
        }
    rtc_fmu_logf(f, 1, "logStatusError",
                 "%s: all %d state slots are in use (free one first)", fn, RTC_FMU_STATES);
    return NULL;
}

int rtc_fmu_restore(rtc_fmu *f, const rtc_fmu_snapshot *s, const char *fn) {
    if (!s || !owns(f, s)) {
        rtc_fmu_logf(f, 1, "logStatusError", "%s: not a state of this instance", fn);
        return -1;
    }
    f->s = *s;
#if RTC_MODEL_EVENT_STEPPER
    /* The copy's pointers are those of the snapshot's arrays: point them at ours. */
    rtc_events_rebind(&f->s.events, &event_model, f->s.event_doubles, f->s.event_ints);
#endif
    return 0;
}

int rtc_fmu_free_state(rtc_fmu *f, rtc_fmu_snapshot *s, const char *fn) {
    if (!s) return 0;
    if (!owns(f, s)) {
        rtc_fmu_logf(f, 1, "logStatusError", "%s: not a state of this instance", fn);
        return -1;
    }
    f->saved_used[s - f->saved] = 0;
    return 0;
}

/* A serialized state: the token, then the snapshot's bytes. */
size_t rtc_fmu_serial_size(void) { return sizeof(RTC_FMU_TOKEN) + sizeof(rtc_fmu_snapshot); }

int rtc_fmu_serialize(rtc_fmu *f, const rtc_fmu_snapshot *s, unsigned char *buf, size_t size) {
    if (!s || size < rtc_fmu_serial_size()) {
        rtc_fmu_logf(f, 1, "logStatusError", "serialize: no state, or the buffer is too small");
        return -1;
    }
    memcpy(buf, RTC_FMU_TOKEN, sizeof(RTC_FMU_TOKEN));
    memcpy(buf + sizeof(RTC_FMU_TOKEN), s, sizeof *s);
    return 0;
}

rtc_fmu_snapshot *rtc_fmu_deserialize(rtc_fmu *f, const unsigned char *buf, size_t size) {
    rtc_fmu_snapshot *s;
    if (size != rtc_fmu_serial_size() || memcmp(buf, RTC_FMU_TOKEN, sizeof(RTC_FMU_TOKEN))) {
        rtc_fmu_logf(f, 1, "logStatusError", "deserialize: not a state of this FMU");
        return NULL;
    }
    s = rtc_fmu_save(f, NULL, "deserialize");
    if (s) memcpy(s, buf + sizeof(RTC_FMU_TOKEN), sizeof *s);
    return s;
}
