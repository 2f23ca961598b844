#define _GNU_SOURCE
#include "CAutoMapShims.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#if defined(__APPLE__)
#include <xlocale.h>
#endif

// One "C" locale for the process, created on first use. Racing first uses may each create
// one; the loser's is freed, so the pointer published is always a complete locale.
static locale_t automap_c_locale(void) {
  static locale_t cached = (locale_t)0;
  locale_t current = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
  if (current) return current;
  locale_t fresh = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t expected = (locale_t)0;
  if (!__atomic_compare_exchange_n(&cached, &expected, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    freelocale(fresh);
    return expected;
  }
  return fresh;
}

double automap_strtod(const char *start, size_t length) {
  char small[64];
  char *buffer = small;
  if (length >= sizeof small) {
    buffer = malloc(length + 1);
    if (!buffer) return 0.0;
  }
  memcpy(buffer, start, length);
  buffer[length] = 0;
  double value = strtod_l(buffer, NULL, automap_c_locale());
  if (buffer != small) free(buffer);
  return value;
}

_Thread_local long automap_nesting_depth = 0;
