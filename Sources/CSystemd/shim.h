// libsystemd's service-manager protocol: sd_notify, sd_listen_fds, sd_is_socket_unix, sd_watchdog_enabled.
#include <systemd/sd-daemon.h>
/// The first descriptor a socket-activated service inherits (SD_LISTEN_FDS_START, 3).
static const int CSYSTEMD_LISTEN_FDS_START = SD_LISTEN_FDS_START;
