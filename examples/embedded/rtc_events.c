/*
 * rtc_events.c: events in bounded work (Cellier & Kofman §10.8) around a compiled model; see
 * rtc_events.h. The arithmetic is that of `rtc run` (compiler/src/sim/events.rs, `Events`)
 * step by step, so a run here and a JIT run agree to the bit on the same machine.
 */
#include "rtc_events.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum {
    BELOW = 0,
    ABOVE = 1,
    BOTH = 2,
    SAMPLE = 3,
    INITIAL = 4,
    DISCRETE = 5,
    AT = 6,
    ABOVE_CLOSED = 7,
    WHEN_AT = 8,
    TERMINAL = 9
};

/* Located events whose times differ by at most this fraction of the step are simultaneous. */
#define SIMULTANEOUS 1e-6
/* Secant moves past a located time at which the event's relation has not changed yet, at most
 * (then the end of the part). */
#define LANDING 2
/* Regula falsi (Illinois) moves between the last time on the old side and the located time on
 * the new side of a relation that observes the model, at most. */
#define REFINE 3
/* An event is close only when its gap shrank below this fraction of the one before. */
#define SHRINKING 0.99

void rtc_events_rebind(rtc_events *ev, const rtc_event_model *m, double *d, int32_t *i) {
    int32_t n = RTC_EVENTS_N(m->n_events);
    ev->m = m;
    ev->snapshot = d;
    ev->landed = d + m->mem_slots;
    d += 2 * m->mem_slots;
    ev->z0 = d;
    ev->z1 = d + 3 * n;
    ev->zb = d + 6 * n;
    ev->z2 = d + 9 * n;
    ev->zt = d + 12 * n;
    ev->last_time = d + 15 * n;
    ev->theta = d + 16 * n;
    ev->last_gap = d + 17 * n;
    ev->fire = i;
    ev->next = i + n;
    ev->cond = i + 2 * n;
    ev->last_close = i + 3 * n;
    ev->due = i + 4 * n;
    ev->fired = i + 5 * n;
    ev->acted = i + 6 * n;
    ev->here = i + 7 * n;
    ev->crossed = i + 8 * n;
    ev->first = i + 9 * n;
    ev->flips = i + 10 * n;
    ev->movers = i + 11 * n;
    ev->chg = i + 12 * n;
}

void rtc_events_init(rtc_events *ev, const rtc_event_model *m, double *d, int32_t *i) {
    int32_t n = m->n_events, k;
    rtc_events_rebind(ev, m, d, i);
    for (k = 0; k < n; k++) {
        ev->last_time[k] = NAN;
        ev->last_close[k] = 0;
        ev->cond[k] = 0;
        ev->last_gap[k] = INFINITY;
    }
    ev->has_at = 0;
    for (k = 0; k < n; k++)
        if (m->kind[k] == AT || m->kind[k] == WHEN_AT) ev->has_at = 1;
    ev->terminated = -1;
    ev->terminated_at = 0.0;
    ev->handled = 0;
    ev->deferred = 0;
    ev->calls = 0;
    ev->tol = 0.0;
    ev->back = -1;
}

static void values(const rtc_events *ev, const double *mem, double *z) {
    int32_t k, n = ev->m->n_events;
    if (n == 0) return;
    for (k = 0; k < 3 * n; k++) z[k] = 0.0;
    ev->m->zc(mem, z);
}

static int located(const rtc_events *ev, int32_t k) {
    int32_t kind = ev->m->kind[k];
    return kind == BELOW || kind == ABOVE || kind == ABOVE_CLOSED || kind == BOTH;
}

static int active(const rtc_events *ev, int32_t k, double z) {
    int32_t kind = ev->m->kind[k];
    if (!located(ev, k)) return 0;
    if (kind == BELOW) return z <= 0.0;
    if (kind == ABOVE_CLOSED) return z >= 0.0;
    return z > 0.0;
}

/* Event k happened between z0 and z1 (mem: the memory at the end, where a frozen relation's
 * slot still holds its old value). */
