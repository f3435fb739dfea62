#ifndef REWIND_CSQLITE_SHIM_H
#define REWIND_CSQLITE_SHIM_H
#include <sqlite3.h>

/// `sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)`: Swift cannot call a C variadic function.
/// Valid only before SQLite is initialized (it returns SQLITE_MISUSE afterwards).
static inline int rewind_sqlite3_config_no_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
