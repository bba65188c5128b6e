// The C side of LinkdSystem: libsystemd's headers and its table of calls (loaded at run time), and the few things
// Swift cannot express safely (struct ucred is _GNU_SOURCE-only, prctl is variadic, and the code between fork and
// exec must be async-signal-safe C).
#ifndef LINKD_CSYSTEMD_SHIM_H
#define LINKD_CSYSTEMD_SHIM_H

// No _GNU_SOURCE here: the system headers must read as they do for Swift's Glibc module.
#define SD_JOURNAL_SUPPRESS_LOCATION 1

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include "libsystemd.h"
#include "notify_ask.h"
#include "portal_open.h"

/// The layout of struct ucred, which <sys/socket.h> declares only under _GNU_SOURCE.
struct linkd_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

extern char **environ;

/// The credentials of the peer of a connected AF_UNIX socket (SO_PEERCRED). Returns 0 or -errno.
static inline int linkd_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct linkd_ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) < 0) return -errno;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

/// Keeps this process's memory out of core dumps and away from other processes of the same user: no core file
/// (RLIMIT_CORE's soft limit 0; the hard limit stays, so a program started later may raise it again) and not
/// dumpable (PR_SET_DUMPABLE 0: no core dump even when a limit allows one, no ptrace attach and no
/// /proc/<pid>/mem or environ for a process without CAP_SYS_PTRACE). Returns 0 or -errno.
static inline int linkd_forbid_core_dumps(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_CORE, &limit) < 0) return -errno;
    limit.rlim_cur = 0;
    if (setrlimit(RLIMIT_CORE, &limit) < 0) return -errno;
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) return -errno;
    return 0;
}

/// ThreadSanitizer's annotations, weak: present only when its runtime is linked (scripts/sanitize), null otherwise.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

/// Tells ThreadSanitizer, when it runs, that the lock at `address` was taken (what the last release did is seen).
static inline void linkd_sanitizer_acquire(void *address) {
    if (__tsan_acquire) __tsan_acquire(address);
}

/// Tells ThreadSanitizer, when it runs, that the lock at `address` is about to be given up.
static inline void linkd_sanitizer_release(void *address) {
    if (__tsan_release) __tsan_release(address);
}

/// The number of bytes waiting to be read on fd (FIONREAD). Returns the count or -errno.
static inline int linkd_readable_bytes(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) < 0) return -errno;
    return count;
}

/// The number of bytes written to the stream socket fd that its peer has not read yet (SIOCOUTQ; for AF_UNIX the
/// memory of the queued messages, so more than their bytes). Returns the count or -errno.
static inline int linkd_unread_by_peer(int fd) {
    int count = 0;
    if (ioctl(fd, SIOCOUTQ, &count) < 0) return -errno;
    return count;
}

/// linkd_spawn flags.
enum {
    /// The child gets SIGKILL when its parent dies (PR_SET_PDEATHSIG).
    LINKD_SPAWN_DIES_WITH_PARENT = 1,
    /// The child starts a new session (setsid), leaving the parent's terminal and process group.
    LINKD_SPAWN_NEW_SESSION = 2,
};

/// linkd_spawn's way for what posix_spawn cannot do or did not start: fork, set up, exec.
static inline pid_t linkd_fork_spawn(char *const argv[], char *const envp[], const char *directory, int in_fd,
                                     int out_fd, int err_fd, int flags) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid > 0) return pid;
    // Child: only async-signal-safe calls from here to exec.
    if (flags & LINKD_SPAWN_DIES_WITH_PARENT) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) _exit(126);
        if (getppid() != parent) _exit(126);  // the parent died before prctl took effect
    }
    if ((flags & LINKD_SPAWN_NEW_SESSION) && setsid() < 0) _exit(126);
    int null_fd = -1;
    if (in_fd < 0 || out_fd < 0 || err_fd < 0) {
        null_fd = open("/dev/null", O_RDWR);
        if (null_fd < 0) _exit(126);
    }
    // Moved above 2 first, so that one dup2 cannot overwrite a source another still needs.
    int sources[3] = {in_fd < 0 ? null_fd : in_fd, out_fd < 0 ? null_fd : out_fd, err_fd < 0 ? null_fd : err_fd};
    for (int index = 0; index < 3; index++) {
        if (sources[index] <= 2) {
            int moved = fcntl(sources[index], F_DUPFD, 3);
            if (moved < 0) _exit(126);
            for (int other = index + 1; other < 3; other++)
                if (sources[other] == sources[index]) sources[other] = moved;
            sources[index] = moved;
        }
    }
    for (int index = 0; index < 3; index++)
        if (dup2(sources[index], index) < 0) _exit(126);
    if (syscall(SYS_close_range, 3U, ~0U, 0U) < 0)
        for (int fd = 3; fd < 65536; fd++) close(fd);
    struct sigaction default_action;
    memset(&default_action, 0, sizeof(default_action));
    default_action.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) sigaction(number, &default_action, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (directory != NULL && chdir(directory) < 0) _exit(126);
    environ = (char **)envp;
    execvp(argv[0], argv);
    _exit(127);
}