static int crossed(const rtc_events *ev, int32_t k, const double *z0, const double *z1,
                   const double *mem) {
    int32_t n = ev->m->n_events, slot = ev->m->slot[k];
    if (!located(ev, k)) return 0;
    if (slot >= 0) return (z1[2 * n + k] != 0.0) != (mem[slot] != 0.0);
    if (ev->m->kind[k] == BOTH) return (z0[k] > 0.0) != (z1[k] > 0.0);
    return !active(ev, k, z0[k]) && active(ev, k, z1[k]);
}

/* Whether the function z of frozen relation k is within rounding of its threshold
 * (RTC_THRESHOLD_RTOL of its operands' magnitudes): there the relation keeps its value. */
static int at_threshold(const rtc_events *ev, int32_t k, double z, const double *mem) {
    const rtc_event_model *m = ev->m;
    double scale = m->scale[k];
    int32_t i;
    for (i = m->scale_start[k]; i < m->scale_start[k + 1]; i++) {
        double v = fabs(mem[m->scale_slots[i]]);
        if (v > scale) scale = v;
    }
    return fabs(z) <= RTC_THRESHOLD_RTOL * scale;
}

/* The when-condition of event k in z: a discrete condition, or a condition of time. */
static int condition(const rtc_events *ev, int32_t k, const double *z) {
    int32_t n = ev->m->n_events;
    if (ev->m->kind[k] == DISCRETE) return z[k] != 0.0;
    if (ev->m->kind[k] == WHEN_AT) return z[2 * n + k] != 0.0;
    return 0;
}

/* The first discrete variable whose pre value differs from it (bitwise), -1 if none. */
static int32_t unsettled(const rtc_events *ev, const double *mem) {
    int32_t d;
    for (d = 0; d < ev->m->n_discrete_pre; d++) {
        uint64_t a, b;
        memcpy(&a, &mem[ev->m->discrete_pre[d][0]], sizeof a);
        memcpy(&b, &mem[ev->m->discrete_pre[d][1]], sizeof b);
        if (a != b) return d;
    }
    return -1;
}

static int32_t call(rtc_events *ev, double *mem, double t, double h) {
    ev->calls++;
    return ev->m->step(mem, t, h);
}

/* The event time as a fraction of the step: regula falsi, or one inverse cubic Hermite
 * interpolation (rtc run's `sim::locate`, the same operations in the same order). */
static double locate(double z0, double z1, double d0, double d1, double h, int cubic) {
    double u, dz, s0, s1, m0, m1, theta;
    if (z0 != z1) {
        u = z0 / (z0 - z1);
        u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    } else {
        u = 1.0;
    }
    if (!cubic) return u;
    dz = z1 - z0;
    s0 = h * d0;
    s1 = h * d1;
    if (!(s0 * dz > 0.0 && s1 * dz > 0.0)) return u;
    m0 = dz / s0;
    m1 = dz / s1;
    if (!(m0 <= 3.0 && m1 <= 3.0)) return u;
    theta = ((u - 2.0) * u + 1.0) * u * m0 + (3.0 - 2.0 * u) * u * u + (u - 1.0) * u * u * m1;
    return theta < 0.0 ? 0.0 : (theta > 1.0 ? 1.0 : theta);
}

/* The frozen relations whose live values differ (chg[j]: 1 + the live value) get their slots
 * for the next solve of the round: all at once; where that cycles (a relation about to change a
 * second time in the round) every relation that changed is set false and the iteration goes on
 * from there; where it cycles again, the relations that changed are searched, their
 * combinations in turn (all false tried), until one is consistent; where none is, the
 * combinations of their groups. *phase: 0 plain, 1 restarted (movers: the relations set false),
 * 2 searching (movers, *next), 3 searching the groups. As `RelationSearch` in sim/events.rs. */
