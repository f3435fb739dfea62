#define _GNU_SOURCE
#include "CRandomWatch.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#define REWIND_WATCH_SUPPORTED 1
#if defined(__x86_64__)
#define REWIND_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define REWIND_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif
#else
#define REWIND_WATCH_SUPPORTED 0
#endif

struct rewind_random_watch {
  void (*body)(void *context, rewind_random_watch *watch);
  void *context;
  rewind_random_watch_status *status;
  atomic_int counting;
  atomic_uint_fast64_t getrandom_calls;
  atomic_uint_fast64_t device_opens;
  // The listener descriptor, handed from the watched thread to the supervisor.
  int listener;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  // 0 while the watched thread installs the filter, 1 when `listener` is set, 2 when the
  // filter could not be installed (the supervisor then ends at once).
  int listener_state;
  // Whether a supervisor thread runs: the filter is installed only then.
  int supervised;
};

void rewind_random_watch_set_counting(rewind_random_watch *watch, int on) {
  atomic_store(&watch->counting, on);
}

uint64_t rewind_random_watch_getrandom_count(rewind_random_watch *watch) {
  return atomic_load(&watch->getrandom_calls);
}

uint64_t rewind_random_watch_device_count(rewind_random_watch *watch) {
  return atomic_load(&watch->device_opens);
}

static void fail(rewind_random_watch *watch, const char *step, int error) {
  watch->status->installed = 0;
  watch->status->failed_step = step;
  watch->status->error = error;
}

#if REWIND_WATCH_SUPPORTED

static void hand_over(rewind_random_watch *watch, int listener, int state) {
  pthread_mutex_lock(&watch->lock);
  watch->listener = listener;
  watch->listener_state = state;
  pthread_cond_signal(&watch->changed);
  pthread_mutex_unlock(&watch->lock);
}

// Whether the path argument names a random device, read with process_vm_readv so that a bad
// pointer is an error, not a crash of this thread.
static int names_random_device(uint64_t address) {
  char path[16] = {0};
  struct iovec local = {path, sizeof(path) - 1};
  struct iovec remote = {(void *)(uintptr_t)address, sizeof(path) - 1};
  if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) <= 0) {
    // The path may end just before an unmapped page: read it byte by byte.
    size_t index = 0;
    for (; index < sizeof(path) - 1; index++) {
      struct iovec one_local = {path + index, 1};
      struct iovec one_remote = {(void *)(uintptr_t)(address + index), 1};
      if (process_vm_readv(getpid(), &one_local, 1, &one_remote, 1, 0) != 1) break;
      if (path[index] == 0) break;
    }
    path[index] = 0;
  }
  return strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0;
}

static void *supervise(void *argument) {
  rewind_random_watch *watch = argument;
  pthread_setname_np(pthread_self(), "rewind-rndwatch");
  pthread_mutex_lock(&watch->lock);
  while (watch->listener_state == 0) pthread_cond_wait(&watch->changed, &watch->lock);
  int listener = watch->listener_state == 1 ? watch->listener : -1;
  pthread_mutex_unlock(&watch->lock);
  if (listener < 0) return NULL;
  struct seccomp_notif request;
  struct seccomp_notif_resp response;
  for (;;) {
    memset(&request, 0, sizeof(request));
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &request) != 0) {
      if (errno == EINTR) continue;
      // ENOENT: the watched thread has ended, no task uses the filter any more.
      break;
    }
    if (atomic_load(&watch->counting)) {
      if (request.data.nr == SYS_getrandom) {
        atomic_fetch_add(&watch->getrandom_calls, 1);
      } else if (request.data.nr == SYS_openat && names_random_device(request.data.args[1])) {
        atomic_fetch_add(&watch->device_opens, 1);
      }
#ifdef SYS_open
      else if (request.data.nr == SYS_open && names_random_device(request.data.args[0])) {
        atomic_fetch_add(&watch->device_opens, 1);
      }
#endif
    }
    memset(&response, 0, sizeof(response));
    response.id = request.id;
    response.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    // ENOENT here: the call was interrupted meanwhile; nothing to answer.
    (void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &response);
  }
  close(listener);
  return NULL;
}

static int install(rewind_random_watch *watch) {
  struct sock_filter filter[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REWIND_AUDIT_ARCH, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 3, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 2, 0),
#ifdef SYS_open
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 1, 0),
#else
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 1, 0),
#endif
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
  };
  struct sock_fprog program = {sizeof(filter) / sizeof(filter[0]), filter};
  // Asked of this thread only: it lets an unprivileged thread install a filter.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    fail(watch, "no_new_privs", errno);
    return -1;
  }
  long listener = syscall(
    SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &program);
  if (listener < 0) {
    fail(watch, "seccomp", errno);
    return -1;
  }
  return (int)listener;
}

#endif

static void *watched(void *argument) {
  rewind_random_watch *watch = argument;
  pthread_setname_np(pthread_self(), "rewind-replay");
#if REWIND_WATCH_SUPPORTED
  if (watch->supervised) {
    int listener = install(watch);
    if (listener >= 0) {
      watch->status->installed = 1;
      watch->status->failed_step = NULL;
      hand_over(watch, listener, 1);
    } else {
      hand_over(watch, -1, 2);
    }
  }
#endif
  watch->body(watch->context, watch);
  return NULL;
}

int rewind_random_watch_run(
  void (*body)(void *context, rewind_random_watch *watch), void *context, size_t stack_bytes,
  rewind_random_watch_status *status) {
  rewind_random_watch watch;
  memset(&watch, 0, sizeof(watch));
  watch.body = body;
  watch.context = context;
  watch.status = status;
  watch.listener = -1;
  status->installed = 0;
  status->error = 0;
  status->failed_step = "unsupported";
  pthread_mutex_init(&watch.lock, NULL);
  pthread_cond_init(&watch.changed, NULL);
#if REWIND_WATCH_SUPPORTED
  pthread_t supervisor;
  int supervisor_error = pthread_create(&supervisor, NULL, supervise, &watch);
  // Without a thread to answer them, the filtered calls would wait for ever: no filter then.
  watch.supervised = supervisor_error == 0;
  if (!watch.supervised) fail(&watch, "supervisor", supervisor_error);
#else
  fail(&watch, "unsupported", ENOSYS);
#endif
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  if (stack_bytes > 0) pthread_attr_setstacksize(&attributes, stack_bytes);
  pthread_t thread;
  int result = pthread_create(&thread, &attributes, watched, &watch);
  pthread_attr_destroy(&attributes);
  if (result == 0) {
    pthread_join(thread, NULL);
  } else {
    fail(&watch, "thread", result);
  }
#if REWIND_WATCH_SUPPORTED
  if (watch.supervised) {
    // Whatever happened on the watched side, release the supervisor: it ends when the
    // filter's last user is gone, or at once when no filter was installed.
    pthread_mutex_lock(&watch.lock);
    if (watch.listener_state == 0) {
      watch.listener_state = 2;
      pthread_cond_signal(&watch.changed);
    }
    pthread_mutex_unlock(&watch.lock);
    pthread_join(supervisor, NULL);
  }
#endif
  pthread_cond_destroy(&watch.changed);
  pthread_mutex_destroy(&watch.lock);
  return result;
}
