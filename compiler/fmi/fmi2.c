/*
 * fmi2.c: the FMI 2.0 Co-Simulation interface of a model compiled by `rtc fmu --fmi 2`
 * (written for rtc). The instance, stepping, variables and states are rtc_fmu_core.c's
 * (shared with the FMI 3.0 wrapper); this file maps FMI 2.0 calls onto them.
 *
 *   - fmi2DoStep runs whole steps of the compiled step (events located inside, as `rtc run`);
 *     a communication step that is not a whole number of steps is an error. It never returns
 *     fmi2Pending (no asynchronous stepping).
 *   - A failed step is fmi2Error with the log message naming the block or the variable;
 *     terminate() in the model ends the step with fmi2Discard, and fmi2GetBooleanStatus
 *     (fmi2Terminated) is then true and fmi2GetRealStatus (fmi2LastSuccessfulTime) the time.
 *   - Memory: the instance is allocated in fmi2Instantiate (with the master's allocator when
 *     it gives one) and freed in fmi2FreeInstance; nothing else allocates.
 *   - Every function of fmi2Functions.h is defined; the Model Exchange ones and the rest
 *     without meaning for this FMU return fmi2Error and log why.
 */
#include "rtc_fmu_core.h"
#include "fmi2Functions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    rtc_fmu f; /* first: an Instance is its rtc_fmu */
    char name[128];
    fmi2CallbackFunctions cb;
    int logging;
    int terminated;
    double last_successful;
} Instance;

static void log_to_master(rtc_fmu *f, int error, const char *category, const char *message) {
    Instance *in = (Instance *)f->owner;
    if (!in->cb.logger || (!error && !in->logging)) return;
    in->cb.logger(in->cb.componentEnvironment, in->name,
                  error == 2 ? fmi2Warning : error ? fmi2Error : fmi2OK, category, "%s", message);
}

static fmi2Status fail(Instance *in, const char *fmt, const char *what) {
    if (in) rtc_fmu_logf(&in->f, 1, "logStatusError", fmt, what);
    return fmi2Error;
}

const char *fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
const char *fmi2GetVersion(void) { return fmi2Version; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[]) {
    Instance *in = (Instance *)c;
    (void)nCategories;
    (void)categories;
    if (!in) return fmi2Error;
    in->logging = loggingOn;
    return fmi2OK;
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation,
                              const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                              fmi2Boolean loggingOn) {
    Instance *in;
    (void)visible;
    if (!functions) return NULL;
    if (fmuType != fmi2CoSimulation) {
        if (functions->logger)
            functions->logger(functions->componentEnvironment, instanceName, fmi2Error,
                              "logStatusError",
                              "Model Exchange is not supported: rtc exports Co-Simulation FMUs "
                              "(the integration formula is compiled into the step)");
        return NULL;
    }
    if (fmuGUID && strcmp(fmuGUID, RTC_FMU_TOKEN) != 0) {
        if (functions->logger)
            functions->logger(functions->componentEnvironment, instanceName, fmi2Error,
                              "logStatusError", "the GUID does not match this FMU's (%s)",
                              RTC_FMU_TOKEN);
        return NULL;
    }
    in = functions->allocateMemory ? (Instance *)functions->allocateMemory(1, sizeof *in)
                                   : (Instance *)calloc(1, sizeof *in);
    if (!in) return NULL;
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", instanceName ? instanceName : "");
    in->cb = *functions;
    in->logging = loggingOn;
    in->f.log = log_to_master;
    in->f.owner = in;
    rtc_fmu_resources(fmuResourceLocation);
    if (rtc_fmu_objects(&in->f) != 0) {
        if (functions->freeMemory)
            functions->freeMemory(in);
        else
            free(in);
        return NULL;
    }
    rtc_fmu_defaults(&in->f);
    return in;
}