/* The relations searched, in index order (insertion sort: a few, in place). */
static void sort_movers(rtc_events *ev, int32_t nmovers) {
    int32_t i;
    for (i = 1; i < nmovers; i++) {
        int32_t v = ev->movers[i], k = i - 1;
        while (k >= 0 && ev->movers[k] > v) {
            ev->movers[k + 1] = ev->movers[k];
            k--;
        }
        ev->movers[k + 1] = v;
    }
}

static void resolve(rtc_events *ev, double *mem, int *phase, int32_t *nmovers, uint64_t *next) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, j, i;
    int cycled = 0, mover_changed = 0;
    for (j = 0; j < n; j++)
        if (ev->chg[j] && ev->flips[j]) cycled = 1;
    if (*phase == 0 && cycled) {
        /* The first cycle: from rest, the iteration goes on. */
        *nmovers = 0;
        for (j = 0; j < n; j++)
            if (ev->flips[j]) {
                ev->movers[(*nmovers)++] = j;
                mem[m->slot[j]] = 0.0;
                ev->flips[j] = 0;
            }
        for (j = 0; j < n; j++) {
            int was = 0;
            for (i = 0; i < *nmovers; i++)
                if (ev->movers[i] == j) was = 1;
            if (ev->chg[j] && !was) {
                mem[m->slot[j]] = ev->chg[j] == 2 ? 1.0 : 0.0;
                ev->flips[j] = 1;
            }
        }
        *phase = 1;
        return;
    }
    if (*phase == 1 && cycled) {
        /* It cycled again: the combinations of every relation that changed, in index order. */
        for (j = 0; j < n; j++)
            if (ev->flips[j]) {
                int was = 0;
                for (i = 0; i < *nmovers; i++)
                    if (ev->movers[i] == j) was = 1;
                if (!was) ev->movers[(*nmovers)++] = j;
            }
        sort_movers(ev, *nmovers);
        *phase = 2;
        *next = 1;
    }
    if (*phase == 2 && (*nmovers >= 64 || *next >= ((uint64_t)1 << *nmovers))) {
        /* No combination of the relations that changed holds: those of their groups too. */
        int32_t before = *nmovers;
        for (j = 0; j < n; j++) {
            int was = 0, mate = 0;
            for (i = 0; i < before; i++) {
                if (ev->movers[i] == j) was = 1;
                if (m->group[ev->movers[i]] == m->group[j]) mate = 1;
            }
            if (!was && mate) ev->movers[(*nmovers)++] = j;
        }
        sort_movers(ev, *nmovers);
        *phase = 3;
        *next = 0;
    }
    if (*phase >= 2 && *nmovers < 64 && *next < ((uint64_t)1 << *nmovers)) {
        for (j = 0; j < n; j++) {
            int was = 0;
            if (!ev->chg[j]) continue;
            for (i = 0; i < *nmovers; i++)
                if (ev->movers[i] == j) was = 1;
            if (was)
                mover_changed = 1;
            else
                mem[m->slot[j]] = ev->chg[j] == 2 ? 1.0 : 0.0;
        }
        /* The combination holds; others settle with it. */
        if (!cycled && !mover_changed) return;
        for (i = 0; i < *nmovers; i++) mem[m->slot[ev->movers[i]]] = (*next >> i) & 1 ? 1.0 : 0.0;
        (*next)++;
    } else {
        for (j = 0; j < n; j++)
            if (ev->chg[j]) {
                mem[m->slot[j]] = ev->chg[j] == 2 ? 1.0 : 0.0;
                ev->flips[j] = 1;
            }
    }
}

/* An instant at te, the event iteration: rounds of pre(v) := v, the actions of the events
 * that fire (first[0..nfirst) in the first round; only the first branch of a chain), the model
 * solved at te; until nothing fires, no frozen relation moves and the discrete variables
 * settle. `deferred`: how the first round is counted. */
