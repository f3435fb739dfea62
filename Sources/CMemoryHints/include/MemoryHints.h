#ifndef REWIND_MEMORY_HINTS_H
#define REWIND_MEMORY_HINTS_H

// Hints to the processor about memory the caller is about to touch. They change no value and
// no order of memory operations; on a compiler without the builtin they do nothing.

// Asks for the cache lines of `bytes` bytes from `start` to be brought into this core's cache,
// ready to be written (the capture queue's next slots, written on the main actor a few events
// later).
static inline void rewind_prefetch_for_write(const void *start, long bytes) {
#if defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
  const char *line = (const char *)start;
  const char *end = line + bytes;
  for (; line < end; line += 64) __builtin_prefetch(line, 1, 3);
#endif
#endif
}

#endif
