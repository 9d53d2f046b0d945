/*
 * fmi3.c: the FMI 3.0 Co-Simulation interface of a model compiled by `rtc fmu` (written for
 * rtc). The instance, stepping, variables and states are rtc_fmu_core.c's (shared with the
 * FMI 2.0 wrapper); this file maps FMI 3.0 calls onto them.
 *
 *   - fmi3DoStep runs whole steps of the compiled step (events located inside, as `rtc run`);
 *     a communication step that is not a whole number of steps is an error.
 *   - A step that does not converge, a value that is not finite, chattering events: fmi3Error
 *     with a log message naming the block or the variable; terminate() in the model:
 *     terminateSimulation with fmi3OK, then only fmi3Terminate and fmi3FreeInstance.
 *   - Memory: the instance (with room for RTC_FMU_STATES saved states) is allocated in
 *     fmi3InstantiateCoSimulation and freed in fmi3FreeInstance; nothing else allocates.
 *   - Every function of fmi3Functions.h is defined; those without meaning for a fixed-step
 *     Co-Simulation FMU without clocks or Model Exchange return fmi3Error and log why.
 */
#include "rtc_fmu_core.h"
#include "fmi3Functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    rtc_fmu f; /* first: an Instance is its rtc_fmu */
    char name[128];
    fmi3InstanceEnvironment env;
    fmi3LogMessageCallback log;
    int logging;
} Instance;

static void log_to_master(rtc_fmu *f, int error, const char *category, const char *message) {
    Instance *in = (Instance *)f->owner;
    if (!in->log || (!error && !in->logging)) return;
    in->log(in->env, error == 2 ? fmi3Warning : error ? fmi3Error : fmi3OK, category, message);
}

static fmi3Status fail(Instance *in, const char *fmt, const char *what) {
    if (in) rtc_fmu_logf(&in->f, 1, "logStatusError", fmt, what);
    return fmi3Error;
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

fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate) {
    Instance *in;
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
    in->f.log = log_to_master;
    in->f.owner = in;
    rtc_fmu_resources(resourcePath);
    if (rtc_fmu_objects(&in->f) != 0) {
        free(in);
        return NULL;
    }
    rtc_fmu_defaults(&in->f);
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

void fmi3FreeInstance(fmi3Instance instance) {
    if (!instance) return;
    rtc_fmu_free_objects();
    free(instance);
}

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
    if (in->f.s.mode != RTC_FMU_INSTANTIATED)
        return fail(in, "%s: only after instantiation", "fmi3EnterInitializationMode");
    in->f.start = startTime;
    in->f.s.mode = RTC_FMU_INITIALIZATION;
    return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    if (in->f.s.mode != RTC_FMU_INITIALIZATION)
        return fail(in, "%s: not in initialization mode", "fmi3ExitInitializationMode");
    /* Init from the tunable parameters the master set. */
    return rtc_fmu_initialize(&in->f) < 0 ? fmi3Error : fmi3OK;
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
    return fail((Instance *)instance, "%s: event mode is not supported (events are handled "
                                      "inside fmi3DoStep)", "fmi3EnterEventMode");
}

fmi3Status fmi3Terminate(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    return rtc_fmu_terminate(&in->f) < 0 ? fmi3Error : fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    rtc_fmu_defaults(&in->f);
    return fmi3OK;
}

/* ------------------------------------------------------------------ variables */

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                          size_t nValueReferences, fmi3Float64 values[], size_t nValues) {
    Instance *in = (Instance *)instance;
    size_t k;
    if (!in) return fmi3Error;
    if (nValues < nValueReferences)
        return fail(in, "%s: fewer values than value references", "fmi3GetFloat64");
    for (k = 0; k < nValueReferences; k++)
        if (rtc_fmu_get(&in->f, valueReferences[k], &values[k]) != 0) return fmi3Error;
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
    for (k = 0; k < nValueReferences; k++)
        if (rtc_fmu_admit(&in->f, valueReferences[k], values[k], "fmi3SetFloat64") != 0)
            return fmi3Error;
    for (k = 0; k < nValueReferences; k++)
        if (rtc_fmu_set(&in->f, valueReferences[k], values[k], "fmi3SetFloat64") != 0)
            return fmi3Error;
    return fmi3OK;
}

/* Types the FMU declares no variables of: only an empty request succeeds. */
static fmi3Status none_of(Instance *in, const char *fn, size_t n) {
    if (n == 0) return fmi3OK;
    return fail(in, "%s: this FMU has only Float64 variables (Booleans and Integers of the "
                    "model are Float64 too)", fn);
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

fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    rtc_fmu_snapshot *s;
    if (!in || !FMUState) return fmi3Error;
    s = rtc_fmu_save(&in->f, (rtc_fmu_snapshot *)*FMUState, "fmi3GetFMUState");
    if (!s) return fmi3Error;
    *FMUState = s;
    return fmi3OK;
}

fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    return rtc_fmu_restore(&in->f, (rtc_fmu_snapshot *)FMUState, "fmi3SetFMUState") ? fmi3Error
                                                                                   : fmi3OK;
}

fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    if (!in || !FMUState) return fmi3Error;
    if (rtc_fmu_free_state(&in->f, (rtc_fmu_snapshot *)*FMUState, "fmi3FreeFMUState"))
        return fmi3Error;
    *FMUState = NULL;
    return fmi3OK;
}

fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState,
                                      size_t *size) {
    (void)instance;
    (void)FMUState;
    *size = rtc_fmu_serial_size();
    return fmi3OK;
}

fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                 fmi3Byte serializedState[], size_t size) {
    Instance *in = (Instance *)instance;
    if (!in) return fmi3Error;
    return rtc_fmu_serialize(&in->f, (rtc_fmu_snapshot *)FMUState, serializedState, size)
               ? fmi3Error
               : fmi3OK;
}

fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[],
                                   size_t size, fmi3FMUState *FMUState) {
    Instance *in = (Instance *)instance;
    rtc_fmu_snapshot *s;
    if (!in || !FMUState) return fmi3Error;
    s = rtc_fmu_deserialize(&in->f, serializedState, size);
    if (!s) return fmi3Error;
    *FMUState = s;
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
    if (in->f.s.mode != RTC_FMU_STEPPING)
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
    int r;
    (void)noSetFMUStatePriorToCurrentPoint;
    if (!in) return fmi3Error;
    *eventHandlingNeeded = fmi3False;
    *terminateSimulation = fmi3False;
    *earlyReturn = fmi3False;
    r = rtc_fmu_do_step(&in->f, currentCommunicationPoint, communicationStepSize,
                        lastSuccessfulTime, "fmi3DoStep");
    if (r == 1) *terminateSimulation = fmi3True;
    return r < 0 ? fmi3Error : fmi3OK;
}
