/* A shared library that is not an fprlab plugin. */
int answer(void) { return 42; }
