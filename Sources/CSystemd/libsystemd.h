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
    __typeof__(sd_bus_new) *_Nonnull bus_new;
    __typeof__(sd_bus_set_address) *_Nonnull bus_set_address;
    __typeof__(sd_bus_set_bus_client) *_Nonnull bus_set_bus_client;
    __typeof__(sd_bus_start) *_Nonnull bus_start;
    __typeof__(sd_bus_unref) *_Nonnull bus_unref;
    __typeof__(sd_bus_request_name) *_Nonnull bus_request_name;
    __typeof__(sd_bus_release_name) *_Nonnull bus_release_name;
    __typeof__(sd_bus_add_object) *_Nonnull bus_add_object;
    __typeof__(sd_bus_add_match) *_Nonnull bus_add_match;
    __typeof__(sd_bus_slot_unref) *_Nonnull bus_slot_unref;
    __typeof__(sd_bus_get_fd) *_Nonnull bus_get_fd;
    __typeof__(sd_bus_get_events) *_Nonnull bus_get_events;
    __typeof__(sd_bus_get_timeout) *_Nonnull bus_get_timeout;
    __typeof__(sd_bus_get_unique_name) *_Nonnull bus_get_unique_name;
    __typeof__(sd_bus_flush) *_Nonnull bus_flush;
    __typeof__(sd_bus_send) *_Nonnull bus_send;
    __typeof__(sd_bus_call_async) *_Nonnull bus_call_async;
    __typeof__(sd_bus_error_set) *_Nonnull bus_error_set;
    __typeof__(sd_bus_message_ref) *_Nonnull bus_message_ref;
    __typeof__(sd_bus_message_new_method_return) *_Nonnull bus_message_new_method_return;
    __typeof__(sd_bus_message_new_method_error) *_Nonnull bus_message_new_method_error;
    __typeof__(sd_bus_message_new_signal) *_Nonnull bus_message_new_signal;
    __typeof__(sd_bus_message_set_destination) *_Nonnull bus_message_set_destination;
    __typeof__(sd_bus_message_get_member) *_Nonnull bus_message_get_member;
    __typeof__(sd_bus_message_get_path) *_Nonnull bus_message_get_path;
    __typeof__(sd_bus_message_get_interface) *_Nonnull bus_message_get_interface;
    __typeof__(sd_bus_message_get_error) *_Nonnull bus_message_get_error;
    __typeof__(sd_bus_message_is_method_error) *_Nonnull bus_message_is_method_error;
    __typeof__(sd_bus_message_peek_type) *_Nonnull bus_message_peek_type;
    __typeof__(sd_bus_message_exit_container) *_Nonnull bus_message_exit_container;
    __typeof__(sd_bus_query_sender_creds) *_Nonnull bus_query_sender_creds;
    __typeof__(sd_bus_creds_get_pid) *_Nonnull bus_creds_get_pid;
    __typeof__(sd_bus_creds_get_euid) *_Nonnull bus_creds_get_euid;
    __typeof__(sd_bus_creds_unref) *_Nonnull bus_creds_unref;
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
    LINKD_SYSTEMD_FIND(bus_new, sd_bus_new)
    LINKD_SYSTEMD_FIND(bus_set_address, sd_bus_set_address)
    LINKD_SYSTEMD_FIND(bus_set_bus_client, sd_bus_set_bus_client)
    LINKD_SYSTEMD_FIND(bus_start, sd_bus_start)
    LINKD_SYSTEMD_FIND(bus_unref, sd_bus_unref)
    LINKD_SYSTEMD_FIND(bus_request_name, sd_bus_request_name)
    LINKD_SYSTEMD_FIND(bus_release_name, sd_bus_release_name)
    LINKD_SYSTEMD_FIND(bus_add_object, sd_bus_add_object)
    LINKD_SYSTEMD_FIND(bus_add_match, sd_bus_add_match)
    LINKD_SYSTEMD_FIND(bus_slot_unref, sd_bus_slot_unref)
    LINKD_SYSTEMD_FIND(bus_get_fd, sd_bus_get_fd)
    LINKD_SYSTEMD_FIND(bus_get_events, sd_bus_get_events)
    LINKD_SYSTEMD_FIND(bus_get_timeout, sd_bus_get_timeout)
    LINKD_SYSTEMD_FIND(bus_get_unique_name, sd_bus_get_unique_name)
    LINKD_SYSTEMD_FIND(bus_flush, sd_bus_flush)
    LINKD_SYSTEMD_FIND(bus_send, sd_bus_send)
    LINKD_SYSTEMD_FIND(bus_call_async, sd_bus_call_async)
    LINKD_SYSTEMD_FIND(bus_error_set, sd_bus_error_set)
    LINKD_SYSTEMD_FIND(bus_message_ref, sd_bus_message_ref)
    LINKD_SYSTEMD_FIND(bus_message_new_method_return, sd_bus_message_new_method_return)
    LINKD_SYSTEMD_FIND(bus_message_new_method_error, sd_bus_message_new_method_error)
    LINKD_SYSTEMD_FIND(bus_message_new_signal, sd_bus_message_new_signal)
    LINKD_SYSTEMD_FIND(bus_message_set_destination, sd_bus_message_set_destination)
    LINKD_SYSTEMD_FIND(bus_message_get_member, sd_bus_message_get_member)
    LINKD_SYSTEMD_FIND(bus_message_get_path, sd_bus_message_get_path)
    LINKD_SYSTEMD_FIND(bus_message_get_interface, sd_bus_message_get_interface)
    LINKD_SYSTEMD_FIND(bus_message_get_error, sd_bus_message_get_error)
    LINKD_SYSTEMD_FIND(bus_message_is_method_error, sd_bus_message_is_method_error)
    LINKD_SYSTEMD_FIND(bus_message_peek_type, sd_bus_message_peek_type)
    LINKD_SYSTEMD_FIND(bus_message_exit_container, sd_bus_message_exit_container)
    LINKD_SYSTEMD_FIND(bus_query_sender_creds, sd_bus_query_sender_creds)
    LINKD_SYSTEMD_FIND(bus_creds_get_pid, sd_bus_creds_get_pid)
    LINKD_SYSTEMD_FIND(bus_creds_get_euid, sd_bus_creds_get_euid)
    LINKD_SYSTEMD_FIND(bus_creds_unref, sd_bus_creds_unref)
#undef LINKD_SYSTEMD_FIND
    return api;
}

/// Why the last `dlopen` or `dlsym` failed, or NULL.
static inline const char *_Nullable linkd_systemd_load_error(void) { return dlerror(); }

#endif