// glibc's GNU additions to posix_spawn (2.26, 2.29, 2.34), declared here since this header reads the system headers
// without _GNU_SOURCE.
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// The program execvp would run for `name` on the PATH of envp (its default when envp has none), written to
/// `found` (size bytes): 0, or -1 when no absolute PATH entry holds an executable file of that name.
static inline int linkd_search_path(const char *name, char *const envp[], char *found, size_t size) {
    const char *path = "/bin:/usr/bin";
    for (char *const *entry = envp; *entry != NULL; entry++)
        if (strncmp(*entry, "PATH=", 5) == 0) path = *entry + 5;
    size_t name_length = strlen(name);
    while (*path != '\0') {
        const char *end = strchr(path, ':');
        size_t length = end != NULL ? (size_t)(end - path) : strlen(path);
        if (length > 0 && path[0] == '/' && length + 1 + name_length < size) {
            memcpy(found, path, length);
            found[length] = '/';
            memcpy(found + length + 1, name, name_length + 1);
            struct stat status;
            if (stat(found, &status) == 0 && S_ISREG(status.st_mode) && access(found, X_OK) == 0) return 0;
        }
        if (end == NULL) break;
        path = end + 1;
    }
    return -1;
}

/// Starts argv[0] (searched on the PATH of envp when it has no '/') with envp, in `directory` when it is not NULL,
/// with standard input, output and error from in_fd, out_fd and err_fd (-1: /dev/null). Every other descriptor is
/// closed, no signal is blocked and every signal has its default action. Returns the pid, or -errno when it cannot
/// start a process. An exec failure makes the child exit with status 127; a failed set-up step, with 126.
///
/// posix_spawn (glibc's clone with CLONE_VM and CLONE_VFORK) starts it without copying this process's page tables,
/// which a fork does and every later write of this process then pays for, page by page: in a large process (a test
/// runner under AddressSanitizer) thousands of forks stall every thread. What it cannot do (the parent-death
/// signal), and a start it refuses (a program it cannot execute, which the fork's child then reports as 127, or a
/// script without `#!`, which execvp runs with /bin/sh), goes the fork's way.
static inline pid_t linkd_spawn(char *const argv[], char *const envp[], const char *directory, int in_fd,
                                int out_fd, int err_fd, int flags) {
    if (flags & LINKD_SPAWN_DIES_WITH_PARENT)
        return linkd_fork_spawn(argv, envp, directory, in_fd, out_fd, err_fd, flags);
    char program[4096];
    if (strchr(argv[0], '/') == NULL) {
        if (linkd_search_path(argv[0], envp, program, sizeof(program)) < 0)
            return linkd_fork_spawn(argv, envp, directory, in_fd, out_fd, err_fd, flags);
    } else if (strlen(argv[0]) < sizeof(program)) {
        strcpy(program, argv[0]);
    } else {
        return linkd_fork_spawn(argv, envp, directory, in_fd, out_fd, err_fd, flags);
    }
    // The sources, above 2 and close-on-exec here: a dup2 onto 0, 1 or 2 then never overwrites a source another
    // still needs, and clears close-on-exec on its copy.
    int sources[3] = {in_fd, out_fd, err_fd};
    int opened[4] = {-1, -1, -1, -1};
    int result = 0;
    for (int index = 0; index < 3 && result == 0; index++) {
        if (sources[index] < 0) {
            if (opened[3] < 0) opened[3] = open("/dev/null", O_RDWR | O_CLOEXEC);
            sources[index] = opened[3];
        }
        if (sources[index] >= 0 && sources[index] <= 2) {
            opened[index] = fcntl(sources[index], F_DUPFD_CLOEXEC, 3);
            sources[index] = opened[index];
        }
        if (sources[index] < 0) result = -errno;
    }
    pid_t pid = -1;
    if (result == 0) {
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
        for (int index = 0; index < 3; index++) posix_spawn_file_actions_adddup2(&actions, sources[index], index);
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);
        if (directory != NULL) posix_spawn_file_actions_addchdir_np(&actions, directory);
        sigset_t all, none;
        sigfillset(&all);
        sigemptyset(&none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setsigmask(&attributes, &none);
        short spawn_flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
        if (flags & LINKD_SPAWN_NEW_SESSION) spawn_flags |= POSIX_SPAWN_SETSID;
        posix_spawnattr_setflags(&attributes, spawn_flags);
        int refused = posix_spawn(&pid, program, &actions, &attributes, argv, envp);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (refused != 0) pid = linkd_fork_spawn(argv, envp, directory, in_fd, out_fd, err_fd, flags);
    }
    for (int index = 0; index < 4; index++)
        if (opened[index] >= 0) close(opened[index]);
    return result == 0 ? pid : result;
}

