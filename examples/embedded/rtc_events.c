/*
 * rtc_events.c: events in bounded work (Cellier & Kofman §10.8) around a compiled model; see
 * rtc_events.h. The arithmetic is that of `rtc run` (compiler/src/sim.rs, `Events`) step by
 * step, so a run here and a JIT run agree to the bit on the same machine.
 */
#include "rtc_events.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { BELOW = 0, ABOVE = 1, BOTH = 2, SAMPLE = 3, INITIAL = 4, DISCRETE = 5, AT = 6 };

void rtc_events_rebind(rtc_events *ev, const rtc_event_model *m, double *d, int32_t *i) {
    int32_t n = m->n_events;
    ev->m = m;
    ev->snapshot = d;
    d += m->mem_slots;
    ev->z0 = d;
    ev->z1 = d + 2 * n;
    ev->zb = d + 4 * n;
    ev->z2 = d + 6 * n;
    ev->zt = d + 8 * n;
    ev->last_time = d + 10 * n;
    /* d + 11n .. 12n: sort keys */
    ev->fire = i;
    ev->next = i + n;
    ev->cond = i + 2 * n;
    ev->last_close = i + 3 * n;
    ev->due = i + 4 * n;
    ev->fired = i + 5 * n;
}

void rtc_events_init(rtc_events *ev, const rtc_event_model *m, double *d, int32_t *i) {
    int32_t n = m->n_events, k;
    rtc_events_rebind(ev, m, d, i);
    for (k = 0; k < n; k++) {
        ev->last_time[k] = NAN;
        ev->last_close[k] = 0;
        ev->cond[k] = 0;
    }
    ev->has_at = 0;
    for (k = 0; k < n; k++)
        if (m->kind[k] == AT) ev->has_at = 1;
    ev->terminated = -1;
    ev->terminated_at = 0.0;
    ev->handled = 0;
    ev->deferred = 0;
    ev->calls = 0;
}

static int located(const rtc_events *ev, int32_t k) {
    int32_t kind = ev->m->kind[k];
    return kind == BELOW || kind == ABOVE || kind == BOTH;
}

static int active(const rtc_events *ev, int32_t k, double z) {
    if (!located(ev, k)) return 0;
    return ev->m->kind[k] == BELOW ? z <= 0.0 : z > 0.0;
}

