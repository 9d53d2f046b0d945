/*
 * fmi3.c: the FMI 3.0 Co-Simulation interface of a model compiled by `rtc fmu`.
 *
 * Written for rtc (not derived from other FMU sources). It wraps the step object of
 * `rtc compile` (RTC_MODEL_HEADER, included with RTC_MODEL_GENERIC) and the event stepper
 * rtc_events.c, and reads its variable table from rtc_fmu.h (generated with the
 * modelDescription.xml, so value references agree):
 *
 *   - fmi3DoStep runs whole steps of the compiled step size (RTC_MODEL_STEP_SIZE), each the
 *     bounded-work inline step of the chosen method, with the events located inside it as
 *     `rtc run` does; a communication step that is not a whole number of steps is an error.
 *   - Inputs set before fmi3DoStep hold over it (every slot the step reads them from).
 *   - Tunable parameters set before fmi3ExitInitializationMode initialise the model (init
 *     from them: `<m>_start`); set later, `<m>_parameters` recomputes what depends on them.
 *   - A step that does not converge, a value that is not finite, chattering events: fmi3Error
 *     with a log message naming the block or the variable; terminate() in the model:
 *     terminateSimulation with fmi3OK, then only fmi3Terminate and fmi3FreeInstance.
 *   - Memory: the instance (with room for RTC_FMU_STATES saved states) is allocated in
 *     fmi3InstantiateCoSimulation and freed in fmi3FreeInstance; nothing else allocates.
 *   - Every function of fmi3Functions.h is defined; those without meaning for a fixed-step
 *     Co-Simulation FMU without clocks or Model Exchange return fmi3Error and log why.
 */
#define RTC_MODEL_GENERIC
#include RTC_MODEL_HEADER
#include "rtc_fmu.h"
#include "rtc_events.h"
#include "fmi3Functions.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RTC_FMU_STATES 8

#if RTC_MODEL_EVENT_COUNT > 0
static const rtc_event_model event_model = {
    RTC_MODEL_EVENT_COUNT, RTC_MODEL_MEM_SLOTS, RTC_MODEL_event_kind, RTC_MODEL_event_chain,
    RTC_MODEL_event_branch, RTC_MODEL_event_sample, RTC_MODEL_event_terminates,
    RTC_MODEL_event_cubic, RTC_MODEL_STEP, RTC_MODEL_ZC, RTC_MODEL_PRE, RTC_MODEL_EVENT};
#define EVENT_DOUBLES RTC_EVENTS_DOUBLES(RTC_MODEL_MEM_SLOTS, RTC_MODEL_EVENT_COUNT)
#define EVENT_INTS RTC_EVENTS_INTS(RTC_MODEL_EVENT_COUNT)
#endif

/* Everything a saved FMU state holds. */
typedef struct {
    long steps;           /* steps since the start time */
    int mode;
    int params_changed;
    double mem[RTC_MODEL_MEM_SLOTS];
#if RTC_MODEL_EVENT_COUNT > 0
    rtc_events events;
    double event_doubles[EVENT_DOUBLES];
    int32_t event_ints[EVENT_INTS];
#endif
} Snapshot;

enum { INSTANTIATED, INITIALIZATION, STEPPING, TERMINATED, FAILED };

typedef struct {
    Snapshot s;
    char name[128];
    fmi3InstanceEnvironment env;
    fmi3LogMessageCallback log;
    int logging;
    double start;
    double out[RTC_MODEL_OUTPUT_COUNT > 0 ? RTC_MODEL_OUTPUT_COUNT : 1];
    Snapshot saved[RTC_FMU_STATES];
    unsigned char saved_used[RTC_FMU_STATES];
} Instance;

static void logf_(Instance *in, fmi3Status st, const char *category, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    if (!in || !in->log) return;
    if (st == fmi3OK && !in->logging) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    in->log(in->env, st, category, msg);
}

static fmi3Status fail(Instance *in, const char *fmt, const char *what) {
    logf_(in, fmi3Error, "logStatusError", fmt, what);
    return fmi3Error;
}

static double now(const Instance *in) {
    return in->start + (double)in->s.steps * RTC_MODEL_STEP_SIZE;
}

