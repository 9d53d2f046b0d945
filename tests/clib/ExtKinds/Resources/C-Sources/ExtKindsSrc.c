/* External C functions of every argument kind of Modelica 3.6, 12.9.1, for rtc's tests. */
#include <stddef.h>
#include <string.h>

extern void ModelicaFormatError(const char *format, ...);

/* A linear congruential generator on two Integer state words: the state through pointers,
 * the number (0, 1] through a pointer. */
void kinds_lcg(const int *stateIn, int *stateOut, double *r) {
    unsigned int a = (unsigned int)stateIn[0], b = (unsigned int)stateIn[1];
    a = a * 1103515245u + 12345u;
    b = b ^ (a >> 7);
    stateOut[0] = (int)a;
    stateOut[1] = (int)b;
    *r = ((double)(a >> 8) + 1.0) / 16777216.0;
}

/* sum(u .* w): a Real array and its size as size_t. */
double kinds_weighted(const double *u, const double *w, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += u[i] * w[i];
    return s;
}

/* A String in, an Integer out (djb2). */
int kinds_hash(const char *s) {
    unsigned int h = 5381u;
    for (; *s; s++) h = h * 33u + (unsigned char)*s;
    return (int)(h & 0x7fffffffu);
}

/* A Boolean in, an Integer array out (row-major 2x2). */
void kinds_matrix(int flip, int *m) {
    m[0] = flip ? 4 : 1;
    m[1] = 2;
    m[2] = 3;
    m[3] = flip ? 1 : 4;
}

/* An error past a limit, through ModelicaFormatError (no return). */
double kinds_checked(double x, double limit) {
    if (x > limit) ModelicaFormatError("x = %g exceeds the limit %g", x, limit);
    return 2.0 * x;
}

/* A hidden state set for its effect (no output), read back through an id. */
static double offset = 0.0;
void kinds_set_offset(double x) { offset = x; }
double kinds_offset(int id) { (void)id; return offset; }

/* A String result allocated with ModelicaAllocateString: "n=<n>". */
extern char *ModelicaAllocateString(size_t len);
extern int snprintf(char *str, size_t size, const char *format, ...);
const char *kinds_greeting(int n) {
    char buf[32];
    int len = snprintf(buf, sizeof buf, "n=%d", n);
    char *s = ModelicaAllocateString((size_t)len);
    memcpy(s, buf, (size_t)len + 1);
    return s;
}

/* The length of a String. */
int kinds_length(const char *s) { return (int)strlen(s); }

/* An external object: a polynomial made from its coefficients, evaluated, freed. */
#include <stdlib.h>
extern void ModelicaMessage(const char *string);
typedef struct { int n; double c[8]; } kinds_poly;
void *kinds_poly_new(const double *c, size_t n) {
    kinds_poly *p = (kinds_poly *)calloc(1, sizeof *p);
    if (n > 8) ModelicaFormatError("at most 8 coefficients, not %d", (int)n);
    p->n = (int)n;
    for (size_t i = 0; i < n; i++) p->c[i] = c[i];
    return p;
}
double kinds_poly_eval(void *object, double x) {
    const kinds_poly *p = (const kinds_poly *)object;
    double y = 0.0;
    for (int i = p->n - 1; i >= 0; i--) y = y * x + p->c[i];
    return y;
}
/* p'(x) dx and p''(x) dx^2 + p'(x) ddx: the derivative functions of kinds_poly_eval. */
static double kinds_poly_d(const kinds_poly *p, double x, int order) {
    double y = 0.0;
    for (int i = p->n - 1; i >= order; i--) {
        double k = order == 1 ? i : (double)i * (i - 1);
        y = y * x + k * p->c[i];
    }
    return y;
}
double kinds_poly_der(void *object, double x, double dx) {
    return kinds_poly_d((const kinds_poly *)object, x, 1) * dx;
}
double kinds_poly_der2(void *object, double x, double dx, double ddx) {
    const kinds_poly *p = (const kinds_poly *)object;
    return kinds_poly_d(p, x, 2) * dx * dx + kinds_poly_d(p, x, 1) * ddx;
}
void kinds_poly_free(void *object) {
    ModelicaMessage("kinds: polynomial freed\n");
    free(object);
}

/* A value reported through the library's message callback (an effect). */
extern void ModelicaFormatMessage(const char *format, ...);
void kinds_report(double x) { ModelicaFormatMessage("kinds: report %.17g\n", x); }

/* A String reported through the library's message callback (an effect). */
void kinds_say(const char *s) { ModelicaFormatMessage("kinds: say %s\n", s); }

/* Records by reference (12.9.1.3): structs of the components in declaration order. */
typedef struct { double a; int on; } kinds_inner;
typedef struct { double k; int n; kinds_inner core; const char *tag; } kinds_gains;
typedef struct { double sum; int count; kinds_inner last; } kinds_stats_t;
double kinds_apply(const kinds_gains *g, double x) {
    return g->k * x * g->n + (g->core.on ? g->core.a : 0.0) + (double)strlen(g->tag);
}
void kinds_stats(double x, const kinds_gains *g, kinds_stats_t *s) {
    s->sum = x * g->k + g->core.a;
    s->count = g->n + (int)strlen(g->tag);
    s->last.a = -x;
    s->last.on = !g->core.on;
}
/* Accumulates into a record it is given (an output that holds a value before the call). */
void kinds_accumulate(double x, kinds_stats_t *s) {
    s->sum += x;
    s->count += 1;
}

/* An external object made from a data file: the sum of the numbers in it. */
#include <stdio.h>
typedef struct { double sum; } kinds_file;
void *kinds_file_new(const char *path) {
    FILE *f = fopen(path, "r");
    double x, s = 0.0;
    kinds_file *o;
    if (!f) {
        ModelicaFormatError("kinds: cannot open %s", path);
        return NULL;
    }
    while (fscanf(f, "%lf", &x) == 1) s += x;
    fclose(f);
    o = (kinds_file *)malloc(sizeof *o);
    o->sum = s;
    return o;
}
double kinds_file_scale(void *object, double x) { return ((const kinds_file *)object)->sum * x; }
void kinds_file_free(void *object) { free(object); }
