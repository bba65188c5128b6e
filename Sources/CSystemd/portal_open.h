// Opening a link through the desktop's portal (org.freedesktop.portal.OpenURI), which hands it to the person's
// browser without the link ever standing in a process's command line. In C because sd-bus builds its messages with
// variadic calls, which Swift cannot make.
#ifndef LINKD_PORTAL_OPEN_H
#define LINKD_PORTAL_OPEN_H

#include <string.h>
#include "libsystemd.h"

/// Asks the session's desktop portal to open `uri` (`OpenURI("", uri, {})` at /org/freedesktop/portal/desktop),
/// waiting up to `timeout_usec` for its answer. Returns 1 when the portal took the link; 0 when there is no session
/// bus or no portal on it (nothing was opened: the caller opens the link another way); -errno when the portal
/// refused or failed. `sd` is the loaded libsystemd.
static inline int linkd_portal_open_uri(const struct linkd_systemd_api *sd, const char *uri, uint64_t timeout_usec) {
    sd_bus *bus = NULL;
    if (sd->bus_open_user(&bus) < 0) return 0;
    sd->bus_set_method_call_timeout(bus, timeout_usec);
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int result = sd->bus_call_method(bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                     "org.freedesktop.portal.OpenURI", "OpenURI", &error, &reply, "ssa{sv}", "",
                                     uri, 0);
    if (result < 0 && error.name != NULL &&
        (strcmp(error.name, "org.freedesktop.DBus.Error.ServiceUnknown") == 0 ||
         strcmp(error.name, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0 ||
         strcmp(error.name, "org.freedesktop.DBus.Error.UnknownMethod") == 0 ||
         strcmp(error.name, "org.freedesktop.DBus.Error.UnknownInterface") == 0))
        result = 0;
    else if (result >= 0)
        result = 1;
    sd->bus_error_free(&error);
    sd->bus_message_unref(reply);
    sd->bus_flush_close_unref(bus);
    return result;
}

#endif
