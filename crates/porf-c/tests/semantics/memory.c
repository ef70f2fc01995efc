/* Pointers, arrays, structs, unions and the heap. */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>

struct point {
	int x, y;
};

struct node {
	int value;
	struct node *next;
};

union word {
	unsigned int u;
	int i;
};

struct point origin = {0, 0};
struct point corners[2] = {{1, 2}, {3, 4}};
int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
int flat[2][2] = {1, 2, 3};
int *second = &grid[0][1];
struct point named = {.y = 9};

static void swap(int *a, int *b)
{
	int t = *a;
	*a = *b;
	*b = t;
}

static int sum(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

static struct point *pick(struct point *ps, int i)
{
	return ps + i;
}

int main(void)
{
	int a = 1, b = 2;
	swap(&a, &b);
	assert(a == 2 && b == 1);
	int arr[5] = {1, 2, 3};
	assert(arr[3] == 0 && arr[4] == 0);
	assert(sum(arr, 5) == 6);
	int *p = arr + 1, *q = &arr[4];
	assert(q - p == 3 && *p == 2 && p < q);
	assert(*second == 2 && second[1] == 3);
	assert(grid[1][2] == 6 && flat[1][0] == 3 && flat[1][1] == 0);
	int (*row)[3] = grid;
	assert(row[1][0] == 4 && sizeof(grid) == 24 && sizeof(grid[0]) == 12);
	struct point pt = corners[1];
	pt.x += 10;
	assert(pt.x == 13 && corners[1].x == 3);
	corners[0] = pt;
	assert(corners[0].x == 13 && corners[0].y == 4);
	assert(pick(corners, 1)->y == 4);
	assert(named.x == 0 && named.y == 9 && origin.y == 0);
	struct point *pp = &pt;
	pp->y = 7;
	assert(pt.y == 7);
	union word w;
	w.i = -1;
	assert(w.u == 0xffffffffu);
	assert(offsetof(struct node, next) == 8 && sizeof(struct node) == 16);
	struct node *head = NULL;
	for (int i = 0; i < 3; i++) {
		struct node *n = malloc(sizeof *n);
		n->value = i;
		n->next = head;
		head = n;
	}
	int total = 0, count = 0;
	for (struct node *n = head; n; n = n->next) {
		total += n->value;
		count++;
	}
	assert(total == 3 && count == 3);
	while (head) {
		struct node *next = head->next;
		free(head);
		head = next;
	}
	int *zeros = calloc(4, sizeof(int));
	assert(zeros[0] == 0 && zeros[3] == 0);
	free(zeros);
	long addr = (long)&arr[2];
	int *back = (int *)addr;
	assert(*back == 3);
	void *vp = arr;
	assert((int *)vp == arr);
	return 0;
}
