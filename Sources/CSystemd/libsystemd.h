// libsystemd, loaded at run time. linkd does not link it: libsystemd brings six libraries (libgcrypt, libzstd,
// liblzma, liblz4, libcap, libgpg-error) that every `linkd open` would load and relocate at its start, and a
// successful click never calls it. The daemon loads it when it first reads its sockets, notifies the manager,
// writes to the journal or calls the session bus (see Sources/LinkdSystem/Systemd/Libsystemd.swift for a machine without
// it).
#ifndef LINKD_CSYSTEMD_LIBSYSTEMD_H
#define LINKD_CSYSTEMD_LIBSYSTEMD_H

#include <dlfcn.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/// The libsystemd calls linkd makes, each typed as the header declares it.
struct linkd_systemd_api {
    __typeof__(sd_listen_fds_with_names) *_Nonnull listen_fds_with_names;
    __typeof__(sd_notify) *_Nonnull notify;
    __typeof__(sd_journal_sendv) *_Nonnull journal_sendv;
    __typeof__(sd_bus_open_user) *_Nonnull bus_open_user;
    __typeof__(sd_bus_flush_close_unref) *_Nonnull bus_flush_close_unref;
    __typeof__(sd_bus_set_method_call_timeout) *_Nonnull bus_set_method_call_timeout;
    __typeof__(sd_bus_call) *_Nonnull bus_call;
    __typeof__(sd_bus_call_method) *_Nonnull bus_call_method;
    __typeof__(sd_bus_match_signal) *_Nonnull bus_match_signal;
    __typeof__(sd_bus_process) *_Nonnull bus_process;
    __typeof__(sd_bus_wait) *_Nonnull bus_wait;
    __typeof__(sd_bus_error_free) *_Nonnull bus_error_free;
    __typeof__(sd_bus_message_new_method_call) *_Nonnull bus_message_new_method_call;
    __typeof__(sd_bus_message_unref) *_Nonnull bus_message_unref;
    __typeof__(sd_bus_message_open_container) *_Nonnull bus_message_open_container;
    __typeof__(sd_bus_message_close_container) *_Nonnull bus_message_close_container;
    __typeof__(sd_bus_message_enter_container) *_Nonnull bus_message_enter_container;
    __typeof__(sd_bus_message_append_basic) *_Nonnull bus_message_append_basic;
    __typeof__(sd_bus_message_read_basic) *_Nonnull bus_message_read_basic;
    __typeof__(sd_bus_message_read) *_Nonnull bus_message_read;
    __typeof__(sd_bus_message_is_signal) *_Nonnull bus_message_is_signal;
    __typeof__(sd_bus_message_get_sender) *_Nonnull bus_message_get_sender;
};

/// Loads libsystemd.so.0 and looks up every call of the table. Returns a table that lives as long as the process,
/// or NULL when the library or one of its calls cannot be found (`dlerror()` says why). Call once (Swift: a
/// `static let`).
static inline const struct linkd_systemd_api *_Nullable linkd_systemd_load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return NULL;
    struct linkd_systemd_api *api = malloc(sizeof(*api));
    if (api == NULL) return NULL;
#define LINKD_SYSTEMD_FIND(field, symbol)                                        \
    if ((*(void **)&api->field = dlsym(library, #symbol)) == NULL) {             \
        free(api);                                                               \
        return NULL;                                                             \
    }
    LINKD_SYSTEMD_FIND(listen_fds_with_names, sd_listen_fds_with_names)
    LINKD_SYSTEMD_FIND(notify, sd_notify)
    LINKD_SYSTEMD_FIND(journal_sendv, sd_journal_sendv)
    LINKD_SYSTEMD_FIND(bus_open_user, sd_bus_open_user)
    LINKD_SYSTEMD_FIND(bus_flush_close_unref, sd_bus_flush_close_unref)
    LINKD_SYSTEMD_FIND(bus_set_method_call_timeout, sd_bus_set_method_call_timeout)
    LINKD_SYSTEMD_FIND(bus_call, sd_bus_call)
    LINKD_SYSTEMD_FIND(bus_call_method, sd_bus_call_method)
    LINKD_SYSTEMD_FIND(bus_match_signal, sd_bus_match_signal)
    LINKD_SYSTEMD_FIND(bus_process, sd_bus_process)
    LINKD_SYSTEMD_FIND(bus_wait, sd_bus_wait)
    LINKD_SYSTEMD_FIND(bus_error_free, sd_bus_error_free)
    LINKD_SYSTEMD_FIND(bus_message_new_method_call, sd_bus_message_new_method_call)
    LINKD_SYSTEMD_FIND(bus_message_unref, sd_bus_message_unref)
    LINKD_SYSTEMD_FIND(bus_message_open_container, sd_bus_message_open_container)
    LINKD_SYSTEMD_FIND(bus_message_close_container, sd_bus_message_close_container)
    LINKD_SYSTEMD_FIND(bus_message_enter_container, sd_bus_message_enter_container)
    LINKD_SYSTEMD_FIND(bus_message_append_basic, sd_bus_message_append_basic)
    LINKD_SYSTEMD_FIND(bus_message_read_basic, sd_bus_message_read_basic)
    LINKD_SYSTEMD_FIND(bus_message_read, sd_bus_message_read)
    LINKD_SYSTEMD_FIND(bus_message_is_signal, sd_bus_message_is_signal)
    LINKD_SYSTEMD_FIND(bus_message_get_sender, sd_bus_message_get_sender)
#undef LINKD_SYSTEMD_FIND
    return api;
}

/// Why the last `dlopen` or `dlsym` failed, or NULL.
static inline const char *_Nullable linkd_systemd_load_error(void) { return dlerror(); }

#endif
