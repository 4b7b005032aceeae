#ifndef COMBATD_API_JSON_ALLOC_H
#define COMBATD_API_JSON_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * jansson's allocators, with a per-thread note of a failed allocation.
 * jansson does not always report a failed allocation: its lexer drops a character when its
 * buffer cannot grow (lex_save ignores the failed append), so "1000000000000001" can parse as
 * 100000000000000, and a failed string copy can surface as a type error. A request that saw
 * any failure is therefore answered 500, whatever jansson returned.
 *
 * cbd_json_alloc_reset() installs the allocators on its first call (once per process) and
 * clears this thread's note; cbd_json_alloc_failed() tells whether an allocation failed on
 * this thread since. Parse and answer each reset first and check after (api.c); a request
 * answered on a worker thread is parsed on one thread and answered on another, so each
 * step's note is its own.
 */
void cbd_json_alloc_reset(void);

/* Installs the allocators now: call before starting threads that use jansson, so that no
 * thread reads jansson's allocator pointers while they are set (cbd_server_start does). */
void cbd_json_alloc_install(void);
bool cbd_json_alloc_failed(void);

/*
 * A request's document lives in an arena: jansson makes one allocation per value, key, hash
 * table and lexer buffer, and a 1 KB body is about 270 of them, made and then freed one by
 * one. Taken from a few blocks and given back at once, they cost a pointer bump each, and the
 * document needs no walk to be freed. That was a third of parsing a turn request.
 *
 * While an arena is in use on a thread, jansson's allocations there come from it, and its
 * frees of the arena's own pieces do nothing (frees of anything else go to the heap, so a
 * value made before stays safe to free). cbd_json_arena_free gives everything back: no value
 * made in it may be used or freed after. An arena moves between threads with its request (the
 * worker queue orders the hand-over); two threads never use one at the same time.
 */
typedef struct cbd_json_arena cbd_json_arena;

/* A new arena, or NULL when out of memory. */
cbd_json_arena *cbd_json_arena_new(void);

/* Makes `a` this thread's arena (NULL: the heap) and returns the one it replaces, to be put
 * back with another call. */
cbd_json_arena *cbd_json_arena_use(cbd_json_arena *a);

/* The bytes used in the arena's blocks of `from` bytes or more (as malloc'd, header included):
 * under a malloc policy that maps such blocks on their own, the pages the arena faulted in
 * fresh. */
size_t cbd_json_arena_bytes_in_blocks_from(const cbd_json_arena *a, size_t from);

/* Frees the arena and every piece of it; NULL is allowed. Not while it is in use. */
void cbd_json_arena_free(cbd_json_arena *a);

#endif