static int32_t instant(rtc_events *ev, double *mem, const int32_t *first, int32_t nfirst,
                       double te, int deferred) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, round = 0, nfire = nfirst, a, b, j, st, new_round = 1, nmovers = 0;
    int32_t back;
    int phase = 0;
    uint64_t next = 0;
    values(ev, mem, ev->zb);
    /* The switch that came back, where it has crossed at the located time (its live value is
     * already the new one): its new branch is checked against the model. */
    back = ev->back >= 0 && m->slot[ev->back] >= 0 &&
                   (ev->zb[2 * n + ev->back] != 0.0) != (mem[m->slot[ev->back]] != 0.0)
               ? ev->back
               : -1;
    for (j = 0; j < n; j++) ev->acted[j] = 0;
    for (j = 0; j < n; j++) ev->flips[j] = 0;
    for (a = 0; a < nfirst; a++) {
        ev->fire[a] = first[a];
        ev->acted[first[a]] = 1;
    }
    /* Events due together act in rank order (stable): one whose actions read what another's
     * assign acts after it. */
    for (a = 1; a < nfirst; a++) {
        int32_t k = ev->fire[a];
        for (b = a; b > 0 && m->rank[ev->fire[b - 1]] > m->rank[k]; b--) ev->fire[b] = ev->fire[b - 1];
        ev->fire[b] = k;
    }
    for (;;) {
        int moved = 0, d;
        int32_t nn = 0;
        if (round == RTC_EVENT_ITERATIONS) {
            d = unsettled(ev, mem);
            if (nfire > 0) return 5 | (ev->fire[0] << 4);
            if (d >= 0) return 5 | ((n + d) << 4);
            return 5;
        }
        /* A round starts with pre(v) := v; within it the model is solved again with the
         * relations that moved and the when-clauses its solution made true; the next round
         * starts when nothing moves and a discrete variable changed. */
        if (new_round) m->pre(mem);
        for (a = 0; a < nfire; a++) {
            int32_t k = ev->fire[a], skip = 0;
            if (m->chain[k] >= 0)
                for (b = 0; b < nfire; b++) {
                    int32_t o = ev->fire[b];
                    if (o != k && m->chain[o] == m->chain[k] && m->branch[o] < m->branch[k])
                        skip = 1;
                }
            if (skip) continue;
            m->event(mem, k);
            if (m->terminates[k] && ev->terminated < 0) {
                ev->terminated = k;
                ev->terminated_at = te;
            }
            if (round == 0 && deferred)
                ev->deferred++;
            else
                ev->handled++;
        }
        st = call(ev, mem, te, 0.0);
        if (st != 0) return st;
        round++;
        values(ev, mem, ev->z2);
        /* Frozen relations take their live values: those whose events did not act, and those
         * that acted but that the actions moved clearly away from their threshold (relations
         * that observe the model, not switches); one that moved is solved with again in the
         * same round. */
        for (j = 0; j < n; j++) {
            int32_t slot = m->slot[j];
            int resync = !ev->acted[j] || (m->kind[j] == AT && fabs(ev->z2[j] - te) > ev->tol) ||
                         (m->kind[j] == BOTH && (m->observes[j] & 1)) ||
                         (j == back && !at_threshold(ev, j, ev->z2[j], mem));
            ev->chg[j] = 0;
            if (slot >= 0 && resync) {
                int live = ev->z2[2 * n + j] != 0.0;
                if (live != (mem[slot] != 0.0)) {
                    ev->chg[j] = 1 + live;
                    moved = 1;
                }
            }
        }
        if (moved) {
            resolve(ev, mem, &phase, &nmovers, &next);
            nfire = 0;
            new_round = 0;
            continue;
        }
        for (j = 0; j < n; j++) ev->flips[j] = 0;
        phase = 0;
        /* The conditions of the events that just acted count as true from before. */
        for (a = 0; a < nfire; a++) ev->cond[ev->fire[a]] = 1;
        for (j = 0; j < n; j++)
            if (condition(ev, j, ev->z2) && !ev->cond[j]) ev->next[nn++] = j;
        /* Located when-conditions the actions moved across their threshold. */
        for (j = 0; j < n; j++) {
            int in_next = 0;
            for (b = 0; b < nn; b++)
                if (ev->next[b] == j) in_next = 1;
            if (m->slot[j] < 0 && m->kind[j] != BOTH && !ev->acted[j] && !in_next &&
                !active(ev, j, ev->zb[j]) && active(ev, j, ev->z2[j]))
                ev->next[nn++] = j;
        }
        /* Of those, the lowest rank acts now; the others are checked again after the model is
         * solved with its actions. */
        if (nn > 0) {
            int32_t low = m->rank[ev->next[0]], kept = 0;
            for (a = 1; a < nn; a++)
                if (m->rank[ev->next[a]] < low) low = m->rank[ev->next[a]];
            for (a = 0; a < nn; a++)
                if (m->rank[ev->next[a]] == low) ev->next[kept++] = ev->next[a];
            nn = kept;
        }
        for (j = 0; j < n; j++) {
            int now = condition(ev, j, ev->z2), in_next = 0;
            for (b = 0; b < nn; b++)
                if (ev->next[b] == j) in_next = 1;
            ev->cond[j] = now && (ev->cond[j] || in_next);
        }
        memcpy(ev->zb, ev->z2, sizeof(double) * (size_t)(3 * n));
        for (a = 0; a < nn; a++) ev->acted[ev->next[a]] = 1;
        memcpy(ev->fire, ev->next, sizeof(int32_t) * (size_t)nn);
        nfire = nn;
        if (nn > 0) {
            new_round = 0;
            continue;
        }
        if (unsettled(ev, mem) < 0) break;
        new_round = 1;
    }
    return 0;
}

