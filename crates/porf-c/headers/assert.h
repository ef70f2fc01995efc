/* porf bundled <assert.h>. Like the standard header it has no include guard and
 * honours NDEBUG at each inclusion. __porf_assert is a front-end builtin taking the
 * condition and its source text. */
#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) __porf_assert((expr), #expr)
#endif
#ifndef static_assert
#define static_assert _Static_assert
#endif
