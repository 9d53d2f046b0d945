/* The library ExtPolySrc of tests/clib/ExtPoly, compiled by rtc from this source. */
double ext_poly(double x) { return x * x * x - 2.0 * x; }
