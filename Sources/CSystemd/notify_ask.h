// A desktop notification that asks (org.freedesktop.Notifications with actions): shown, then answered by the
// ActionInvoked or NotificationClosed signal of its id, on one bus connection. In C because sd-bus reads and builds
// its messages with variadic calls, which Swift cannot make.
#ifndef LINKD_NOTIFY_ASK_H
#define LINKD_NOTIFY_ASK_H

#include <stdint.h>
#include <string.h>
#include <time.h>
#include "libsystemd.h"

#define LINKD_NOTIFICATIONS "org.freedesktop.Notifications"
#define LINKD_NOTIFICATIONS_PATH "/org/freedesktop/Notifications"

struct linkd_ask_state {
    const struct linkd_systemd_api *sd;
    /// The unique bus name of the notification server that showed the notification: only its signals count.
    const char *owner;
    uint32_t id;
    const char *accept_key;
    int done;
    int accepted;
};

static inline int linkd_ask_signal(sd_bus_message *message, void *userdata, sd_bus_error *error) {
    (void)error;
    struct linkd_ask_state *state = userdata;
    const struct linkd_systemd_api *sd = state->sd;
    // A signal of anyone else on the bus (another connection can emit ActionInvoked too) is not the person's answer.
    const char *sender = sd->bus_message_get_sender(message);
    if (sender == NULL || state->owner == NULL || strcmp(sender, state->owner) != 0) return 0;
    uint32_t id = 0;
    if (sd->bus_message_is_signal(message, LINKD_NOTIFICATIONS, "ActionInvoked") > 0) {
        const char *key = NULL;
        if (sd->bus_message_read(message, "us", &id, &key) >= 0 && id == state->id && key != NULL) {
            state->done = 1;
            state->accepted = strcmp(key, state->accept_key) == 0;
        }
    } else if (sd->bus_message_is_signal(message, LINKD_NOTIFICATIONS, "NotificationClosed") > 0) {
        uint32_t reason = 0;
        if (sd->bus_message_read(message, "uu", &id, &reason) >= 0 && id == state->id) state->done = 1;
    }
    return 0;
}

/// The unique name of the connection that owns `org.freedesktop.Notifications` (`GetNameOwner`), copied into `owner`
/// (`size` bytes); a server that is not running yet is started first (a call of its `GetCapabilities` activates it).
/// Returns 0 or -errno.
static inline int linkd_notifications_owner(const struct linkd_systemd_api *sd, sd_bus *bus, char *owner,
                                            size_t size) {
    int result = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        sd_bus_message *reply = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        result = sd->bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "GetNameOwner", &error, &reply, "s", LINKD_NOTIFICATIONS);
        const char *name = NULL;
        if (result >= 0) result = sd->bus_message_read(reply, "s", &name);
        if (result >= 0 && (name == NULL || strlen(name) >= size)) result = -ENAMETOOLONG;
        if (result >= 0) strcpy(owner, name);
        sd->bus_error_free(&error);
        sd->bus_message_unref(reply);
        if (result >= 0 || attempt > 0) break;
        sd_bus_message *started = NULL;
        sd->bus_call_method(bus, LINKD_NOTIFICATIONS, LINKD_NOTIFICATIONS_PATH, LINKD_NOTIFICATIONS, "GetCapabilities",
                            NULL, &started, "");
        sd->bus_message_unref(started);
    }
    return result;
}

static inline uint64_t linkd_monotonic_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
}

