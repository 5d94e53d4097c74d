#define _GNU_SOURCE
#include <malloc.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include "CLaminaShims.h"

int clamina_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int clamina_memfd_seal_readonly(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

int clamina_memfd_get_seals(int fd) { return fcntl(fd, F_GET_SEALS); }

int clamina_seals_are_readonly(int seals) {
    int need = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
    return (seals & need) == need;
}

int clamina_memfd_seal_size(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL); }

int clamina_seals_fix_size(int seals) { return (seals & F_SEAL_SHRINK) == F_SEAL_SHRINK; }

int clamina_seals_forbid_writing(int seals) { return (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) != 0; }

int clamina_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }

int clamina_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

int clamina_malloc_trim(size_t pad) { return malloc_trim(pad); }

int clamina_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}
