/*
 * master2.c: the FMI 2.0 counterpart of master.c (see there): loads an unpacked FMI 2.0
 * Co-Simulation FMU's library with dlopen and steps it with fmi2DoStep.
 *
 *   master2 LIB.so GUID STOP COMM_STEP [set:VR=VALUE ...] out:VR,VR,...
 *
 * terminate() in the model: fmi2DoStep returns fmi2Discard and fmi2GetBooleanStatus
 * (fmi2Terminated) is true; the master prints the last row and stops.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2Functions.h"

static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status,
                   fmi2String category, fmi2String message, ...) {
    va_list ap;
    (void)env;
    (void)instance;
    fprintf(stderr, "fmu [%d] %s: ", (int)status, category);
    va_start(ap, message);
    vfprintf(stderr, message, ap);
    va_end(ap);
    fprintf(stderr, "\n");
}

#define LOAD(name)                                                                         \
    name##TYPE *name = (name##TYPE *)dlsym(lib, #name);                                    \
    if (!name) {                                                                           \
        fprintf(stderr, "master2: %s missing\n", #name);                                   \
        return 1;                                                                          \
    }

static void row(double t, const double *v, size_t n) {
    size_t i;
    printf("%.17g", t);
    for (i = 0; i < n; i++) printf(",%.17g", v[i]);
    printf("\n");
}

int main(int argc, char **argv) {
    void *lib;
    fmi2Component c;
    fmi2CallbackFunctions cb = {logger, calloc, free, NULL, NULL};
    double stop, h, t = 0.0, vals[64];
    fmi2ValueReference outs[64];
    size_t nout = 0;
    int a, k, n;
    char resources[4096] = "";
    if (argc < 6) {
        fprintf(stderr, "usage: master2 LIB.so GUID STOP STEP [set:VR=X ...] out:VR,...\n");
        return 1;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "master2: %s\n", dlerror());
        return 1;
    }
    LOAD(fmi2Instantiate)
    LOAD(fmi2SetupExperiment)
    LOAD(fmi2EnterInitializationMode)
    LOAD(fmi2ExitInitializationMode)
    LOAD(fmi2SetReal)
    LOAD(fmi2GetReal)
    LOAD(fmi2DoStep)
    LOAD(fmi2GetBooleanStatus)
    LOAD(fmi2Terminate)
    LOAD(fmi2FreeInstance)
    stop = strtod(argv[3], NULL);
    h = strtod(argv[4], NULL);
    {
        /* The FMU's resources folder as a file URI, beside binaries/ (the library's path
         * names it). */
        const char *b = strstr(argv[1], "/binaries/");
        size_t len = b ? (size_t)(b - argv[1]) : 0;
        if (len + 20 < sizeof resources) {
            strcpy(resources, "file://");
            memcpy(resources + 7, argv[1], len);
            strcpy(resources + 7 + len, "/resources");
        }
    }
    c = fmi2Instantiate("master2", fmi2CoSimulation, argv[2], resources, &cb, fmi2False,
                        fmi2False);
    if (!c) {
        fprintf(stderr, "master2: instantiation failed\n");
        return 1;
    }
    for (a = 5; a < argc; a++) {
        if (strncmp(argv[a], "set:", 4) == 0) {
            fmi2ValueReference vr = (fmi2ValueReference)strtoul(argv[a] + 4, NULL, 10);
            double x = strtod(strchr(argv[a], '=') + 1, NULL);
            if (fmi2SetReal(c, &vr, 1, &x) != fmi2OK) return 2;
        } else if (strncmp(argv[a], "out:", 4) == 0) {
            char *p = argv[a] + 4;
            while (*p && nout < 64) {
                outs[nout++] = (fmi2ValueReference)strtoul(p, &p, 10);
                if (*p == ',') p++;
            }
        }
    }
    if (fmi2SetupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, stop) != fmi2OK) return 2;
    if (fmi2EnterInitializationMode(c) != fmi2OK) return 2;
    if (fmi2ExitInitializationMode(c) != fmi2OK) return 2;
    n = (int)(stop / h + 0.5);
    for (k = 0; k <= n; k++) {
        fmi2Status st;
        if (fmi2GetReal(c, outs, nout, vals) != fmi2OK) return 2;
        row(t, vals, nout);
        if (k == n) break;
        st = fmi2DoStep(c, t, h, fmi2True);
        t = (k + 1) * h;
        if (st == fmi2Discard) {
            fmi2Boolean done = fmi2False;
            fmi2GetBooleanStatus(c, fmi2Terminated, &done);
            if (!done) return 2;
            fprintf(stderr, "master2: the FMU terminated the simulation\n");
            if (fmi2GetReal(c, outs, nout, vals) != fmi2OK) return 2;
            row(t, vals, nout);
            break;
        }
        if (st != fmi2OK) {
            fprintf(stderr, "master2: fmi2DoStep failed at t = %g\n", t);
            return 2;
        }
    }
    if (fmi2Terminate(c) != fmi2OK) {
        fprintf(stderr, "master2: fmi2Terminate failed\n");
        fmi2FreeInstance(c);
        dlclose(lib);
        return 2;
    }
    fmi2FreeInstance(c);
    dlclose(lib);
    return 0;
}
