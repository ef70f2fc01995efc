/* Plain C: declarations with initialisers, compound assignments, ++/--, array
 * indexing, struct members, calls with arguments, returns, conditions. */
struct q {
	int count;
	int items[4];
};
struct q Q;
int g, h, a[4];

int pop(struct q *q)
{
	int v = /*R*/q->items[/*R*/ /*W*/--q->count];
	/*R*/ /*W*/q->items[0]++;
	return v;
}

int add(int x, int y)
{
	return x + /*R*/h;
}

int twice(int x)
{
	/*W*/h = x;
	return /*R*/h + /*R*/h;
}

int main(void)
{
	/*W*/Q.count = 2;
	/*W*/Q.items[1] = 7;
	int x = /*R*/g;
	/*R*/ /*W*/g += 3;
	/*R*/ /*W*/g++;
	/*R*/ /*W*/--g;
	/*W*/a[/*R*/g - 2] = /*R*/g;
	int v = pop(&Q);
	int s = add(/*R*/g, /*R*/a[1]);
	s += twice(/*R*/a[1]);
	if (/*R*/g == 3)
		/*W*/h = 1;
	while (/*R*/h < 3)
		/*R*/ /*W*/h++;
	for (/*W*/g = 0; /*R*/g < 2; /*R*/ /*W*/g++)
		/*W*/a[/*R*/g] = /*R*/h;
	int y = /*R*/Q.count ? /*R*/Q.items[0] : h;
	int w = /*R*/h > 100 ? g : /*R*/h;
	return x + v + s + y + w;
}
