/* Control flow and operators: switch, do-while, logical operators, the comma
 * operator, pointers to structs, casts, struct copies, returns of globals; a local
 * struct initialised by a copy (porf keeps it in main's shared frame, allocated when
 * main starts). */
struct pt {
	int x, y;
};
struct pt P = { 1, 2 }, Q;
struct pt *pp = &P;
int g, h;

int get(void)
{
	return /*R*/g;
}

int /*M*/main(void)
{
	switch (/*R*/g) {
	case 0:
		/*W*/h = 1;
		break;
	default:
		h = 2;
	}
	do
		/*R*/ /*W*/h++;
	while (/*R*/h < 3);
	if (/*R*/g == 0 && /*R*/h == 3)
		/*W*/g = 1;
	if (/*R*/g == 0 || /*R*/h == 0)
		g = 5;
	int n = !/*R*/g;
	int k = (/*W*/g = 2, /*R*/h);
	int c = (char)/*R*/h;
	/*W*/ /*R*/pp->y = /*R*/ /*R*/pp->x + get();
	/*W*/ /*W*/Q = /*R*/ /*R*/P;
	struct pt /*W*/ /*W*/l = /*R*/ /*R*/Q; /* a local in a shared frame */
	return n + k + c + /*R*/Q.y + /*R*/l.x;
}
