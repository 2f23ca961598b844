#ifndef CAUTOMAP_SHIMS_H
#define CAUTOMAP_SHIMS_H

#include <stddef.h>

/// Parses `length` bytes at `start`, already validated as a JSON number, as the nearest
/// double (round-to-nearest-even), independent of the process locale.
double automap_strtod(const char *start, size_t length);

#endif
