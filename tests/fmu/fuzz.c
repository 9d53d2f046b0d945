/*
 * fuzz.c: random FMI 3.0 call sequences against an FMU, for the fault-injection tests. It
 * loads the FMU's shared library, instantiates it, and makes N calls chosen at random (a fixed
 * seed) among the setters and getters (every value reference and a few beyond, NaN, infinities,
 * huge, denormal and out-of-range values), the mode changes in any order, DoStep at the right
 * and wrong times with good and bad step sizes, the FMU-state functions, Reset, and freeing
 * and instantiating again. It checks that no call crashes, that every status is one FMI 3.0
 * defines, and that after every fmi3DoStep that returns fmi3OK every variable reads finite:
 * no value a door refused reached the model. It prints the counts.
 *
 *   fuzz LIB.so TOKEN NVARS SEED CALLS STEP
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"

static uint64_t rng;
static unsigned next(unsigned n) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (unsigned)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static long logged;
static void logger(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category,
                   fmi3String message) {
    (void)env;
    (void)status;
    (void)category;
    (void)message;
    logged++;
}

#define LOAD(name)                                                                         \
    name##TYPE *name = (name##TYPE *)dlsym(lib, #name);                                    \
    if (!name) {                                                                           \
        fprintf(stderr, "fuzz: %s missing\n", #name);                                      \
        return 1;                                                                          \
    }

int main(int argc, char **argv) {
    void *lib;
    fmi3Instance in = NULL;
    fmi3FMUState saved = NULL;
    unsigned nvars, calls, k, i;
    double t = 0.0, step;
    long status_count[5] = {0}, ok_steps = 0, bad_values_refused = 0;
    const double values[] = {0.0,       1.0,     -1.0,     2.0,    5.0,      10.0,
                             11.0,      -11.0,   1e308,    -1e308, NAN,      INFINITY,
                             -INFINITY, 4.9e-324, -0.0,    0.5,    1e-300,   3.0};
    if (argc < 7) {
        fprintf(stderr, "usage: fuzz LIB.so TOKEN NVARS SEED CALLS STEP\n");
        return 1;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "fuzz: %s\n", dlerror());
        return 1;
    }
    LOAD(fmi3InstantiateCoSimulation)
    LOAD(fmi3FreeInstance)
    LOAD(fmi3EnterInitializationMode)
    LOAD(fmi3ExitInitializationMode)
    LOAD(fmi3SetFloat64)
    LOAD(fmi3GetFloat64)
    LOAD(fmi3DoStep)
    LOAD(fmi3Terminate)
    LOAD(fmi3Reset)
    LOAD(fmi3GetFMUState)
    LOAD(fmi3SetFMUState)
    LOAD(fmi3FreeFMUState)
    LOAD(fmi3SetTime)
    LOAD(fmi3GetBoolean)
    LOAD(fmi3EnterEventMode)
    nvars = (unsigned)strtoul(argv[3], NULL, 10);
    rng = strtoull(argv[4], NULL, 10) | 1;
    calls = (unsigned)strtoul(argv[5], NULL, 10);
    step = strtod(argv[6], NULL);
    for (k = 0; k < calls; k++) {
        fmi3Status st = fmi3OK;
        unsigned op = next(16);
        if (!in) {
            in = fmi3InstantiateCoSimulation("fuzz", argv[2], NULL, fmi3False, fmi3False,
                                             fmi3False, fmi3False, NULL, 0, NULL, logger, NULL);
            if (!in) {
                fprintf(stderr, "fuzz: instantiation failed\n");
                return 1;
            }
            t = 0.0;
            saved = NULL;
        }
        if (op <= 4) {
            fmi3ValueReference vr = next(nvars + 3);
            double x = values[next(sizeof values / sizeof values[0])];
            st = fmi3SetFloat64(in, &vr, 1, &x, 1);
            if (st == fmi3Error && (isnan(x) || isinf(x))) bad_values_refused++;
        } else if (op == 5) {
            fmi3ValueReference vr[4];
            double out[4];
            for (i = 0; i < 4; i++) vr[i] = next(nvars + 3);
            st = fmi3GetFloat64(in, vr, 4, out, next(2) ? 4 : 2);
        } else if (op == 6) {
            st = fmi3EnterInitializationMode(in, fmi3False, 0.0, 0.0, fmi3False, 0.0);
        } else if (op == 7) {
            st = fmi3ExitInitializationMode(in);
        } else if (op <= 10) {
            fmi3Boolean ev, term, early;
            double last, h = next(4) ? step : values[next(sizeof values / sizeof values[0])];
            double at = next(8) ? t : t + step;
            st = fmi3DoStep(in, at, h, fmi3False, &ev, &term, &early, &last);
            if (st == fmi3OK) {
                fmi3ValueReference vr;
                t = last;
                ok_steps++;
                for (vr = 1; vr < nvars; vr++) {
                    double x;
                    if (fmi3GetFloat64(in, &vr, 1, &x, 1) == fmi3OK && !isfinite(x)) {
                        fprintf(stderr, "fuzz: call %u: variable %u reads %g after fmi3OK\n",
                                k, vr, x);
                        return 3;
                    }
                }
            }
        } else if (op == 11) {
            st = fmi3Terminate(in);
        } else if (op == 12) {
            st = fmi3Reset(in);
            t = 0.0;
        } else if (op == 13) {
            if (saved && next(2)) {
                st = fmi3SetFMUState(in, saved);
            } else if (saved) {
                st = fmi3FreeFMUState(in, &saved);
                saved = NULL;
            } else {
                st = fmi3GetFMUState(in, &saved);
                if (st != fmi3OK) saved = NULL;
            }
        } else if (op == 14) {
            /* Functions without meaning for this FMU: errors, never crashes. */
            fmi3ValueReference vr = next(nvars + 3);
            fmi3Boolean b;
            st = next(3) == 0   ? fmi3SetTime(in, 1.0)
                 : next(2) == 0 ? fmi3EnterEventMode(in)
                                : fmi3GetBoolean(in, &vr, 1, &b, 1);
        } else {
            if (saved) fmi3FreeFMUState(in, &saved);
            fmi3FreeInstance(in);
            in = NULL;
            continue;
        }
        if ((int)st < 0 || (int)st > 4) {
            fprintf(stderr, "fuzz: call %u (op %u): status %d is not an FMI status\n", k, op,
                    (int)st);
            return 2;
        }
        status_count[st]++;
    }
    if (in) {
        if (saved) fmi3FreeFMUState(in, &saved);
        fmi3FreeInstance(in);
    }
    printf("calls %u ok %ld warning %ld discard %ld error %ld fatal %ld steps %ld refused %ld "
           "logged %ld\n",
           calls, status_count[0], status_count[1], status_count[2], status_count[3],
           status_count[4], ok_steps, bad_values_refused, logged);
    return 0;
}