/// Whether the session's notification server shows actions (`GetCapabilities` names "actions"): 1 or 0, or -errno
/// when there is no session bus or no server answered within `timeout_usec`. `sd` is the loaded libsystemd.
static inline int linkd_notifications_have_actions(const struct linkd_systemd_api *sd, uint64_t timeout_usec) {
    sd_bus *bus = NULL;
    int result = sd->bus_open_user(&bus);
    if (result < 0) return result;
    sd->bus_set_method_call_timeout(bus, timeout_usec);
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    result = sd->bus_call_method(bus, LINKD_NOTIFICATIONS, LINKD_NOTIFICATIONS_PATH, LINKD_NOTIFICATIONS,
                                "GetCapabilities", &error, &reply, "");
    int found = 0;
    if (result >= 0) result = sd->bus_message_enter_container(reply, 'a', "s");
    while (result > 0) {
        const char *capability = NULL;
        result = sd->bus_message_read_basic(reply, 's', &capability);
        if (result > 0 && capability != NULL && strcmp(capability, "actions") == 0) found = 1;
    }
    sd->bus_error_free(&error);
    sd->bus_message_unref(reply);
    sd->bus_flush_close_unref(bus);
    return result < 0 ? result : found;
}

/// Shows `summary` and `body` (markup escaped by the caller) with two buttons, `accept_label` and `decline_label`,
/// and waits up to `timeout_usec` for the person. `accept_key` is the action key of the accept button: a fresh random
/// one for each notification, so that no one can name it ahead. The notification is sent to the server's unique name,
/// its reply must come from that name, and only that name's signals are listened to: a second bus connection that
/// emits `ActionInvoked` answers nothing. Returns 1 when they pressed `accept_label`; 0 when they pressed the other,
/// dismissed it, or time ran out (the notification is closed then); -errno when it could not be shown. `sd` is the
/// loaded libsystemd.
static inline int linkd_notification_ask(const struct linkd_systemd_api *sd, const char *summary, const char *body,
                                         const char *accept_key, const char *accept_label, const char *decline_label,
                                         uint64_t timeout_usec) {
    sd_bus *bus = NULL;
    int result = sd->bus_open_user(&bus);
    if (result < 0) return result;
    char owner[256];
    result = linkd_notifications_owner(sd, bus, owner, sizeof(owner));
    if (result < 0) {
        sd->bus_flush_close_unref(bus);
        return result;
    }
    struct linkd_ask_state state = {
        .sd = sd, .owner = owner, .id = 0, .accept_key = accept_key, .done = 0, .accepted = 0};
    // The match first, so that no answer can come before linkd listens for it; the signals of other notifications are
    // told apart by id once the reply gives it (sd_bus_call queues them meanwhile, it does not dispatch them).
    result = sd->bus_match_signal(bus, NULL, owner, LINKD_NOTIFICATIONS_PATH, LINKD_NOTIFICATIONS, NULL,
                                 linkd_ask_signal, &state);
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    if (result >= 0)
        result = sd->bus_call_method(bus, owner, LINKD_NOTIFICATIONS_PATH, LINKD_NOTIFICATIONS, "Notify", &error,
                                    &reply, "susssasa{sv}i", "linkd", (uint32_t)0, "dialog-question", summary, body, 4,
                                    accept_key, accept_label, "decline", decline_label, 1, "urgency", "y", (uint8_t)2,
                                    (int32_t)0);
    if (result >= 0) {
        const char *sender = sd->bus_message_get_sender(reply);
        if (sender == NULL || strcmp(sender, owner) != 0) result = -EPROTO;
    }
    if (result >= 0) result = sd->bus_message_read(reply, "u", &state.id);
    sd->bus_error_free(&error);
    sd->bus_message_unref(reply);
    if (result < 0) {
        sd->bus_flush_close_unref(bus);
        return result;
    }
    uint64_t deadline = linkd_monotonic_usec() + timeout_usec;
    while (!state.done) {
        result = sd->bus_process(bus, NULL);
        if (result < 0) break;
        if (result > 0) continue;
        uint64_t now = linkd_monotonic_usec();
        if (now >= deadline) break;
        result = sd->bus_wait(bus, deadline - now);
        if (result < 0 && result != -EINTR) break;
    }
    if (!state.done)
        sd->bus_call_method(bus, owner, LINKD_NOTIFICATIONS_PATH, LINKD_NOTIFICATIONS, "CloseNotification", NULL,
                            NULL, "u", state.id);
    sd->bus_flush_close_unref(bus);
    return state.accepted;
}

#endif
