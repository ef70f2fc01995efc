/* Heap memory in witnesses is named by the type the allocation's pointer is
 * converted to: node#T.B.field for block B of thread T, [i] for array elements. The
 * assertion fails in every execution (main checks its own store). */
#include <assert.h>
#include <stdlib.h>

struct node {
	int val;
	struct node *next;
};

struct node *head;

int main(void)
{
	struct node *a = malloc(sizeof *a);
	struct node *b = (struct node *)malloc(sizeof(struct node));
	int *arr = calloc(4, sizeof(int));
	a->val = 1;
	a->next = NULL;
	b->val = 2;
	b->next = a;
	arr[2] = 7;
	head = b;
	assert(head->next->val + arr[2] == 0);
	return 0;
}
