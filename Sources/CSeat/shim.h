// libseat: a seat's devices (DRM master) from a seat daemon (seatd, logind).
#include <libseat.h>
