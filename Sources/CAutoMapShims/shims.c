#define _GNU_SOURCE
#include "CAutoMapShims.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#if defined(__APPLE__)
#include <xlocale.h>
#endif

uintptr_t automap_process_flags = 0;

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
_Thread_local long automap_flattening_level = -1;
_Thread_local long automap_flattening_count = 0;
_Thread_local void *automap_untagged_memo = NULL;
_Thread_local long automap_containers_made = 0;

_Thread_local uintptr_t automap_stack_floor = 0;

/// The lowest address of this thread's stack, asked for once per thread; 0 when the system
/// does not tell.
static _Thread_local uintptr_t automap_stack_low = 0;
static _Thread_local int automap_stack_known = 0;

#if defined(__linux__)
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The lowest address the main thread's stack may grow to, from the mapping that holds
/// `here` in /proc/self/maps: its top, less the stack's size limit, and not below the
/// mapping under it; 0 when /proc cannot tell. glibc's `pthread_getattr_np` answers so for
/// the main thread; musl's (the Static Linux SDK) gives only the part of the stack already
/// mapped, which ends a few pages below the first call: checked against that, a document
/// of a few dozen levels more was the depth error.
static uintptr_t automap_main_stack_low(uintptr_t here) {
  FILE *maps = fopen("/proc/self/maps", "re");
  if (!maps) return 0;
  char line[256];
  int at_line_start = 1;
  uintptr_t below = 0, low = 0;
  while (fgets(line, sizeof line, maps)) {
    int starts = at_line_start;
    at_line_start = strchr(line, '\n') != NULL;  // the rest of a longer line is no mapping
    unsigned long start, end;
    if (!starts || sscanf(line, "%lx-%lx", &start, &end) != 2) continue;
    if (here >= start && here < end) {
      uintptr_t size = end - below;
      struct rlimit limit;
      if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
          && limit.rlim_cur < size) {
        size = limit.rlim_cur;
      }
      low = end - size;
      break;
    }
    below = end;
  }
  fclose(maps);
  return low;
}

static uintptr_t automap_stack_low_find(void) {
  if ((pid_t)syscall(SYS_gettid) == getpid()) {
    uintptr_t low = automap_main_stack_low((uintptr_t)__builtin_frame_address(0));
    if (low != 0) return low;
  }
  uintptr_t low = 0;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void *base = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &base, &size) == 0) low = (uintptr_t)base;
    pthread_attr_destroy(&attributes);
  }
  return low;
}
#elif defined(__APPLE__)
#include <pthread.h>

static uintptr_t automap_stack_low_find(void) {
  // Darwin gives the stack's highest address and its size.
  pthread_t thread = pthread_self();
  uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(thread);
  size_t size = pthread_get_stacksize_np(thread);
  return top > size ? top - size : 0;
}
#else
static uintptr_t automap_stack_low_find(void) { return 0; }
#endif

static uintptr_t automap_stack_low_get(void) {
  if (!automap_stack_known) {
    automap_stack_known = 1;
    automap_stack_low = automap_stack_low_find();
  }
  return automap_stack_low;
}

size_t automap_stack_remaining(void) {
  uintptr_t low = automap_stack_low_get();
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  if (low == 0 || here <= low) return SIZE_MAX;
  return (size_t)(here - low);
}

uintptr_t automap_stack_floor_find(void) {
  uintptr_t low = automap_stack_low_get();
  automap_stack_floor = low == 0 ? 1 : low + AUTOMAP_STACK_RESERVE;
  return automap_stack_floor;
}
