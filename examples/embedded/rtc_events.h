/*
 * rtc_events.h: events in bounded work around a model compiled by `rtc compile`
 * (Cellier & Kofman §10.8; the event iteration of the Modelica specification 8.6), the same
 * algorithm as `rtc run`:
 *
 *   after the regular step from t to t + h, an event whose function changed sign — a
 *   when-condition on the continuous solution, or a relation frozen between events (the step
 *   reads its slot) — is located by ONE interpolation, regula falsi or (methods of order 3 and
 *   more) an inverse cubic Hermite, never an iteration; the step is repeated from t to the
 *   event time, the instant runs, and the rest of the step is taken the same way, up to
 *   RTC_LOCATED_PER_STEP located events per step (further ones act at the end of the step
 *   and count as deferred). Time events (samples, relations of time) split the step at their
 *   known times, all those due at one time acting together; one due twice in a step stops
 *   with status 4.
 *
 *   An instant is the event iteration: rounds of pre(v) := v for the discrete variables, the
 *   actions of the events that fire, and the model solved at the instant (a zero-length
 *   step); then the frozen relations whose events did not act take their live values and the
 *   conditions that became true fire in the next round; it ends when nothing fires, no
 *   relation moved and every discrete variable equals its pre value, after at most
 *   RTC_EVENT_ITERATIONS rounds (else status 5). A step that ends with a discrete variable
 *   changed, or a condition became true, without an event gets an instant at its end.
 *
 *   A located event acts where its relation has changed: a located time on the old side
 *   moves on by the secant, at most twice, then to the end of the part.
 *
 *   Worst case per step, with R = RTC_EVENT_ITERATIONS, L located events per part (at most
 *   RTC_LOCATED_PER_STEP) and T time events: (T + 1)(L(R + 5) + 1 + R) + TR step evaluations
 *   (rtc analyze prints the model's).
 *
 * Chattering rule (as `rtc run --zeno stop`): an event handled again less than
 * RTC_ZENO_STEPS steps after its previous occurrence and sooner than the time before (a
 * periodic event keeps its gap), twice in a row (or a when-condition back within the step that
 * handled it), stops stepping with status 4.
 *
 * Plain C99; allocates nothing: the caller gives the work arrays (sizes below).
 */
#ifndef RTC_EVENTS_H
#define RTC_EVENTS_H

#include <stdint.h>

#define RTC_EVENT_ITERATIONS 20
#define RTC_LOCATED_PER_STEP 4
#define RTC_ZENO_STEPS 8.0
#define RTC_THRESHOLD_RTOL 1e-10

/* What a compiled model with events provides (its header's tables and functions). */
typedef struct {
    int32_t n_events;
    int32_t mem_slots;
    const int32_t *kind;      /* 0 z <= 0, 1 z > 0, 2 a relation frozen between events (its
                                 function z, its slot), 3 sample, 4 initial, 5 discrete
                                 condition, 6 a relation of time frozen in its slot: a time
                                 event at the time zc writes, 7 z >= 0, 8 a when-condition of
                                 time: a time event at the time zc writes, 9 terminal(): only
                                 at the end of the run (rtc_events_terminal) */
    const int32_t *chain;     /* when/elsewhen chain, -1 none */
    const int32_t *branch;    /* place in the chain */
    const double (*sample)[2];
    const unsigned char *terminates;
    const unsigned char *cubic; /* 1 located by the inverse cubic Hermite (zc writes dz/dt
                                   too), 0 regula falsi, 2 at the end of its step */
    const int32_t *slot;      /* the slot a relation is frozen in (kinds 2 and 6), -1 none */
    const unsigned char *observes; /* bit 0: a frozen relation whose function does not depend
                                      on its own slot (it observes the model; not a switch);
                                      bit 1: one whose function depends on it only through the
                                      states (a friction element's mode) */
    const int32_t *rank;      /* of conditions true together, the lowest rank acts first */
    const int32_t *group;     /* the group of a frozen relation (the least event of the
                                 relations one statement reads): a search that finds no
                                 consistent combination of the relations that changed widens
                                 to their groups */
    const double *scale;      /* the largest constant magnitude in the relation's function */
    const int32_t *scale_start; /* scale_slots[scale_start[k] .. scale_start[k + 1]): the
                                   slots the function reads; a function within
                                   RTC_THRESHOLD_RTOL of their largest magnitude (and the
                                   constant's) is at its threshold */
    const int32_t *scale_slots;
    int32_t n_discrete_pre;
    const int32_t (*discrete_pre)[2]; /* (pre slot, variable slot) of discrete variables */
    int32_t (*step)(double *mem, double t, double h);
    int32_t (*zc)(const double *mem, double *z); /* z[k], z[n + k] dz/dt, z[2n + k] relation */
    int32_t (*pre)(double *mem);
    int32_t (*event)(double *mem, int32_t k);
} rtc_event_model;

