/*
 * rtc_fmu_core.h: what the FMI 3.0 and FMI 2.0 wrappers of `rtc fmu` share (written for rtc).
 *
 * An instance of a model compiled by `rtc compile` (RTC_MODEL_HEADER, RTC_MODEL_GENERIC)
 * stepped by whole fixed steps with the event stepper rtc_events.c, its variables by value
 * reference from rtc_fmu.h (written with the model description), and its saved states. The
 * wrappers translate FMI calls into these and these results into FMI statuses.
 */
#ifndef RTC_FMU_CORE_H
#define RTC_FMU_CORE_H

#define RTC_MODEL_GENERIC
#include RTC_MODEL_HEADER
#include "rtc_events.h"
#include "rtc_fmu.h"

#include <stddef.h>

#define RTC_FMU_STATES 8

/* Everything a saved FMU state holds. */
typedef struct {
    long steps; /* steps since the start time */
    int mode;
    int params_changed;
    double mem[RTC_MODEL_MEM_SLOTS];
#if RTC_MODEL_EVENT_STEPPER
    rtc_events events;
    double event_doubles[RTC_EVENTS_DOUBLES(RTC_MODEL_MEM_SLOTS, RTC_MODEL_EVENT_COUNT)];
    int32_t event_ints[RTC_EVENTS_INTS(RTC_MODEL_EVENT_COUNT)];
#endif
} rtc_fmu_snapshot;

enum { RTC_FMU_INSTANTIATED, RTC_FMU_INITIALIZATION, RTC_FMU_STEPPING, RTC_FMU_TERMINATED,
       RTC_FMU_FAILED };

typedef struct rtc_fmu rtc_fmu;
/* Where messages go: `error` is 1 for errors and 2 for warnings (both always reported), 0 for
 * information. */
typedef void rtc_fmu_log(rtc_fmu *f, int error, const char *category, const char *message);

struct rtc_fmu {
    rtc_fmu_snapshot s;
    double start;
    double out[RTC_MODEL_OUTPUT_COUNT > 0 ? RTC_MODEL_OUTPUT_COUNT : 1];
    rtc_fmu_snapshot saved[RTC_FMU_STATES];
    unsigned char saved_used[RTC_FMU_STATES];
    rtc_fmu_log *log;
    void *owner; /* the wrapper's instance */
    /* Assertions of level warning already logged (each once per instance). */
    unsigned char warned[RTC_MODEL_WARNING_COUNT > 0 ? RTC_MODEL_WARNING_COUNT : 1];
};

/* The external objects the model's library constructs (shared by the instances of one
 * process, counted): made at instantiation, before the model's init (0 done, -1 a constructor
 * failed, logged), destroyed when the instance is freed. */
int rtc_fmu_objects(rtc_fmu *f);
/* Where the objects' data files are: the FMU's resources folder (a path or a file URI). */
void rtc_fmu_resources(const char *location);
void rtc_fmu_free_objects(void);
/* Parameters and start values as the model gives them; the mode after instantiation. */
void rtc_fmu_defaults(rtc_fmu *f);
/* Formats a message and passes it to f->log. */
void rtc_fmu_logf(rtc_fmu *f, int error, const char *category, const char *fmt, ...);
double rtc_fmu_time(const rtc_fmu *f);
/* Initialisation from the parameters set so far: 0 done, 1 the model terminated at the
 * start, -1 failed (logged). */
int rtc_fmu_initialize(rtc_fmu *f);
/* The end of the simulation (fmi*Terminate): after steps that went well, the instant at
 * which terminal() is true acts once at the FMU's time, and the assertions are checked
 * (those of `when terminal()` hold only then): 0 done, -1 failed (logged). */
int rtc_fmu_terminate(rtc_fmu *f);
/* Values by value reference: 0 done, -1 refused (logged). */
int rtc_fmu_get(rtc_fmu *f, unsigned vr, double *x);
/* 0 where `x` may be written to `vr` (finite, within its min/max, of its type); else logs why
 * and returns -1. The setters check every value before they set any. */
int rtc_fmu_admit(rtc_fmu *f, unsigned vr, double x, const char *fn);
int rtc_fmu_set(rtc_fmu *f, unsigned vr, double x, const char *fn);
/* Whole steps from `t` over `step`: 0 done, 1 the model terminated (at *last), -1 failed
 * (logged; *last is the time of the last successful step). */
int rtc_fmu_do_step(rtc_fmu *f, double t, double step, double *last, const char *fn);
/* Saved states (pointers into f->saved): save into `reuse` when it is one of f's, else a free
 * slot; NULL when none is free (logged). */
rtc_fmu_snapshot *rtc_fmu_save(rtc_fmu *f, rtc_fmu_snapshot *reuse, const char *fn);
int rtc_fmu_restore(rtc_fmu *f, const rtc_fmu_snapshot *s, const char *fn);
int rtc_fmu_free_state(rtc_fmu *f, rtc_fmu_snapshot *s, const char *fn);
size_t rtc_fmu_serial_size(void);
int rtc_fmu_serialize(rtc_fmu *f, const rtc_fmu_snapshot *s, unsigned char *buf, size_t size);
rtc_fmu_snapshot *rtc_fmu_deserialize(rtc_fmu *f, const unsigned char *buf, size_t size);

#endif /* RTC_FMU_CORE_H */