void fmi2FreeInstance(fmi2Component c) {
    Instance *in = (Instance *)c;
    if (!in) return;
    rtc_fmu_free_objects();
    if (in->cb.freeMemory)
        in->cb.freeMemory(in);
    else
        free(in);
}

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined,
                               fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
    Instance *in = (Instance *)c;
    (void)toleranceDefined;
    (void)tolerance;
    (void)stopTimeDefined;
    (void)stopTime;
    if (!in) return fmi2Error;
    if (in->f.s.mode != RTC_FMU_INSTANTIATED)
        return fail(in, "%s: only after instantiation", "fmi2SetupExperiment");
    in->f.start = startTime;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    if (in->f.s.mode != RTC_FMU_INSTANTIATED)
        return fail(in, "%s: only after instantiation", "fmi2EnterInitializationMode");
    in->f.s.mode = RTC_FMU_INITIALIZATION;
    return fmi2OK;
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    Instance *in = (Instance *)c;
    int r;
    if (!in) return fmi2Error;
    if (in->f.s.mode != RTC_FMU_INITIALIZATION)
        return fail(in, "%s: not in initialization mode", "fmi2ExitInitializationMode");
    r = rtc_fmu_initialize(&in->f);
    in->terminated = r == 1;
    in->last_successful = in->f.start;
    return r < 0 ? fmi2Error : fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    return rtc_fmu_terminate(&in->f) < 0 ? fmi2Error : fmi2OK;
}

fmi2Status fmi2Reset(fmi2Component c) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    rtc_fmu_defaults(&in->f);
    in->terminated = 0;
    return fmi2OK;
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       fmi2Real value[]) {
    Instance *in = (Instance *)c;
    size_t k;
    if (!in) return fmi2Error;
    for (k = 0; k < nvr; k++)
        if (rtc_fmu_get(&in->f, vr[k], &value[k]) != 0) return fmi2Error;
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                       const fmi2Real value[]) {
    Instance *in = (Instance *)c;
    size_t k;
    if (!in) return fmi2Error;
    for (k = 0; k < nvr; k++)
        if (rtc_fmu_admit(&in->f, vr[k], value[k], "fmi2SetReal") != 0) return fmi2Error;
    for (k = 0; k < nvr; k++)
        if (rtc_fmu_set(&in->f, vr[k], value[k], "fmi2SetReal") != 0) return fmi2Error;
    return fmi2OK;
}

static fmi2Status none_of(Instance *in, const char *fn, size_t n) {
    if (n == 0) return fmi2OK;
    return fail(in, "%s: this FMU has only Real variables (Booleans and Integers of the model "
                    "are Real too)", fn);
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Integer value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2GetInteger", nvr);
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          fmi2Boolean value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2GetBoolean", nvr);
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         fmi2String value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2GetString", nvr);
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Integer value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2SetInteger", nvr);
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                          const fmi2Boolean value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2SetBoolean", nvr);
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                         const fmi2String value[]) {
    (void)vr, (void)value;
    return none_of((Instance *)c, "fmi2SetString", nvr);
}

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
    Instance *in = (Instance *)c;
    rtc_fmu_snapshot *s;
    if (!in || !FMUstate) return fmi2Error;
    s = rtc_fmu_save(&in->f, (rtc_fmu_snapshot *)*FMUstate, "fmi2GetFMUstate");
    if (!s) return fmi2Error;
    *FMUstate = s;
    return fmi2OK;
}

fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    return rtc_fmu_restore(&in->f, (rtc_fmu_snapshot *)FMUstate, "fmi2SetFMUstate") ? fmi2Error
                                                                                  : fmi2OK;
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
    Instance *in = (Instance *)c;
    if (!in || !FMUstate) return fmi2Error;
    if (rtc_fmu_free_state(&in->f, (rtc_fmu_snapshot *)*FMUstate, "fmi2FreeFMUstate"))
        return fmi2Error;
    *FMUstate = NULL;
    return fmi2OK;
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate, size_t *size) {
    (void)c;
    (void)FMUstate;
    *size = rtc_fmu_serial_size();
    return fmi2OK;
}

fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate,
                                 fmi2Byte serializedState[], size_t size) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    return rtc_fmu_serialize(&in->f, (rtc_fmu_snapshot *)FMUstate,
                             (unsigned char *)serializedState, size)
               ? fmi2Error
               : fmi2OK;
}

fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[],
                                   size_t size, fmi2FMUstate *FMUstate) {
    Instance *in = (Instance *)c;
    rtc_fmu_snapshot *s;
    if (!in || !FMUstate) return fmi2Error;
    s = rtc_fmu_deserialize(&in->f, (const unsigned char *)serializedState, size);
    if (!s) return fmi2Error;
    *FMUstate = s;
    return fmi2OK;
}

fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[],
                                        size_t nu, const fmi2ValueReference k[], size_t nk,
                                        const fmi2Real dk[], fmi2Real du[]) {
    (void)u, (void)nu, (void)k, (void)nk, (void)dk, (void)du;
    return fail((Instance *)c, "%s: not provided (providesDirectionalDerivative is false)",
                "fmi2GetDirectionalDerivative");
}

#define NOT_ME(fn)                                                                         \
    return fail((Instance *)c, "%s: Model Exchange is not supported (Co-Simulation FMU)", fn)

fmi2Status fmi2EnterEventMode(fmi2Component c) { NOT_ME("fmi2EnterEventMode"); }
fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
    (void)info;
    NOT_ME("fmi2NewDiscreteStates");
}
fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { NOT_ME("fmi2EnterContinuousTimeMode"); }
fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSet,
                                       fmi2Boolean *enterEventMode,
                                       fmi2Boolean *terminateSimulation) {
    (void)noSet, (void)enterEventMode, (void)terminateSimulation;
    NOT_ME("fmi2CompletedIntegratorStep");
}
fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    (void)time;
    NOT_ME("fmi2SetTime");
}
fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
    (void)x, (void)nx;
    NOT_ME("fmi2SetContinuousStates");
}
fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real d[], size_t nx) {
    (void)d, (void)nx;
    NOT_ME("fmi2GetDerivatives");
}
fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t ni) {
    (void)z, (void)ni;
    NOT_ME("fmi2GetEventIndicators");
}
fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
    (void)x, (void)nx;
    NOT_ME("fmi2GetContinuousStates");
}
fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
    (void)x, (void)nx;
    NOT_ME("fmi2GetNominalsOfContinuousStates");
}

fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                       size_t nvr, const fmi2Integer order[],
                                       const fmi2Real value[]) {
    (void)vr, (void)nvr, (void)order, (void)value;
    return fail((Instance *)c, "%s: inputs hold over a step (canInterpolateInputs is false)",
                "fmi2SetRealInputDerivatives");
}

fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                        size_t nvr, const fmi2Integer order[],
                                        fmi2Real value[]) {
    (void)vr, (void)nvr, (void)order, (void)value;
    return fail((Instance *)c, "%s: not provided (maxOutputDerivativeOrder is 0)",
                "fmi2GetRealOutputDerivatives");
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                      fmi2Real communicationStepSize,
                      fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
    Instance *in = (Instance *)c;
    int r;
    (void)noSetFMUStatePriorToCurrentPoint;
    if (!in) return fmi2Error;
    r = rtc_fmu_do_step(&in->f, currentCommunicationPoint, communicationStepSize,
                        &in->last_successful, "fmi2DoStep");
    if (r == 1) {
        /* terminate() in the model: the master learns it from fmi2GetBooleanStatus. */
        in->terminated = 1;
        return fmi2Discard;
    }
    return r < 0 ? fmi2Error : fmi2OK;
}

fmi2Status fmi2CancelStep(fmi2Component c) {
    return fail((Instance *)c, "%s: fmi2DoStep never returns fmi2Pending", "fmi2CancelStep");
}

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *value) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    if (s == fmi2DoStepStatus) {
        *value = in->f.s.mode == RTC_FMU_FAILED ? fmi2Error : fmi2OK;
        return fmi2OK;
    }
    return fail(in, "%s: no such status for fmi2GetStatus", "fmi2GetStatus");
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real *value) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    if (s == fmi2LastSuccessfulTime) {
        *value = in->last_successful;
        return fmi2OK;
    }
    return fail(in, "%s: only fmi2LastSuccessfulTime", "fmi2GetRealStatus");
}

fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer *value) {
    (void)s, (void)value;
    return fail((Instance *)c, "%s: no integer status", "fmi2GetIntegerStatus");
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean *value) {
    Instance *in = (Instance *)c;
    if (!in) return fmi2Error;
    if (s == fmi2Terminated) {
        *value = in->terminated ? fmi2True : fmi2False;
        return fmi2OK;
    }
    return fail(in, "%s: only fmi2Terminated", "fmi2GetBooleanStatus");
}

fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String *value) {
    (void)s, (void)value;
    return fail((Instance *)c, "%s: no string status", "fmi2GetStringStatus");
}
