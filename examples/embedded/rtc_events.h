/*
 * rtc_events.h: events in bounded work around a model compiled by `rtc compile`
 * (Cellier & Kofman §10.8), the same algorithm as `rtc run`:
 *
 *   after the regular step from t to t + h, a state event whose function changed sign is
 *   located by ONE interpolation, regula falsi or (methods of order 3 and more) an inverse
 *   cubic Hermite, never an iteration; the step is repeated from
 *   t to the event time, the instant runs (pre values, the actions, a bounded event iteration
 *   over conditions of discrete variables), a zero-length step makes the model consistent,
 *   and the rest of the step reaches t + h on time. Time events (samples, relations of time)
 *   split the step at their known times, all those due at one time acting together; one due
 *   twice in a step stops with status 4. Further state events in the same step are applied
 *   at its end and counted as deferred. Worst case per step: 5 step evaluations (5 + 6T with
 *   T time events), at most RTC_EVENT_ITERATIONS rounds of actions per instant.
 *
 * Chattering rule (as `rtc run --zeno stop`): an event handled again less than
 * RTC_ZENO_STEPS steps after its previous occurrence, twice in a row or with its condition
 * still true at the end of the step, stops stepping with status 4.
 *
 * Plain C99; allocates nothing: the caller gives the work arrays (sizes below).
 */
#ifndef RTC_EVENTS_H
#define RTC_EVENTS_H

#include <stdint.h>

#define RTC_EVENT_ITERATIONS 10
#define RTC_ZENO_STEPS 8.0

/* What a compiled model with events provides (its header's tables and functions). */
typedef struct {
    int32_t n_events;
    int32_t mem_slots;
    const int32_t *kind;      /* 0 z <= 0, 1 z > 0, 2 both ways, 3 sample, 4 initial, 5 discrete,
                                 6 time event at the time zc writes (a relation of time) */
    const int32_t *chain;     /* when/elsewhen chain, -1 none */
    const int32_t *branch;    /* place in the chain */
    const double (*sample)[2];
    const unsigned char *terminates;
    const unsigned char *cubic; /* located by the inverse cubic Hermite (zc writes dz/dt too) */
    int32_t (*step)(double *mem, double t, double h);
    int32_t (*zc)(const double *mem, double *z);
    int32_t (*pre)(double *mem);
    int32_t (*event)(double *mem, int32_t k);
} rtc_event_model;

/* Work arrays: doubles for a copy of the memory, five vectors of the events' functions and
 * their derivatives, and two more per event; ints for six lists of events. */
#define RTC_EVENTS_DOUBLES(mem_slots, n_events) ((mem_slots) + 12 * (n_events))
#define RTC_EVENTS_INTS(n_events) (6 * (n_events))

typedef struct {
    const rtc_event_model *m;
    double *snapshot;
    double *z0, *z1, *zb, *z2, *zt, *last_time;
    int32_t *fire, *next, *cond, *last_close, *due, *fired;
    /* Event k terminated the run at time terminated_at (-1: none). */
    int32_t terminated;
    double terminated_at;
    /* Counters: events handled (located or at their time), deferred to the end of a step. */
    long handled, deferred;
    /* Step-function evaluations in the last step. */
    int32_t calls;
    /* Some event is a relation of time alone. */
    int32_t has_at;
} rtc_events;

/* Sets up `ev` over `m` with the work arrays (sizes above). */
void rtc_events_init(rtc_events *ev, const rtc_event_model *m, double *doubles, int32_t *ints);

/* Points `ev` at `m` and at the work arrays again, keeping their contents and the counters:
 * for a copy of an rtc_events (with its arrays) restored into other memory (an FMU state). */
void rtc_events_rebind(rtc_events *ev, const rtc_event_model *m, double *doubles, int32_t *ints);

/* After the model's init at t0: conditions take their initial values; initial() events and
 * samples due at t0 run. Returns a status (0 ok, 6 terminated, others as the step's). */
int32_t rtc_events_initial(rtc_events *ev, double *mem, double t0);

/* One step from t to t + h with events. Returns 0, the step's status, 4 (chattering, detail:
 * the event), 5 (event iteration did not settle, detail: an event), or 6 (terminate ran in
 * this step, detail: the event; the state is at t + h). */
int32_t rtc_events_step(rtc_events *ev, double *mem, double t, double h);

#endif /* RTC_EVENTS_H */