int32_t rtc_events_initial(rtc_events *ev, double *mem, double t0) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, k, nfirst = 0, st;
    values(ev, mem, ev->zt);
    for (k = 0; k < n; k++)
        if (m->slot[k] >= 0) mem[m->slot[k]] = ev->zt[2 * n + k] != 0.0 ? 1.0 : 0.0;
    values(ev, mem, ev->zt);
    for (k = 0; k < n; k++) ev->cond[k] = condition(ev, k, ev->zt);
    int32_t nticks = 0;
    for (k = 0; k < n; k++)
        if (m->kind[k] == INITIAL || (m->kind[k] == AT && m->slot[k] >= 0 && ev->zt[k] <= t0))
            ev->first[nfirst++] = k;
    /* A sample whose first tick is the start time ticks at the event right after the
       initialisation (sim/events.rs `initial`). */
    for (k = 0; k < n; k++)
        if (m->kind[k] == SAMPLE && fabs(m->sample[k][0] - t0) <= 1e-9 * m->sample[k][1]) nticks++;
    if (nfirst == 0 && nticks == 0 && m->n_discrete_pre == 0) return 0;
    st = instant(ev, mem, ev->first, nfirst, t0, 0);
    if (st != 0) return st;
    if (ev->terminated < 0 && nticks > 0) {
        nfirst = 0;
        for (k = 0; k < n; k++)
            if (m->kind[k] == SAMPLE && fabs(m->sample[k][0] - t0) <= 1e-9 * m->sample[k][1])
                ev->first[nfirst++] = k;
        st = instant(ev, mem, ev->first, nfirst, t0, 0);
        if (st != 0) return st;
    }
    return ev->terminated >= 0 ? 6 | (ev->terminated << 4) : 0;
}

int32_t rtc_events_terminal(rtc_events *ev, double *mem, double t) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, k, nlast = 0;
    for (k = 0; k < n; k++)
        if (m->kind[k] == TERMINAL) ev->first[nlast++] = k;
    if (nlast == 0) return 0;
    return instant(ev, mem, ev->first, nlast, t, 0);
}

/* When time event k is next due after t (beyond the tolerance), into *at: a sample's next
 * tick, a relation's time (in z, the event values at t); 0 if k is no time event or not
 * due. */
static int due_time(const rtc_events *ev, const double *z, int32_t k, double t, double tol,
                    double *at) {
    const rtc_event_model *m = ev->m;
    double start, interval, j;
    if (m->kind[k] == AT || m->kind[k] == WHEN_AT) {
        *at = z[k];
        return z[k] > t + tol;
    }
    if (m->kind[k] != SAMPLE) return 0;
    start = m->sample[k][0];
    interval = m->sample[k][1];
    j = start > t + tol ? 0.0 : floor((t - start) / interval) + 1.0;
    if (start + j * interval <= t + tol) j += 1.0;
    *at = start + j * interval;
    return 1;
}

