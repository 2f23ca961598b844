#ifndef CAUTOMAP_SHIMS_H
#define CAUTOMAP_SHIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Parses `length` bytes at `start`, already validated as a JSON number, as the nearest
/// double (round-to-nearest-even), independent of the process locale.
double automap_strtod(const char *start, size_t length);

/// How many models, arrays and dictionaries this thread is inside while mapping through
/// `JSON` values (`init(decode:)` and `json` recurse through witnesses that take no depth
/// argument, so the depth is kept per thread). Mapping is synchronous: a thread never
/// switches tasks in the middle of it.
extern _Thread_local long automap_nesting_depth;

/// The depth this thread is at.
static inline long automap_nesting_level(void) { return automap_nesting_depth; }

/// Enters one level and returns the new depth.
static inline long automap_enter_level(void) { return ++automap_nesting_depth; }

/// Leaves one level.
static inline void automap_leave_level(void) { --automap_nesting_depth; }

/// Enters `levels` levels at once (leaves them when negative).
static inline void automap_add_levels(long levels) { automap_nesting_depth += levels; }

/// The flattened values (`.index([])`) this thread is inside, one inside another, at the
/// level it is at: each reads the object at that level again, or writes into it. They add no
/// level, so they are bounded on their own (a model flattened into itself would read its
/// object for ever). `automap_flattening_level` is the level, `automap_flattening_count` how
/// many; a value flattened at another level starts its own count.
extern _Thread_local long automap_flattening_level;
extern _Thread_local long automap_flattening_count;

static inline long automap_flattening_level_get(void) { return automap_flattening_level; }

static inline long automap_flattening_count_get(void) { return automap_flattening_count; }

static inline void automap_flattening_set(long level, long count) {
  automap_flattening_level = level;
  automap_flattening_count = count;
}

/// The memo of the untagged enum being read from bytes on this thread, if any (an unretained
/// Swift object): nested untagged values of the same document share it. Mapping is
/// synchronous, as for the nesting depth.
extern _Thread_local void *automap_untagged_memo;

static inline void *automap_untagged_memo_get(void) { return automap_untagged_memo; }

static inline void automap_untagged_memo_set(void *memo) { automap_untagged_memo = memo; }

/// How many keyed containers byte decoders and encoders made on this thread rather than
/// handing out one they kept (`KeptContainers`): read by tests, which decode on one thread.
extern _Thread_local long automap_containers_made;

static inline void automap_count_container_made(void) { ++automap_containers_made; }

static inline long automap_containers_made_count(void) { return automap_containers_made; }

/// How many bytes of this thread's stack are left below the caller's frame; `SIZE_MAX` when
/// the system does not tell. The stack's bounds are asked for once per thread.
size_t automap_stack_remaining(void);

/// The stack mapping keeps free below each level it enters: enough for one level's frames
/// and the work at a leaf (a number, a string, an error's message, a model's hook).
#define AUTOMAP_STACK_RESERVE (64 * 1024)

/// The address below which this thread's frames leave less than `AUTOMAP_STACK_RESERVE` of
/// its stack: 0 until asked for (`automap_stack_floor_find`), 1 when the system does not
/// tell (no frame is below it).
extern _Thread_local uintptr_t automap_stack_floor;

/// Finds this thread's stack floor, stores it and returns it.
uintptr_t automap_stack_floor_find(void);

/// Whether the caller's frame is in the last `AUTOMAP_STACK_RESERVE` bytes of its thread's
/// stack: one level deeper could overflow it. A thread-local read and two comparisons, for
/// every level mapping enters (a thread of 512 KiB, the default of Apple's dispatch queues,
/// holds far fewer levels than `JSON.maximumDepth` of some paths). A frame outside the
/// thread's stack (code running on a stack of its own making) is never low: as before.
static inline bool automap_stack_is_low(void) {
  uintptr_t floor = automap_stack_floor;
  if (__builtin_expect(floor == 0, 0)) floor = automap_stack_floor_find();
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  return here < floor && here >= floor - AUTOMAP_STACK_RESERVE;
}

// Atomic operations on a word, for `AtomicWord` (Sources/AutoMap/Platform/AtomicWord.swift):
// the compiler's builtins, the same instructions the standard library's `Atomic` uses, on
// every system version. The word must stay at one address while it is shared.

static inline uintptr_t automap_atomic_load_acquire(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline uintptr_t automap_atomic_load_relaxed(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void automap_atomic_store_release(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

static inline void automap_atomic_store_relaxed(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Features some call in the process has used, one bit each, never cleared (`ProcessFlag`
/// in Sources/AutoMap/Platform/AtomicWord.swift). A C global, so that reading it takes no
/// lazy initialization: a Swift global would check a once-token at each read.
extern uintptr_t automap_process_flags;

static inline bool automap_process_flag_is_set(uintptr_t flag) {
  return (__atomic_load_n(&automap_process_flags, __ATOMIC_RELAXED) & flag) != 0;
}

static inline void automap_process_flag_set(uintptr_t flag) {
  __atomic_fetch_or(&automap_process_flags, flag, __ATOMIC_RELAXED);
}

/// Stores `desired` if the word holds `*expected` (acquiring and releasing); otherwise writes
/// what it holds to `*expected`. Returns whether it stored.
static inline bool automap_atomic_compare_exchange(
    uintptr_t *word, uintptr_t *expected, uintptr_t desired) {
  return __atomic_compare_exchange_n(
      word, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#endif
