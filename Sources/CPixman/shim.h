#include <pixman.h>
static const pixman_format_code_t CPIXMAN_a8r8g8b8 = PIXMAN_a8r8g8b8;
static const pixman_format_code_t CPIXMAN_a8 = PIXMAN_a8;
