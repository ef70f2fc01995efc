# 1 "glibc_style.c"
# 1 "<built-in>"
# 1 "glibc_style.c"
extern void abort(void);
extern void __assert_fail (const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "glibc_style.c", 3, __extension__ __PRETTY_FUNCTION__); })); }
__extension__ typedef long long int __quad_t;
typedef unsigned int size_t;
typedef unsigned long int pthread_t;
typedef union
{
  struct __pthread_mutex_s
  {
    int __lock;
    unsigned int __count;
    int __owner;
    int __kind;
    unsigned int __nusers;
    __extension__ union
    {
      struct { short __espins; short __eelision; } __elision_data;
      struct __pthread_internal_slist { struct __pthread_internal_slist *__next; } __list;
    };
  } __data;
  char __size[24];
  long int __align;
} pthread_mutex_t;
typedef union { char __size[36]; long int __align; } pthread_attr_t;
extern int pthread_create (pthread_t *__restrict __newthread,
      const pthread_attr_t *__restrict __attr,
      void *(*__start_routine) (void *),
      void *__restrict __arg) __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1, 3)));
extern int pthread_join (pthread_t __th, void **__thread_return);
extern int pthread_mutex_lock (pthread_mutex_t *__mutex)
     __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
extern int pthread_mutex_unlock (pthread_mutex_t *__mutex)
     __attribute__ ((__nothrow__)) __attribute__ ((__nonnull__ (1)));
static __inline unsigned int
__bswap_32 (unsigned int __bsx)
{
  return __bsx;
}
# 40 "glibc_style.c"
pthread_mutex_t m = { { 0, 0, 0, 0, 0, { { 0, 0 } } } };
long counter;
void *worker(void *arg)
{
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 2) reach_error();
  if (sizeof(long) != 4) reach_error();
  return 0;
}
