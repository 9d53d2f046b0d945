/*
 * master.c: a minimal FMI 3.0 Co-Simulation master for the tests (no Python needed). It loads
 * an unpacked FMU's shared library with dlopen, instantiates it with the given token, sets
 * parameters and inputs, steps it with fmi3DoStep and prints the named variables as CSV.
 *
 *   master LIB.so TOKEN STOP COMM_STEP [set:VR=VALUE ...] [mid:VR=VALUE] out:VR,VR,...
 *
 * set: is written before fmi3EnterInitializationMode (a parameter or an input); mid: is
 * written halfway, before the step from the middle communication point (a parameter changed
 * while running). A DoStep that fails prints the
 * status and the FMU's log and exits 2. A save/restore of the FMU state halfway through (get,
 * step, set back, step again) checks that stepping from a restored state repeats the result.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"

static void logger(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category,
                   fmi3String message) {
    (void)env;
    fprintf(stderr, "fmu [%d] %s: %s\n", (int)status, category, message);
}

#define LOAD(name)                                                                         \
    name##TYPE *name = (name##TYPE *)dlsym(lib, #name);                                    \
    if (!name) {                                                                           \
        fprintf(stderr, "master: %s missing\n", #name);                                    \
        return 1;                                                                          \
    }

int main(int argc, char **argv) {
    void *lib;
    fmi3Instance in;
    double stop, h, t = 0.0;
    fmi3ValueReference outs[64];
    size_t nout = 0, i;
    int a, k, n;
    double vals[64];
    fmi3ValueReference mid_vr = 0;
    double mid_x = 0.0;
    int has_mid = 0;
    fmi3ValueReference bad_vr[16];
    double bad_x[16];
    int nbad = 0;
    fmi3Boolean ev, term, early;
    double last;
    char resources[4096] = "";
    if (argc < 6) {
        fprintf(stderr, "usage: master LIB.so TOKEN STOP STEP [set:VR=X ...] out:VR,...\n");
        return 1;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "master: %s\n", dlerror());
        return 1;
    }
    LOAD(fmi3InstantiateCoSimulation)
    LOAD(fmi3EnterInitializationMode)
    LOAD(fmi3ExitInitializationMode)
    LOAD(fmi3SetFloat64)
    LOAD(fmi3GetFloat64)
    LOAD(fmi3DoStep)
    LOAD(fmi3Terminate)
    LOAD(fmi3FreeInstance)
    LOAD(fmi3GetFMUState)
    LOAD(fmi3SetFMUState)
    LOAD(fmi3FreeFMUState)
    stop = strtod(argv[3], NULL);
    h = strtod(argv[4], NULL);
    {
        /* The FMU's resources folder, beside binaries/ (the library's path names it). */
        const char *b = strstr(argv[1], "/binaries/");
        size_t len = b ? (size_t)(b - argv[1]) : 0;
        if (len + 12 < sizeof resources) {
            memcpy(resources, argv[1], len);
            strcpy(resources + len, "/resources/");
        }
    }
    in = fmi3InstantiateCoSimulation("master", argv[2], resources, fmi3False, fmi3False,
                                     fmi3False, fmi3False, NULL, 0, NULL, logger, NULL);
    if (!in) {
        fprintf(stderr, "master: instantiation failed\n");
        return 1;
    }
    for (a = 5; a < argc; a++) {
        if (strncmp(argv[a], "mid:", 4) == 0) {
            mid_vr = (fmi3ValueReference)strtoul(argv[a] + 4, NULL, 10);
            mid_x = strtod(strchr(argv[a], '=') + 1, NULL);
            has_mid = 1;
        } else if (strncmp(argv[a], "set:", 4) == 0 || strncmp(argv[a], "input:", 6) == 0) {
            char *eq = strchr(argv[a], '=');
            fmi3ValueReference vr = (fmi3ValueReference)strtoul(strchr(argv[a], ':') + 1, NULL, 10);
            double x = strtod(eq + 1, NULL);
            if (fmi3SetFloat64(in, &vr, 1, &x, 1) != fmi3OK) return 2;
        } else if (strncmp(argv[a], "bad:", 4) == 0) {
            /* Applied at the midpoint: each must be refused (fmi3Error), changing nothing. */
            if (nbad < 16) {
                bad_vr[nbad] = (fmi3ValueReference)strtoul(argv[a] + 4, NULL, 10);
                bad_x[nbad++] = strtod(strchr(argv[a], '=') + 1, NULL);
            }
        } else if (strncmp(argv[a], "out:", 4) == 0) {
            char *p = argv[a] + 4;
            while (*p && nout < 64) {
                outs[nout++] = (fmi3ValueReference)strtoul(p, &p, 10);
                if (*p == ',') p++;
            }
        }
    }
    if (fmi3EnterInitializationMode(in, fmi3False, 0.0, 0.0, fmi3True, stop) != fmi3OK) return 2;
    if (fmi3ExitInitializationMode(in) != fmi3OK) return 2;
    n = (int)(stop / h + 0.5);
    for (k = 0; k <= n; k++) {
        if (fmi3GetFloat64(in, outs, nout, vals, nout) != fmi3OK) return 2;
        printf("%.17g", t);
        for (i = 0; i < nout; i++) printf(",%.17g", vals[i]);
        printf("\n");
        if (k == n) break;
        if (k == n / 2 && has_mid && fmi3SetFloat64(in, &mid_vr, 1, &mid_x, 1) != fmi3OK) return 2;
        if (k == n / 2)
            for (i = 0; i < nbad; i++)
                if (fmi3SetFloat64(in, &bad_vr[i], 1, &bad_x[i], 1) != fmi3Error) {
                    fprintf(stderr, "master: a bad value was accepted\n");
                    return 4;
                }
        if (k == n / 2) {
            /* Save, step, restore, step again: the second step must repeat the first. */
            fmi3FMUState s = NULL;
            double first[64], second[64];
            if (fmi3GetFMUState(in, &s) != fmi3OK) return 2;
            if (fmi3DoStep(in, t, h, fmi3False, &ev, &term, &early, &last) != fmi3OK) return 2;
            fmi3GetFloat64(in, outs, nout, first, nout);
            if (fmi3SetFMUState(in, s) != fmi3OK) return 2;
            if (fmi3DoStep(in, t, h, fmi3False, &ev, &term, &early, &last) != fmi3OK) return 2;
            fmi3GetFloat64(in, outs, nout, second, nout);
            if (memcmp(first, second, nout * sizeof(double)) != 0) {
                fprintf(stderr, "master: stepping from a restored state differs\n");
                return 3;
            }
            fmi3FreeFMUState(in, &s);
        } else if (fmi3DoStep(in, t, h, fmi3False, &ev, &term, &early, &last) != fmi3OK) {
            fprintf(stderr, "master: fmi3DoStep failed at t = %g\n", t);
            return 2;
        }
        t = (k + 1) * h;
        if (term) {
            fprintf(stderr, "master: the FMU terminated the simulation at t = %g\n", last);
            if (fmi3GetFloat64(in, outs, nout, vals, nout) != fmi3OK) return 2;
            printf("%.17g", t);
            for (i = 0; i < nout; i++) printf(",%.17g", vals[i]);
            printf("\n");
            break;
        }
    }
    /* The end of the simulation: the model's terminal() actions and their assertions. */
    if (fmi3Terminate(in) != fmi3OK) {
        fprintf(stderr, "master: fmi3Terminate failed\n");
        fmi3FreeInstance(in);
        dlclose(lib);
        return 2;
    }
    fmi3FreeInstance(in);
    dlclose(lib);
    return 0;
}
