// expect: unsupported 2:12
extern int shared_counter;

int main(void)
{
	return shared_counter;
}
