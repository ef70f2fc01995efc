// A run of bit-fields whose smallest aligned storage unit would cover another member
// (here `wide`, bytes 2 to 6, needs the 8 bytes at 0, where `tag` is) is refused
// where an execution reaches the struct's declaration, rather than modelled with a
// unit that would make `tag`'s accesses overlap it.
// expect: rejected "would overlap another member"
int main(void)
{
	struct flags {
		unsigned ready : 1;
		char tag;
		unsigned long wide : 40;
	} f;
	f.ready = 1;
	return f.ready;
}