/* What a nonzero status of the step or the event stepper means, for the log. */
static void explain(Instance *in, int32_t st, double t) {
    long detail = (long)(st >> 4);
    switch (st & 15) {
    case 1:
        logf_(in, fmi3Error, "logStatusError",
              "t = %.17g: the Newton iteration of block %ld did not converge within its "
              "iteration bound", t, detail);
        break;
    case 2:
        logf_(in, fmi3Error, "logStatusError", "t = %.17g: `%s` became non-finite", t,
              detail < RTC_FMU_SLOT_COUNT ? rtc_fmu_slot_names[detail] : "?");
        break;
    case 3:
        logf_(in, fmi3Error, "logStatusError", "t = %.17g: the Jacobian of block %ld is singular",
              t, detail);
        break;
    case 4:
        logf_(in, fmi3Error, "logStatusError",
              "t = %.17g: event %ld chatters: it comes back faster than the step resolves", t,
              detail);
        break;
    case 5:
        logf_(in, fmi3Error, "logStatusError",
              "t = %.17g: the event iteration did not settle (event %ld)", t, detail);
        break;
    default:
        logf_(in, fmi3Error, "logStatusError", "t = %.17g: status %ld", t, (long)st);
    }
}

/* ------------------------------------------------------------------ inquire, instantiate */

const char *fmi3GetVersion(void) { return fmi3Version; }

fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn,
                               size_t nCategories, const fmi3String categories[]) {
    Instance *in = (Instance *)instance;
    (void)nCategories;
    (void)categories;
    if (!in) return fmi3Error;
    in->logging = loggingOn;
    return fmi3OK;
}

static void defaults(Instance *in) {
    int i;
    memset(&in->s, 0, sizeof in->s);
    in->start = RTC_MODEL_START_TIME;
    /* Parameters and start values as the model gives them (init from defaults), so that they
     * can be read before initialisation; the master may then change the tunable ones. */
    RTC_MODEL_INIT(in->s.mem, in->start);
    for (i = 0; i < RTC_MODEL_INPUT_COUNT; i++)
        in->s.mem[RTC_MODEL_input_slots[i]] = RTC_MODEL_input_starts[i];
    in->s.mode = INSTANTIATED;
}

fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate) {
    Instance *in;
    (void)resourcePath;
    (void)visible;
    (void)requiredIntermediateVariables;
    (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    (void)earlyReturnAllowed;
    if (instantiationToken && strcmp(instantiationToken, RTC_FMU_TOKEN) != 0) {
        if (logMessage)
            logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                       "instantiationToken does not match this FMU's (" RTC_FMU_TOKEN ")");
        return NULL;
    }
    if (eventModeUsed) {
        if (logMessage)
            logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                       "event mode is not supported: events are handled inside fmi3DoStep");
        return NULL;
    }
    in = (Instance *)calloc(1, sizeof *in);
    if (!in) return NULL;
    snprintf(in->name, sizeof in->name, "%s", instanceName ? instanceName : "");
    in->env = instanceEnvironment;
    in->log = logMessage;
    in->logging = loggingOn;
    defaults(in);
    return in;
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName,
                                          fmi3String instantiationToken,
                                          fmi3String resourcePath, fmi3Boolean visible,
                                          fmi3Boolean loggingOn,
                                          fmi3InstanceEnvironment instanceEnvironment,
                                          fmi3LogMessageCallback logMessage) {
    (void)instanceName;
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    if (logMessage)
        logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                   "Model Exchange is not supported: rtc exports Co-Simulation FMUs (the "
                   "integration formula is compiled into the step)");
    return NULL;
}

fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
    fmi3LockPreemptionCallback lockPreemption, fmi3UnlockPreemptionCallback unlockPreemption) {
    (void)instanceName;
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    (void)clockUpdate;
    (void)lockPreemption;
    (void)unlockPreemption;
    if (logMessage)
        logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                   "Scheduled Execution is not supported: rtc exports Co-Simulation FMUs");
    return NULL;
}

void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

/* ------------------------------------------------------------------ initialisation */

fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                       fmi3Float64 tolerance, fmi3Float64 startTime,
                                       fmi3Boolean stopTimeDefined, fmi3Float64 stopTime) {
    Instance *in = (Instance *)instance;
    (void)toleranceDefined;
    (void)tolerance;
    (void)stopTimeDefined;
    (void)stopTime;
    if (!in) return fmi3Error;
    if (in->s.mode != INSTANTIATED)
        return fail(in, "%s: only after instantiation", "fmi3EnterInitializationMode");
    in->start = startTime;
    in->s.mode = INITIALIZATION;
    return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    int32_t st;
    if (!in) return fmi3Error;
    if (in->s.mode != INITIALIZATION)
        return fail(in, "%s: not in initialization mode", "fmi3ExitInitializationMode");
    /* Init from the tunable parameters the master set (start values and the model at the
     * start time follow from them). */
    st = RTC_MODEL_START(in->s.mem, in->start);
#if RTC_MODEL_EVENT_COUNT > 0
    rtc_events_init(&in->s.events, &event_model, in->s.event_doubles, in->s.event_ints);
    if (st == 0) st = rtc_events_initial(&in->s.events, in->s.mem, in->start);
#endif
    in->s.params_changed = 0;
    if (st != 0 && (st & 15) != 6) {
        explain(in, st, in->start);
        in->s.mode = FAILED;
        return fmi3Error;
    }
    in->s.mode = (st & 15) == 6 ? TERMINATED : STEPPING;
    return fmi3OK;
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
    return fail((Instance *)instance, "%s: event mode is not supported (events are handled "
                                      "inside fmi3DoStep)", "fmi3EnterEventMode");
}

fmi3Status fmi3Terminate(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    in->s.mode = TERMINATED;
    return fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    defaults(in);
    return fmi3OK;
}

/* ------------------------------------------------------------------ variables */

static fmi3Status check_vr(Instance *in, fmi3ValueReference vr, const char *fn) {
    if (vr >= RTC_FMU_VAR_COUNT) {
        logf_(in, fmi3Error, "logStatusError", "%s: unknown value reference %u", fn,
              (unsigned)vr);
        return fmi3Error;
    }
    return fmi3OK;
}

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                          size_t nValueReferences, fmi3Float64 values[], size_t nValues) {
    Instance *in = (Instance *)instance;
    size_t k;
    int outputs_done = 0;
    if (!in) return fmi3Error;
    if (nValues < nValueReferences)
        return fail(in, "%s: fewer values than value references", "fmi3GetFloat64");
    for (k = 0; k < nValueReferences; k++) {
        fmi3ValueReference vr = valueReferences[k];
        int32_t idx;
        if (check_vr(in, vr, "fmi3GetFloat64") != fmi3OK) return fmi3Error;
        idx = rtc_fmu_index[vr];
        switch (rtc_fmu_kind[vr]) {
        case RTC_FMU_TIME:
            values[k] = in->s.mode == STEPPING || in->s.mode == TERMINATED ? now(in) : in->start;
            break;
        case RTC_FMU_PARAMETER:
        case RTC_FMU_CALCULATED:
            values[k] = in->s.mem[idx];
            break;
        case RTC_FMU_INPUT:
            values[k] = in->s.mem[rtc_fmu_input_slots[rtc_fmu_input_first[idx]]];
            break;
        default:
            if (!outputs_done) {
                RTC_MODEL_OUTPUTS(in->s.mem, in->out);
                outputs_done = 1;
            }
            values[k] = in->out[idx];
        }
    }
    return fmi3OK;
}

fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                          size_t nValueReferences, const fmi3Float64 values[],
                          size_t nValues) {
    Instance *in = (Instance *)instance;
    size_t k;
    if (!in) return fmi3Error;
    if (nValues < nValueReferences)
        return fail(in, "%s: fewer values than value references", "fmi3SetFloat64");
    for (k = 0; k < nValueReferences; k++) {
        fmi3ValueReference vr = valueReferences[k];
        int32_t idx, j;
        if (check_vr(in, vr, "fmi3SetFloat64") != fmi3OK) return fmi3Error;
        idx = rtc_fmu_index[vr];
        switch (rtc_fmu_kind[vr]) {
        case RTC_FMU_PARAMETER:
            in->s.mem[idx] = values[k];
            if (in->s.mode == STEPPING) in->s.params_changed = 1;
            break;
        case RTC_FMU_INPUT:
            for (j = rtc_fmu_input_first[idx]; j < rtc_fmu_input_first[idx + 1]; j++)
                in->s.mem[rtc_fmu_input_slots[j]] = values[k];
            break;
        default:
            logf_(in, fmi3Error, "logStatusError",
                  "fmi3SetFloat64: `%s` (value reference %u) is not an input or a tunable "
                  "parameter", rtc_fmu_names[vr], (unsigned)vr);
            return fmi3Error;
        }
    }
    return fmi3OK;
}