/* The earliest time in (t, end] at which time events are due, into *at, with every event
 * due then (within the tolerance) in ev->due; returns how many (0: none). z: the event
 * values at t. */
static int32_t time_events(rtc_events *ev, const double *z, double t, double end, double tol,
                           double *at) {
    int32_t k, n = ev->m->n_events, nd = 0, found = 0;
    double first = 0.0, te;
    for (k = 0; k < n; k++)
        if (due_time(ev, z, k, t, tol, &te) && te <= end + tol && (!found || te < first)) {
            first = te;
            found = 1;
        }
    if (!found) return 0;
    for (k = 0; k < n; k++)
        if (due_time(ev, z, k, t, tol, &te) && fabs(te - first) <= tol) ev->due[nd++] = k;
    *at = first;
    return nd;
}

/* The located time *te of relation k refined (as rtc run's `refine`): regula falsi with the
 * Illinois rule between (a, za), the last time on its old side, and *te on its new side (mem and
 * ev->zb there), each move a partial step from cur; at most REFINE moves, none once a move would
 * be shorter than a billionth of the part or the function is within rounding of its threshold.
 * The instant is at the last time found on the new side (mem and ev->zb there). */
static int32_t refine(rtc_events *ev, double *mem, int32_t k, double cur, double rest, double a,
                      double za, double *te) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, i, st, kept = 0, side = 0;
    double b = *te, zb = ev->zb[k], near = 1.0;
    size_t bytes = sizeof(double) * (size_t)m->mem_slots;
    for (i = 0; i < REFINE; i++) {
        double tn;
        if (za == zb || at_threshold(ev, k, zb, mem)) break;
        tn = b - zb * (b - a) / (zb - za);
        /* The old end within rounding of the threshold of a function that started the part
         * clearly on its old side: the secant stays on the old side of the zero; the move goes
         * at least a billionth of the part past it, a thousand times further at each such move
         * (as rtc run's `refine`). */
        if (at_threshold(ev, k, za, mem) && !at_threshold(ev, k, ev->z0[k], mem)) {
            near *= 1e3;
            if (tn < a + near * 1e-12 * rest) tn = a + near * 1e-12 * rest;
        }
        if (!(tn > a && tn < b) || b - tn <= 1e-9 * rest) break;
        if (!kept) {
            memcpy(ev->landed, mem, bytes);
            kept = 1;
        }
        memcpy(mem, ev->snapshot, bytes);
        st = call(ev, mem, cur, tn - cur);
        if (st != 0) return st;
        values(ev, mem, ev->z2);
        if (crossed(ev, k, ev->z0, ev->z2, mem)) {
            b = tn;
            zb = ev->z2[k];
            memcpy(ev->landed, mem, bytes);
            memcpy(ev->zb, ev->z2, sizeof(double) * (size_t)(3 * n));
            if (side == 1) za *= 0.5;
            side = 1;
        } else {
            a = tn;
            za = ev->z2[k];
            if (side == -1) zb *= 0.5;
            side = -1;
        }
    }
    if (kept) memcpy(mem, ev->landed, bytes);
    *te = b;
    return 0;
}

/* A step with state events only: up to RTC_LOCATED_PER_STEP events located one after the
 * other, the rest acting at the end of the step (as rtc run's `step_state`). */
