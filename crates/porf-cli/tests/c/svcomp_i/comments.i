// This file has comments although it is preprocessed (a `.i` file): gcc's compiler
// reads them as white space, and so must porf. SPDX-style header lines, a block
// comment /* with a "quote" */ and a string holding "//" follow.
/* The thread stores 1 to `x`, then to `y`; main reads `y`, then `x`, and calls
   reach_error when it sees y == 1 and x == 0, which SC forbids (message passing).
   The complete executions are the values main's two reads can see under SC:
   (y, x) = (0, 0), (0, 1) and (1, 1): 3. */
extern void reach_error(void);
extern int pthread_create(unsigned long *, const void *, void *(*)(void *), void *);
extern int pthread_join(unsigned long, void **);
int x, y; // shared
const char *s = "// not a comment";
void *t(void *a) { x = 1; y = 1; return 0; } /* end of t */
int main(void)
{
	unsigned long id;
	pthread_create(&id, 0, t, 0);
	int b = y; // read y first
	int a = x;
	if (b == 1 && a == 0)
		reach_error(); /* forbidden under SC */
	pthread_join(id, 0);
	return s[0] == '/' ? 0 : 1;
}
