# Portable baseline: every x86-64-v2 machine (SSE4.2, POPCNT). Wider SIMD is chosen at run time.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    add_compile_options(-march=x86-64-v2)
endif()
add_compile_options(-Wall -Wextra -Wno-unused-parameter)

if(GRANARY_SANITIZE STREQUAL "address")
    set(GRANARY_SANITIZER_FLAGS -fsanitize=address -fno-omit-frame-pointer)
elseif(GRANARY_SANITIZE STREQUAL "thread")
    set(GRANARY_SANITIZER_FLAGS -fsanitize=thread)
elseif(GRANARY_SANITIZE STREQUAL "address+undefined")
    set(GRANARY_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
        -fno-omit-frame-pointer)
elseif(GRANARY_SANITIZE STREQUAL "undefined")
    set(GRANARY_SANITIZER_FLAGS -fsanitize=undefined -fno-sanitize-recover=undefined)
elseif(NOT GRANARY_SANITIZE STREQUAL "")
    message(FATAL_ERROR "GRANARY_SANITIZE must be address, thread, undefined or empty, "
                        "not '${GRANARY_SANITIZE}'")
endif()
# oneTBB's scheduler is not instrumented: under TSan the executor runs regions on std::threads.
if(GRANARY_SANITIZE STREQUAL "thread")
    add_compile_definitions(GRANARY_TSAN_EXECUTOR=1)
endif()
if(GRANARY_SANITIZER_FLAGS)
    add_compile_options(${GRANARY_SANITIZER_FLAGS} -g)
    add_link_options(${GRANARY_SANITIZER_FLAGS})
endif()

# ASan and TSan replace malloc themselves; jemalloc would hide allocations from them.
if(GRANARY_SANITIZE MATCHES "^(address|thread|address\\+undefined)$")
    set(GRANARY_USE_JEMALLOC OFF)
else()
    set(GRANARY_USE_JEMALLOC ON)
endif()
