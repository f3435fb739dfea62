#ifndef REWIND_RANDOM_WATCH_H
#define REWIND_RANDOM_WATCH_H

// Runs a function on a thread of its own whose calls for system randomness are counted: the
// `getrandom` system call (Swift's `SystemRandomNumberGenerator`, `Int.random(in:)`,
// `shuffled()`, …) and opening `/dev/urandom` or `/dev/random` (Foundation's `UUID()` on
// Linux). A seccomp filter installed on that thread alone hands each such call to a second
// thread, which counts it while counting is on and lets it continue unchanged. Typed replay
// runs a reducer this way: a reducer that reads randomness the trace cannot serve back is
// caught every time, not when the random value happens to change the state.
//
// Both threads end before `rewind_random_watch_run` returns. Where seccomp is not available
// (another kernel, a sandbox that forbids it), the function still runs on its own thread and
// `installed` is 0 with the reason in `error`.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rewind_random_watch rewind_random_watch;

typedef struct {
  // 1 when the filter was installed and calls were counted.
  int installed;
  // The errno of the step that failed when `installed` is 0.
  int error;
  // Which step failed: "unsupported", "thread", "no_new_privs", "seccomp", "supervisor".
  const char *failed_step;
} rewind_random_watch_status;

// Runs `body(context, watch)` on a new thread (stack `stack_bytes`) and returns when it and
// the counting thread have ended. Returns 0, or an errno when no thread could be started.
int rewind_random_watch_run(
  void (*body)(void *context, rewind_random_watch *watch), void *context, size_t stack_bytes,
  rewind_random_watch_status *status);

// Turns counting on or off; call it from the body's thread.
void rewind_random_watch_set_counting(rewind_random_watch *watch, int on);

// The `getrandom` calls counted so far.
uint64_t rewind_random_watch_getrandom_count(rewind_random_watch *watch);

// The openings of /dev/urandom or /dev/random counted so far.
uint64_t rewind_random_watch_device_count(rewind_random_watch *watch);

#ifdef __cplusplus
}
#endif

#endif
