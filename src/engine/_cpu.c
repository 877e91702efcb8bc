/* engine._cpu: the x86-64 level this CPU runs, asked of the CPU itself.
 *
 * Compiled for the baseline x86-64 (no -march), so that it runs on any x86-64
 * and picks which of the dispatched wheel's cores may be loaded
 * (engine/cpu.py). __builtin_cpu_supports asks CPUID and, for AVX and
 * AVX-512, whether the operating system saves their registers; it answers
 * for the CPU the program really runs on, an emulated one included
 * (/proc/cpuinfo under qemu-user shows the host's).
 *
 * level() -> 0 (not x86-64, or a compiler without the builtin), else 1..4:
 * x86-64 (SSE2), x86-64-v2 (SSE4.2, POPCNT), x86-64-v3 (AVX2, BMI2, FMA),
 * x86-64-v4 (AVX-512 F, BW, CD, DQ, VL).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int cpu_level(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
    /* The psABI's own definitions of the levels. */
    if (__builtin_cpu_supports("x86-64-v4")) return 4;
    if (__builtin_cpu_supports("x86-64-v3")) return 3;
    if (__builtin_cpu_supports("x86-64-v2")) return 2;
    return 1;
#else
    /* Older compilers: the features -march=x86-64-vN uses most. */
    int v2 = __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse4.2")
             && __builtin_cpu_supports("ssse3");
    int v3 = v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
             && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
    int v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
             && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq")
             && __builtin_cpu_supports("avx512vl");
    return v4 ? 4 : v3 ? 3 : v2 ? 2 : 1;
#endif
#else
    return 0;
#endif
}

static PyObject *level(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(cpu_level());
}

static PyMethodDef methods[] = {
    {"level", level, METH_NOARGS, "The x86-64 level of this CPU: 1..4, or 0 when unknown."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cpu", "The x86-64 level of this CPU (engine/cpu.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__cpu(void)
{
    return PyModule_Create(&module);
}