/* Work arrays: doubles for two copies of the memory, five vectors of the events' functions (three
 * values per event), and three more per event; ints for thirteen lists of events. */
#define RTC_EVENTS_N(n_events) ((n_events) > 0 ? (n_events) : 1)
#define RTC_EVENTS_DOUBLES(mem_slots, n_events) (2 * (mem_slots) + 18 * RTC_EVENTS_N(n_events))
#define RTC_EVENTS_INTS(n_events) (13 * RTC_EVENTS_N(n_events))

typedef struct {
    const rtc_event_model *m;
    double *snapshot, *landed;
    double *z0, *z1, *zb, *z2, *zt, *last_time, *theta, *last_gap;
    int32_t *fire, *next, *cond, *last_close, *due, *fired, *acted, *here, *crossed, *first;
    /* The frozen relations' search at an instant: changes per relation in the round, the
     * relations searched, the relations that moved in the last solve. */
    int32_t *flips, *movers, *chg;
    /* Event k terminated the run at time terminated_at (-1: none). */
    int32_t terminated;
    double terminated_at;
    /* Counters: events handled (located or at their time), deferred to the end of a step. */
    long handled, deferred;
    /* Step-function evaluations in the last step. */
    int32_t calls;
    /* Some event is a time event at a time zc writes (kinds 6 and 8). */
    int32_t has_at;
    /* The time tolerance of the current step (times closer are the same instant). */
    double tol;
    /* The event of the instant being handled when it came back within RTC_ZENO_STEPS steps
     * of its previous occurrence (-1: none). */
    int32_t back;
} rtc_events;

/* Sets up `ev` over `m` with the work arrays (sizes above). */
void rtc_events_init(rtc_events *ev, const rtc_event_model *m, double *doubles, int32_t *ints);

/* Points `ev` at `m` and at the work arrays again, keeping their contents and the counters:
 * for a copy of an rtc_events (with its arrays) restored into other memory (an FMU state). */
void rtc_events_rebind(rtc_events *ev, const rtc_event_model *m, double *doubles, int32_t *ints);

/* After the model's init at t0: frozen relations and conditions take their initial values;
 * the instant at t0 runs initial() events, samples due at t0 and relations of time whose time
 * has come, and settles the discrete variables. Returns a status (0 ok, 6 terminated, others
 * as the step's). */
int32_t rtc_events_initial(rtc_events *ev, double *mem, double t0);

/* One step from t to t + h with events. Returns 0, the step's status, 4 (chattering, detail:
 * the event), 5 (event iteration did not settle, detail: an event, or EVENT_COUNT + k for
 * the discrete variable discrete_pre[k] still changing), or 6 (terminate ran in this step,
 * detail: the event; the state is at t + h). */
int32_t rtc_events_step(rtc_events *ev, double *mem, double t, double h);

/* After the last step of a run that reached its end at t (specification 3.7.4.2): the
 * instant at which terminal() is true, its events acting once (an event iteration as any
 * other; a library's effects, such as writing a file, are made then). Returns a status as
 * rtc_events_step's; then check the assertions (those of `when terminal()` hold only now). */
int32_t rtc_events_terminal(rtc_events *ev, double *mem, double t);

#endif /* RTC_EVENTS_H */