/* Types the FMU declares no variables of: only an empty request succeeds. */
static fmi3Status none_of(Instance *in, const char *fn, size_t n) {
    if (n == 0) return fmi3OK;
    logf_(in, fmi3Error, "logStatusError",
          "%s: this FMU has only Float64 variables (Booleans and Integers of the model are "
          "Float64 too)", fn);
    return fmi3Error;
}

#define GET_NONE(Name, T)                                                                  \
    fmi3Status fmi3Get##Name(fmi3Instance instance, const fmi3ValueReference vr[],         \
                             size_t nvr, T values[], size_t nValues) {                     \
        (void)vr;                                                                          \
        (void)values;                                                                      \
        (void)nValues;                                                                     \
        return none_of((Instance *)instance, "fmi3Get" #Name, nvr);                        \
    }
#define SET_NONE(Name, T)                                                                  \
    fmi3Status fmi3Set##Name(fmi3Instance instance, const fmi3ValueReference vr[],         \
                             size_t nvr, const T values[], size_t nValues) {               \
        (void)vr;                                                                          \
        (void)values;                                                                      \
        (void)nValues;                                                                     \
        return none_of((Instance *)instance, "fmi3Set" #Name, nvr);                        \
    }
GET_NONE(Float32, fmi3Float32)
GET_NONE(Int8, fmi3Int8)
GET_NONE(UInt8, fmi3UInt8)
GET_NONE(Int16, fmi3Int16)
GET_NONE(UInt16, fmi3UInt16)
GET_NONE(Int32, fmi3Int32)
GET_NONE(UInt32, fmi3UInt32)
GET_NONE(Int64, fmi3Int64)
GET_NONE(UInt64, fmi3UInt64)
GET_NONE(Boolean, fmi3Boolean)
GET_NONE(String, fmi3String)
SET_NONE(Float32, fmi3Float32)
SET_NONE(Int8, fmi3Int8)
SET_NONE(UInt8, fmi3UInt8)
SET_NONE(Int16, fmi3Int16)
SET_NONE(UInt16, fmi3UInt16)
SET_NONE(Int32, fmi3Int32)
SET_NONE(UInt32, fmi3UInt32)
SET_NONE(Int64, fmi3Int64)
SET_NONE(UInt64, fmi3UInt64)
SET_NONE(Boolean, fmi3Boolean)
SET_NONE(String, fmi3String)

fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         size_t valueSizes[], fmi3Binary values[], size_t nValues) {
    (void)vr;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return none_of((Instance *)instance, "fmi3GetBinary", nvr);
}

fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         const size_t valueSizes[], const fmi3Binary values[],
                         size_t nValues) {
    (void)vr;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return none_of((Instance *)instance, "fmi3SetBinary", nvr);
}

fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        fmi3Clock values[]) {
    (void)vr;
    (void)values;
    return none_of((Instance *)instance, "fmi3GetClock", nvr);
}

fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        const fmi3Clock values[]) {
    (void)vr;
    (void)values;
    return none_of((Instance *)instance, "fmi3SetClock", nvr);
}

fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance,
                                               fmi3ValueReference valueReference,
                                               size_t *nDependencies) {
    (void)valueReference;
    (void)nDependencies;
    return fail((Instance *)instance, "%s: dependencies are not declared by this FMU",
                "fmi3GetNumberOfVariableDependencies");
}

fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference dependent,
                                       size_t elementIndicesOfDependent[],
                                       fmi3ValueReference independents[],
                                       size_t elementIndicesOfIndependents[],
                                       fmi3DependencyKind dependencyKinds[],
                                       size_t nDependencies) {
    (void)dependent;
    (void)elementIndicesOfDependent;
    (void)independents;
    (void)elementIndicesOfIndependents;
    (void)dependencyKinds;
    (void)nDependencies;
    return fail((Instance *)instance, "%s: dependencies are not declared by this FMU",
                "fmi3GetVariableDependencies");
}

/* ------------------------------------------------------------------ FMU state */

static int32_t rebind(Snapshot *s) {
#if RTC_MODEL_EVENT_COUNT > 0
    rtc_events_rebind(&s->events, &event_model, s->event_doubles, s->event_ints);
#else
    (void)s;
#endif
    return 0;
}

fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    int k;
    if (!in || !FMUState) return fmi3Error;
    if (*FMUState) {
        /* Overwrite a state this instance gave out before. */
        Snapshot *s = (Snapshot *)*FMUState;
        if (s < in->saved || s >= in->saved + RTC_FMU_STATES)
            return fail(in, "%s: not a state of this instance", "fmi3GetFMUState");
        *s = in->s;
        return fmi3OK;
    }
    for (k = 0; k < RTC_FMU_STATES; k++)
        if (!in->saved_used[k]) {
            in->saved_used[k] = 1;
            in->saved[k] = in->s;
            *FMUState = &in->saved[k];
            return fmi3OK;
        }
    return fail(in, "%s: all " "8" " state slots are in use (free one with fmi3FreeFMUState)",
                "fmi3GetFMUState");
}

fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
    Instance *in = (Instance *)instance;
    Snapshot *s = (Snapshot *)FMUState;
    if (!in || !s) return fmi3Error;
    if (s < in->saved || s >= in->saved + RTC_FMU_STATES)
        return fail(in, "%s: not a state of this instance", "fmi3SetFMUState");
    in->s = *s;
    rebind(&in->s);
    return fmi3OK;
}

fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    Snapshot *s;
    if (!in || !FMUState) return fmi3Error;
    s = (Snapshot *)*FMUState;
    if (!s) return fmi3OK;
    if (s < in->saved || s >= in->saved + RTC_FMU_STATES)
        return fail(in, "%s: not a state of this instance", "fmi3FreeFMUState");
    in->saved_used[s - in->saved] = 0;
    *FMUState = NULL;
    return fmi3OK;
}

/* A serialized state: the token, then the snapshot's bytes. */
#define SERIAL_SIZE (sizeof(RTC_FMU_TOKEN) + sizeof(Snapshot))

fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState,
                                      size_t *size) {
    (void)instance;
    (void)FMUState;
    *size = SERIAL_SIZE;
    return fmi3OK;
}

fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                 fmi3Byte serializedState[], size_t size) {
    Instance *in = (Instance *)instance;
    if (!in || !FMUState) return fmi3Error;
    if (size < SERIAL_SIZE) return fail(in, "%s: buffer too small", "fmi3SerializeFMUState");
    memcpy(serializedState, RTC_FMU_TOKEN, sizeof(RTC_FMU_TOKEN));
    memcpy(serializedState + sizeof(RTC_FMU_TOKEN), FMUState, sizeof(Snapshot));
    return fmi3OK;
}

fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[],
                                   size_t size, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    fmi3FMUState st = NULL;
    if (!in || !FMUState) return fmi3Error;
    if (size != SERIAL_SIZE || memcmp(serializedState, RTC_FMU_TOKEN, sizeof(RTC_FMU_TOKEN)))
        return fail(in, "%s: not a state of this FMU", "fmi3DeserializeFMUState");
    if (fmi3GetFMUState(in, &st) != fmi3OK) return fmi3Error;
    memcpy(st, serializedState + sizeof(RTC_FMU_TOKEN), sizeof(Snapshot));
    *FMUState = st;
    return fmi3OK;
}

/* ------------------------------------------------------------------ not provided */

fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference u[],
                                        size_t nu, const fmi3ValueReference k[], size_t nk,
                                        const fmi3Float64 seed[], size_t ns,
                                        fmi3Float64 sens[], size_t nsens) {
    (void)u, (void)nu, (void)k, (void)nk, (void)seed, (void)ns, (void)sens, (void)nsens;
    return fail((Instance *)instance, "%s: not provided (providesDirectionalDerivatives is "
                                      "false)", "fmi3GetDirectionalDerivative");
}

fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, const fmi3ValueReference u[],
                                    size_t nu, const fmi3ValueReference k[], size_t nk,
                                    const fmi3Float64 seed[], size_t ns, fmi3Float64 sens[],
                                    size_t nsens) {
    (void)u, (void)nu, (void)k, (void)nk, (void)seed, (void)ns, (void)sens, (void)nsens;
    return fail((Instance *)instance, "%s: not provided (providesAdjointDerivatives is "
                                      "false)", "fmi3GetAdjointDerivative");
}

#define NO_CLOCKS(fn) return fail((Instance *)instance, "%s: this FMU has no clocks", fn)

fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
    return fail((Instance *)instance, "%s: this FMU has no structural parameters",
                "fmi3EnterConfigurationMode");
}
fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
    return fail((Instance *)instance, "%s: this FMU has no structural parameters",
                "fmi3ExitConfigurationMode");
}
fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vr[],
                                  size_t n, fmi3Float64 intervals[],
                                  fmi3IntervalQualifier q[]) {
    (void)vr, (void)n, (void)intervals, (void)q;
    NO_CLOCKS("fmi3GetIntervalDecimal");
}
fmi3Status fmi3GetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vr[],
                                   size_t n, fmi3UInt64 c[], fmi3UInt64 r[],
                                   fmi3IntervalQualifier q[]) {
    (void)vr, (void)n, (void)c, (void)r, (void)q;
    NO_CLOCKS("fmi3GetIntervalFraction");
}
fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t n,
                               fmi3Float64 shifts[]) {
    (void)vr, (void)n, (void)shifts;
    NO_CLOCKS("fmi3GetShiftDecimal");
}
fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t n,
                                fmi3UInt64 c[], fmi3UInt64 r[]) {
    (void)vr, (void)n, (void)c, (void)r;
    NO_CLOCKS("fmi3GetShiftFraction");
}
fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vr[],
                                  size_t n, const fmi3Float64 intervals[]) {
    (void)vr, (void)n, (void)intervals;
    NO_CLOCKS("fmi3SetIntervalDecimal");
}
fmi3Status fmi3SetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vr[],
                                   size_t n, const fmi3UInt64 c[], const fmi3UInt64 r[]) {
    (void)vr, (void)n, (void)c, (void)r;
    NO_CLOCKS("fmi3SetIntervalFraction");
}
fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t n,
                               const fmi3Float64 shifts[]) {
    (void)vr, (void)n, (void)shifts;
    NO_CLOCKS("fmi3SetShiftDecimal");
}
fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t n,
                                const fmi3UInt64 c[], const fmi3UInt64 r[]) {
    (void)vr, (void)n, (void)c, (void)r;
    NO_CLOCKS("fmi3SetShiftFraction");
}
fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
    NO_CLOCKS("fmi3EvaluateDiscreteStates");
}
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *a, fmi3Boolean *b,
                                    fmi3Boolean *c, fmi3Boolean *d, fmi3Boolean *e,
                                    fmi3Float64 *f) {
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;
    return fail((Instance *)instance, "%s: event mode is not supported (events are handled "
                                      "inside fmi3DoStep)", "fmi3UpdateDiscreteStates");
}
fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clockReference,
                                      fmi3Float64 activationTime) {
    (void)clockReference, (void)activationTime;
    NO_CLOCKS("fmi3ActivateModelPartition");
}

#define NOT_ME(fn)                                                                         \
    return fail((Instance *)instance, "%s: Model Exchange is not supported (Co-Simulation " \
                                      "FMU)", fn)

fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
    NOT_ME("fmi3EnterContinuousTimeMode");
}
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean noSet,
                                       fmi3Boolean *enterEventMode,
                                       fmi3Boolean *terminateSimulation) {
    (void)noSet, (void)enterEventMode, (void)terminateSimulation;
    NOT_ME("fmi3CompletedIntegratorStep");
}
fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    (void)time;
    NOT_ME("fmi3SetTime");
}
fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 x[], size_t n) {
    (void)x, (void)n;
    NOT_ME("fmi3SetContinuousStates");
}
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 d[], size_t n) {
    (void)d, (void)n;
    NOT_ME("fmi3GetContinuousStateDerivatives");
}
fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 z[], size_t n) {
    (void)z, (void)n;
    NOT_ME("fmi3GetEventIndicators");
}
fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
    (void)x, (void)n;
    NOT_ME("fmi3GetContinuousStates");
}
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
    (void)x, (void)n;
    NOT_ME("fmi3GetNominalsOfContinuousStates");
}
fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t *n) {
    (void)n;
    NOT_ME("fmi3GetNumberOfEventIndicators");
}
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *n) {
    (void)n;
    NOT_ME("fmi3GetNumberOfContinuousStates");
}

/* ------------------------------------------------------------------ stepping */

fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    if (in->s.mode != STEPPING)
        return fail(in, "%s: the FMU is not initialised", "fmi3EnterStepMode");
    return fmi3OK;
}

fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance, const fmi3ValueReference vr[],
                                    size_t nvr, const fmi3Int32 orders[], fmi3Float64 values[],
                                    size_t nValues) {
    (void)vr, (void)nvr, (void)orders, (void)values, (void)nValues;
    return fail((Instance *)instance, "%s: not provided (maxOutputDerivativeOrder is 0)",
                "fmi3GetOutputDerivatives");
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                      fmi3Float64 communicationStepSize,
                      fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                      fmi3Boolean *eventHandlingNeeded, fmi3Boolean *terminateSimulation,
                      fmi3Boolean *earlyReturn, fmi3Float64 *lastSuccessfulTime) {
    Instance *in = (Instance *)instance;
    const double h = RTC_MODEL_STEP_SIZE;
    double steps;
    long n, k;
    (void)noSetFMUStatePriorToCurrentPoint;
    if (!in) return fmi3Error;
    *eventHandlingNeeded = fmi3False;
    *terminateSimulation = fmi3False;
    *earlyReturn = fmi3False;
    *lastSuccessfulTime = now(in);
    if (in->s.mode != STEPPING)
        return fail(in, "%s: the FMU is not initialised or has terminated", "fmi3DoStep");
    if (fabs(currentCommunicationPoint - now(in)) > 1e-9 * fmax(h, fabs(now(in)))) {
        logf_(in, fmi3Error, "logStatusError",
              "fmi3DoStep: the communication point %.17g is not the FMU's time %.17g",
              currentCommunicationPoint, now(in));
        return fmi3Error;
    }
    steps = communicationStepSize / h;
    n = (long)floor(steps + 0.5);
    if (n < 0 || fabs(steps - (double)n) > 1e-9 * fmax(1.0, steps)) {
        logf_(in, fmi3Error, "logStatusError",
              "fmi3DoStep: the communication step %.17g is not a whole number of the FMU's "
              "fixed step %.17g (fixedInternalStepSize)", communicationStepSize, h);
        return fmi3Error;
    }
    if (in->s.params_changed) {
        RTC_MODEL_PARAMETERS(in->s.mem);
        in->s.params_changed = 0;
    }
    for (k = 0; k < n; k++) {
        const double t = now(in);
        int32_t st;
#if RTC_MODEL_EVENT_COUNT > 0
        st = rtc_events_step(&in->s.events, in->s.mem, t, h);
#else
        st = RTC_MODEL_STEP(in->s.mem, t, h);
#endif
        in->s.steps++;
        if ((st & 15) == 6) {
            logf_(in, fmi3OK, "logEvents", "t = %.17g: terminate() in the model (event %ld)",
                  now(in), (long)(st >> 4));
            in->s.mode = TERMINATED;
            *terminateSimulation = fmi3True;
            *lastSuccessfulTime = now(in);
            return fmi3OK;
        }
        if (st != 0) {
            explain(in, st, now(in));
            in->s.mode = FAILED;
            *lastSuccessfulTime = t;
            return fmi3Error;
        }
    }
    *lastSuccessfulTime = now(in);
    return fmi3OK;
}