/// Replaces this process with argv[0] (looked for in envp's PATH when it has no '/'), as a launcher starts a program:
/// in a session of its own (unless this process leads its group already), standard streams on /dev/null, signals at
/// their defaults and none blocked (linkd's own descriptors are close-on-exec from the call that makes them). Returns
/// only when it cannot: -errno; a program that is not there or cannot be run changes nothing first.
static inline int linkd_exec_detached(char *const argv[], char *const envp[]) {
    char program[4096];
    if (strchr(argv[0], '/') == NULL) {
        if (linkd_search_path(argv[0], envp, program, sizeof(program)) < 0) return -ENOENT;
    } else if (strlen(argv[0]) < sizeof(program)) {
        strcpy(program, argv[0]);
    } else {
        return -ENAMETOOLONG;
    }
    if (access(program, X_OK) < 0) return -errno;  // before anything changes
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd < 0) return -errno;
    int saved[3];
    for (int index = 0; index < 3; index++) saved[index] = fcntl(index, F_DUPFD_CLOEXEC, 3);
    sigset_t none, previous;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, &previous);
    (void)setsid();  // refused only to a process group leader, which stays in its session
    for (int index = 0; index < 3; index++) dup2(null_fd, index);
    // exec resets caught signals; an ignored one (SIGPIPE) would stay ignored in the program, so it is reset here.
    struct sigaction default_action, kept[NSIG];
    memset(&default_action, 0, sizeof(default_action));
    memset(kept, 0, sizeof(kept));  // a signal sigaction refuses (SIGKILL, SIGSTOP) keeps a zeroed entry
    default_action.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) sigaction(number, &default_action, &kept[number]);
    execve(program, argv, envp);
    int failure = errno;
    for (int number = 1; number < NSIG; number++) sigaction(number, &kept[number], NULL);
    for (int index = 0; index < 3; index++)
        if (saved[index] >= 0) {
            dup2(saved[index], index);
            close(saved[index]);
        }
    close(null_fd);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return -failure;
}

/// A descriptor that becomes readable when process `pid` exits (pidfd_open(2)). Returns it, or -errno.
static inline int linkd_pidfd_open(pid_t pid) {
    long fd = syscall(SYS_pidfd_open, pid, 0U);
    return fd < 0 ? -errno : (int)fd;
}

/// Sets the capacity of the pipe behind fd (F_SETPIPE_SZ). Returns the new capacity, or -errno.
static inline int linkd_set_pipe_capacity(int fd, int bytes) {
    int result = fcntl(fd, 1031 /* F_SETPIPE_SZ */, bytes);
    return result < 0 ? -errno : result;
}

/// glibc declares pipe2 under _GNU_SOURCE only, which this header does not set.
extern int pipe2(int fds[2], int flags);

/// Creates a pipe whose both ends are close-on-exec (pipe2 with O_CLOEXEC). Returns 0 or -errno.
static inline int linkd_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC) < 0 ? -errno : 0;
}

extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// Accepts a connection whose descriptor is close-on-exec from its first instant (accept4), so that a program started
/// on another thread meanwhile never inherits it; non-blocking too when asked. Returns the descriptor, or -1 with
/// errno set.
static inline int linkd_accept(int fd, int nonblocking) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0));
}

/// Registers (or re-arms) fd in an epoll set for one readiness event (EPOLLONESHOT). Returns 0 or -errno.
static inline int linkd_epoll_arm(int epoll_fd, int fd, int writable, int add) {
    struct epoll_event event;
    event.events = (writable ? EPOLLOUT : EPOLLIN) | EPOLLONESHOT | EPOLLRDHUP;
    event.data.fd = fd;
    if (epoll_ctl(epoll_fd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event) < 0) return -errno;
    return 0;
}

/// Removes fd from an epoll set. Returns 0 or -errno.
static inline int linkd_epoll_remove(int epoll_fd, int fd) {
    return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL) < 0 ? -errno : 0;
}

/// Waits for up to `capacity` ready descriptors, writing them to `fds`. Returns the count or -errno.
static inline int linkd_epoll_wait(int epoll_fd, int *fds, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll_fd, events, capacity, timeout_ms);
    if (count < 0) return -errno;
    for (int index = 0; index < count; index++) fds[index] = events[index].data.fd;
    return count;
}

static inline int linkd_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static inline int linkd_eventfd_create(void) {
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd < 0 ? -errno : fd;
}

/// An inotify instance, non-blocking and close-on-exec (inotify_init1(2)). Returns it, or -errno.
static inline int linkd_inotify_create(void) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

/// Watches `path`, a folder, for files created, written, moved or removed in it, and for its own removal or move.
/// Returns the watch descriptor, or -errno.
static inline int linkd_inotify_watch_folder(int fd, const char *path) {
    int watch = inotify_add_watch(fd, path, IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO |
                                                IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
    return watch < 0 ? -errno : watch;
}

#endif
