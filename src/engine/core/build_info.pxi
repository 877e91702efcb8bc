# How this core was compiled, for `vireo --version`, `bench` and the `uci`
# reply (engine/cpu.py words it). setup.py defines ENGINE_BUILD_LEVEL: "native"
# (-march=native), "portable" (ENGINE_PORTABLE=1), or the x86-64 level of one
# of the dispatched wheel's cores ("x86-64" ... "x86-64-v4"); the instruction
# set macros are the compiler's own.

cdef extern from *:
    """
    #ifndef ENGINE_BUILD_LEVEL
    #define ENGINE_BUILD_LEVEL "native"
    #endif
    #if defined(__POPCNT__)
    #define ENGINE_HAS_POPCNT 1
    #else
    #define ENGINE_HAS_POPCNT 0
    #endif
    #if defined(__BMI2__)
    #define ENGINE_HAS_BMI2 1
    #else
    #define ENGINE_HAS_BMI2 0
    #endif
    """
    const char *ENGINE_BUILD_LEVEL
    int ENGINE_HAS_POPCNT
    int ENGINE_HAS_BMI2

def build_info():
    """{"level": how it was compiled, "simd": the NNUE code compiled in
    (avx512, avx2 or plain), "popcnt", "bmi2": instructions it may use}."""
    return {"level": ENGINE_BUILD_LEVEL.decode(), "simd": VIREO_SIMD_NAME.decode() if VIREO_SIMD_WIDTH else "plain",
            "popcnt": bool(ENGINE_HAS_POPCNT), "bmi2": bool(ENGINE_HAS_BMI2)}