static int crossed(const rtc_events *ev, int32_t k, double z0, double z1) {
    if (!located(ev, k)) return 0;
    if (ev->m->kind[k] == BOTH) return (z0 > 0.0) != (z1 > 0.0);
    return !active(ev, k, z0) && active(ev, k, z1);
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

/* An instant at te: pre values, the events in fire[0..nfire) act (only the first branch of
 * a chain), then the event iteration. `deferred`: how the first round is counted. */
static int32_t instant(rtc_events *ev, double *mem, int32_t nfire, double te, int deferred) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, round = 0, a, b, j;
    m->pre(mem);
    m->zc(mem, ev->zb);
    /* Discrete conditions fire when they become true at this instant: against their values
     * just before it (as compiler/src/sim.rs). */
    for (j = 0; j < n; j++) ev->cond[j] = m->kind[j] == DISCRETE && ev->zb[j] != 0.0;
    while (nfire > 0) {
        if (round == RTC_EVENT_ITERATIONS) return 5 | (ev->fire[0] << 4);
        for (a = 0; a < nfire; a++) {
            int32_t k = ev->fire[a], skip = 0;
            if (m->chain[k] >= 0)
                for (b = 0; b < nfire; b++) {
                    int32_t o = ev->fire[b];
                    if (o != k && m->chain[o] == m->chain[k] &&
                        (m->branch[o] < m->branch[k] ||
                         (m->branch[o] == m->branch[k] && o < k)))
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
        round++;
        m->zc(mem, ev->zt);
        {
            int32_t nn = 0;
            for (j = 0; j < n; j++) {
                int now = m->kind[j] == DISCRETE && ev->zt[j] != 0.0;
                int in_fire = 0;
                for (b = 0; b < nfire; b++)
                    if (ev->fire[b] == j) in_fire = 1;
                if ((now && !ev->cond[j]) ||
                    (m->kind[j] != BOTH && !in_fire && !active(ev, j, ev->zb[j]) &&
                     active(ev, j, ev->zt[j])))
                    ev->next[nn++] = j;
            }
            for (j = 0; j < n; j++) {
                ev->cond[j] = m->kind[j] == DISCRETE && ev->zt[j] != 0.0;
                ev->zb[j] = ev->zt[j];
            }
            memcpy(ev->fire, ev->next, sizeof(int32_t) * (size_t)nn);
            nfire = nn;
        }
    }
    return 0;
}

int32_t rtc_events_initial(rtc_events *ev, double *mem, double t0) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, k, nfire = 0, st;
    m->zc(mem, ev->zt);
    for (k = 0; k < n; k++) ev->cond[k] = m->kind[k] == DISCRETE && ev->zt[k] != 0.0;
    for (k = 0; k < n; k++)
        if (m->kind[k] == INITIAL || (m->kind[k] == AT && ev->zt[k] <= t0) ||
            (m->kind[k] == SAMPLE && fabs(m->sample[k][0] - t0) <= 1e-9 * m->sample[k][1]))
            ev->fire[nfire++] = k;
    if (nfire == 0) return 0;
    st = instant(ev, mem, nfire, t0, 0);
    if (st != 0) return st;
    st = m->step(mem, t0, 0.0);
    if (st != 0) return st;
    return ev->terminated >= 0 ? 6 | (ev->terminated << 4) : 0;
}

/* When time event k is next due after t (beyond the tolerance), into *at: a sample's next
 * tick, a relation of time's time (in z, the event values at t); 0 if k is no time event or
 * not due. */
static int due_time(const rtc_events *ev, const double *z, int32_t k, double t, double tol,
                    double *at) {
    const rtc_event_model *m = ev->m;
    double start, interval, j;
    if (m->kind[k] == AT) {
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

/* A step with state events only. */
static int32_t step_state(rtc_events *ev, double *mem, double t, double h) {
    const rtc_event_model *m = ev->m;
    int32_t n = m->n_events, k = -1, j, a, nl = 0, st, close, prev_close, still;
    double theta = 0.0, h1, te, gap, *key = ev->last_time + n;
    m->zc(mem, ev->z0);
    memcpy(ev->snapshot, mem, sizeof(double) * (size_t)m->mem_slots);
    st = call(ev, mem, t, h);
    if (st != 0) return st;
    m->zc(mem, ev->z1);
    /* One interpolation per crossed function; the earliest is handled. */
    for (j = 0; j < n; j++) {
        double th;
        if (!crossed(ev, j, ev->z0[j], ev->z1[j])) continue;
        th = m->cubic[j] == 2
                 ? 1.0
                 : locate(ev->z0[j], ev->z1[j], ev->z0[n + j], ev->z1[n + j], h, m->cubic[j]);
        if (k < 0 || th < theta) {
            k = j;
            theta = th;
        }
    }
    if (k < 0) return 0;
    h1 = theta * h;
    te = t + h1;
    memcpy(mem, ev->snapshot, sizeof(double) * (size_t)m->mem_slots);
    st = call(ev, mem, t, h1);
    if (st != 0) return st;
    ev->fire[0] = k;
    st = instant(ev, mem, 1, te, 0);
    if (st != 0) return st;
    st = call(ev, mem, te, 0.0);
    if (st != 0) return st;
    m->zc(mem, ev->zb);
    ev->zb[k] = ev->z1[k];
    /* instant() used zb as scratch before the zero-length step; recompute as rtc run does. */
    st = call(ev, mem, te, h - h1);
    if (st != 0) return st;
    m->zc(mem, ev->z2);
    /* The chattering rule. */
    gap = isnan(ev->last_time[k]) ? INFINITY : te - ev->last_time[k];
    prev_close = !isnan(ev->last_time[k]) && ev->last_close[k];
    close = gap < RTC_ZENO_STEPS * h;
    ev->last_time[k] = te;
    ev->last_close[k] = close;
    still = m->kind[k] != BOTH && active(ev, k, ev->z2[k]);
    if (close && (prev_close || still)) return 4 | (k << 4);
    /* Further events crossed in the step: deferred to its end, in the order of their
     * interpolated times. */
    for (j = 0; j < n; j++) {
        double d;
        if (j == k) continue;
        if (!crossed(ev, j, ev->zb[j], ev->z2[j]) && !crossed(ev, j, ev->z0[j], ev->z2[j]))
            continue;
        d = ev->zb[j] - ev->z2[j];
        key[j] = d != 0.0 ? ev->zb[j] / d : 1.0;
        /* Stable insertion by key. */
        a = nl;
        while (a > 0 && key[j] < key[ev->fire[a - 1]]) {
            ev->fire[a] = ev->fire[a - 1];
            a--;
        }
        ev->fire[a] = j;
        nl++;
    }
    if (nl == 0) return 0;
    st = instant(ev, mem, nl, t + h, 1);
    if (st != 0) return st;
    return call(ev, mem, t + h, 0.0);
}

/* The step with its time events: each instant at which some are due splits it at that known
 * time, all events due then acting together; a time event due twice in one step chatters. */
static int32_t step_timed(rtc_events *ev, double *mem, double t, double h) {
    const rtc_event_model *m = ev->m;
    double te = 0.0, end = t + h, tol = 1e-9 * fmax(fabs(h), DBL_MIN), cur = t, rest, h1;
    int32_t k, nd, at_end, st;
    if (m->n_events == 0) return call(ev, mem, t, h);
    for (k = 0; k < m->n_events; k++) ev->fired[k] = 0;
    for (;;) {
        /* From t the rest is h itself (bitwise what a step without events gets). */
        rest = cur == t ? h : end - cur;
        if (ev->has_at) m->zc(mem, ev->zt);
        nd = time_events(ev, ev->zt, cur, end, tol, &te);
        if (nd == 0) return step_state(ev, mem, cur, rest);
        for (k = 0; k < nd; k++)
            if (ev->fired[ev->due[k]]) return 4 | (ev->due[k] << 4);
        at_end = fabs(te - end) <= tol;
        h1 = at_end ? rest : te - cur;
        st = step_state(ev, mem, cur, h1);
        if (st != 0) return st;
        if (at_end) te = end;
        for (k = 0; k < nd; k++) {
            ev->fire[k] = ev->due[k];
            ev->fired[ev->due[k]] = 1;
        }
        st = instant(ev, mem, nd, te, 0);
        if (st != 0) return st;
        st = call(ev, mem, te, 0.0);
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
