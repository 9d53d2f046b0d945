/* Included by the Include annotation of ExtPoly.twice: it defines the function. */
double ext_twice(double x) { return 2.0 * x; }
