#ifndef CAUTOMAP_SHIMS_H
#define CAUTOMAP_SHIMS_H

#include <stddef.h>

/// Parses `length` bytes at `start`, already validated as a JSON number, as the nearest
/// double (round-to-nearest-even), independent of the process locale.
double automap_strtod(const char *start, size_t length);

/// How many models, arrays and dictionaries this thread is inside while mapping through
/// `JSON` values (`init(decode:)` and `json` recurse through witnesses that take no depth
/// argument, so the depth is kept per thread). Mapping is synchronous: a thread never
/// switches tasks in the middle of it.
extern _Thread_local long automap_nesting_depth;

/// Enters one level and returns the new depth.
static inline long automap_enter_level(void) { return ++automap_nesting_depth; }

/// Leaves one level.
static inline void automap_leave_level(void) { --automap_nesting_depth; }

#endif