static int32_t step_state(rtc_events *ev, double *mem, double t, double h) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, j, a, st, nc, nl = 0, just = -1, k, nt;
    double end = t + h, cur = t, rest, theta, te, gap, just_z = 0.0;
    for (j = 0; j < n; j++) ev->here[j] = 0;
    for (;;) {
        int prev_close, close, again;
        /* From t the rest is h itself (bitwise what a step without events gets). */
        rest = cur == t ? h : end - cur;
        values(ev, mem, ev->z0);
        if (just >= 0) ev->z0[just] = just_z;
        memcpy(ev->snapshot, mem, sizeof(double) * (size_t)m->mem_slots);
        st = call(ev, mem, cur, rest);
        if (st != 0) return st;
        values(ev, mem, ev->z1);
        nc = 0;
        /* A frozen relation within rounding of its threshold has not changed. */
        for (j = 0; j < n; j++)
            if (crossed(ev, j, ev->z0, ev->z1, mem) &&
                (m->slot[j] < 0 || !at_threshold(ev, j, ev->z1[j], mem)))
                ev->crossed[nc++] = j;
        if (nc == 0 || nl == RTC_LOCATED_PER_STEP) {
            /* An instant at the end for the events that crossed, the conditions that became
             * true (not the relations of time: they act at their times) and the discrete
             * variables that changed without an event. */
            int32_t nf = nc;
            memcpy(ev->first, ev->crossed, sizeof(int32_t) * (size_t)nc);
            for (j = 0; j < n; j++) {
                int in = 0;
                if (!condition(ev, j, ev->z1) || ev->cond[j] || m->kind[j] == AT ||
                    m->kind[j] == WHEN_AT)
                    continue;
                for (a = 0; a < nc; a++)
                    if (ev->crossed[a] == j) in = 1;
                if (!in) ev->first[nf++] = j;
            }
            if (nf == 0 && unsettled(ev, mem) < 0) return 0;
            return instant(ev, mem, ev->first, nf, end, 1);
        }
        /* One interpolation per crossed function; the earliest is handled, with those
         * located within SIMULTANEOUS of it. */
        k = -1;
        theta = 0.0;
        for (a = 0; a < nc; a++) {
            j = ev->crossed[a];
            ev->theta[a] =
                m->cubic[j] == 2
                    ? 1.0
                    : locate(ev->z0[j], ev->z1[j], ev->z0[n + j], ev->z1[n + j], rest,
                             m->cubic[j]);
            if (k < 0 || ev->theta[a] < theta) {
                k = j;
                theta = ev->theta[a];
            }
        }
        nt = 0;
        ev->first[nt++] = k;
        for (a = 0; a < nc; a++)
            if (ev->crossed[a] != k && ev->theta[a] - theta <= SIMULTANEOUS)
                ev->first[nt++] = ev->crossed[a];
        just_z = ev->z1[k];
        /* An event at the end of the step ends it there. */
        te = theta >= 1.0 ? end : cur + theta * rest;
        if (theta < 1.0) {
            int tries = 0;
            /* The last time on the old side, and the function there. */
            double old_t = cur, old_z = ev->z0[k];
            /* Never past the located time of another event that crossed in the part (a
             * relation crossed by rounding lands nowhere and took the others with it). */
            double cap = end;
            for (a = 0; a < nc; a++) {
                int in = 0, b;
                for (b = 0; b < nt; b++)
                    if (ev->first[b] == ev->crossed[a]) in = 1;
                if (!in && ev->theta[a] < 1.0) cap = fmin(cap, cur + ev->theta[a] * rest);
            }
            memcpy(mem, ev->snapshot, sizeof(double) * (size_t)m->mem_slots);
            st = call(ev, mem, cur, te - cur);
            if (st != 0) return st;
            values(ev, mem, ev->zb);
            /* A relation that observes the model (or acts on it through its states only) acts
             * where it has changed: a located time on the old side moves on by the secant to
             * the end of the part (at least a billionth of it for an observer, the next
             * representable time otherwise), at most LANDING times. */
            while (m->slot[k] >= 0 && m->observes[k] && !crossed(ev, k, ev->z0, ev->zb, mem) &&
                   te < cap) {
                double th, least;
                old_t = te;
                old_z = ev->zb[k];
                th = ev->zb[k] != just_z ? ev->zb[k] / (ev->zb[k] - just_z) : 1.0;
                double next;
                th = th < 0.0 ? 0.0 : (th > 1.0 ? 1.0 : th);
                next = te + th * (end - te);
                least = (m->observes[k] & 1) ? te + 1e-9 * rest : nextafter(te, INFINITY);
                te = tries == LANDING ? cap : fmin(fmax(next, least), cap);
                tries++;
                memcpy(mem, ev->snapshot, sizeof(double) * (size_t)m->mem_slots);
                st = call(ev, mem, cur, te - cur);
                if (st != 0) return st;
                values(ev, mem, ev->zb);
            }
            if (m->slot[k] >= 0 && m->observes[k] && crossed(ev, k, ev->z0, ev->zb, mem)) {
                st = refine(ev, mem, k, cur, rest, old_t, old_z, &te);
                if (st != 0) return st;
            }
            /* Events the partial step already carried past their thresholds act here too. */
            for (a = 0; a < nc; a++) {
                int in = 0, b;
                j = ev->crossed[a];
                for (b = 0; b < nt; b++)
                    if (ev->first[b] == j) in = 1;
                if (!in && crossed(ev, j, ev->z0, ev->zb, mem)) ev->first[nt++] = j;
            }
        }
        /* A switch back within the chattering rule's steps: its new branch is checked. */
        ev->back = !isnan(ev->last_time[k]) && te - ev->last_time[k] < RTC_ZENO_STEPS * h ? k : -1;
        st = instant(ev, mem, ev->first, nt, te, 0);
        ev->back = -1;
        if (st != 0) return st;
        /* The chattering rule. */
        gap = isnan(ev->last_time[k]) ? INFINITY : te - ev->last_time[k];
        prev_close = !isnan(ev->last_time[k]) && ev->last_close[k];
        close = gap < RTC_ZENO_STEPS * h && gap < SHRINKING * ev->last_gap[k];
        ev->last_time[k] = te;
        ev->last_close[k] = close;
        ev->last_gap[k] = gap;
        again = m->kind[k] != BOTH && ev->here[k];
        if (close && ((prev_close && gap < h) || again)) return 4 | (k << 4);
        ev->here[k] = 1;
        nl++;
        if (te >= end) return 0;
        cur = te;
        just = k;
    }
}

