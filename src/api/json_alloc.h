#ifndef COMBATD_API_JSON_ALLOC_H
#define COMBATD_API_JSON_ALLOC_H

#include <stdbool.h>

/*
 * jansson's allocators, with a per-thread note of a failed allocation (issue 12, item 4).
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

#endif
