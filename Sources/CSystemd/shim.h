#include <systemd/sd-daemon.h>