/* The step with its time events: each instant at which some are due splits it at that known
 * time, all events due then acting together; a time event due twice in one step chatters. */
static int32_t step_timed(rtc_events *ev, double *mem, double t, double h) {
    const rtc_event_model *m = ev->m;
    double te = 0.0, end = t + h, tol = 1e-9 * fmax(fabs(h), DBL_MIN), cur = t, rest, h1;
    int32_t k, nd, at_end, st;
    if (m->n_events == 0 && m->n_discrete_pre == 0) return call(ev, mem, t, h);
    ev->tol = tol;
    for (k = 0; k < m->n_events; k++) ev->fired[k] = 0;
    for (;;) {
        /* From t the rest is h itself (bitwise what a step without events gets). */
        rest = cur == t ? h : end - cur;
        if (ev->has_at) values(ev, mem, ev->zt);
        nd = time_events(ev, ev->zt, cur, end, tol, &te);
        if (nd == 0) return step_state(ev, mem, cur, rest);
        for (k = 0; k < nd; k++)
            if (ev->fired[ev->due[k]]) return 4 | (ev->due[k] << 4);
        at_end = fabs(te - end) <= tol;
        h1 = at_end ? rest : te - cur;
        st = step_state(ev, mem, cur, h1);
        if (st != 0) return st;
        if (at_end) te = end;
        for (k = 0; k < nd; k++) ev->fired[ev->due[k]] = 1;
        st = instant(ev, mem, ev->due, nd, te, 0);
        if (st != 0 || at_end) return st;
        cur = te;
    }
}

int32_t rtc_events_step(rtc_events *ev, double *mem, double t, double h) {
    int32_t st;
    ev->calls = 0;
    st = step_timed(ev, mem, t, h);
    if (st == 0 && ev->terminated >= 0) return 6 | (ev->terminated << 4);
    return st;
}
