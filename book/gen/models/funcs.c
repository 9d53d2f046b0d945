/* External C functions of tests/models/ExternalSat.mo (built into a shared library by
 * tests/it/external.rs and loaded with --link). */
#include <math.h>

double rtc_test_sat(double u) { return u > 1.0 ? 1.0 : (u < -1.0 ? -1.0 : u); }

double rtc_test_hyp(double a, double b) { return sqrt(a * a + b * b); }
