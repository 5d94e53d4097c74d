// Small C helpers for what Swift cannot import from glibc: the CMSG_* macros, memfd_create with seals and
// the GNU extensions accept4, pipe2 and SO_PEERCRED.
#ifndef CLAMINA_SHIMS_H
#define CLAMINA_SHIMS_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <linux/memfd.h>
// timerfd_create and timerfd_settime, for the offscreen output's frame timer.
#include <sys/timerfd.h>
// epoll, which joins the window output's X connection and frame timer into one event descriptor.
#include <sys/epoll.h>

static inline size_t clamina_cmsg_space(size_t len) { return CMSG_SPACE(len); }
static inline size_t clamina_cmsg_len(size_t len) { return CMSG_LEN(len); }
static inline struct cmsghdr *clamina_cmsg_firsthdr(struct msghdr *m) { return CMSG_FIRSTHDR(m); }
static inline struct cmsghdr *clamina_cmsg_nxthdr(struct msghdr *m, struct cmsghdr *c) { return CMSG_NXTHDR(m, c); }
static inline unsigned char *clamina_cmsg_data(struct cmsghdr *c) { return CMSG_DATA(c); }

/// memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); -1 and errno on failure.
int clamina_memfd_create(const char *name);
/// Seals a memfd against shrinking, growing and writing; -1 and errno on failure.
int clamina_memfd_seal_readonly(int fd);
/// The seals set on fd (F_GET_SEALS); -1 and errno if fd is not a sealable memfd.
int clamina_memfd_get_seals(int fd);
/// 1 when seals include F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE.
int clamina_seals_are_readonly(int seals);

/// Seals a memfd against shrinking and growing (not writing: a shared surface stays writable); -1 and
/// errno on failure.
int clamina_memfd_seal_size(int fd);
/// 1 when seals include F_SEAL_SHRINK (the file can never lose the pages a mapping of it covers).
int clamina_seals_fix_size(int seals);
/// 1 when seals include F_SEAL_WRITE or F_SEAL_FUTURE_WRITE (a writable shared mapping is refused).
int clamina_seals_forbid_writing(int seals);

/// accept4(fd, NULL, NULL, flags) (a GNU extension, hidden from Swift's Glibc); -1 and errno on failure.
int clamina_accept4(int fd, int flags);
/// pipe2(fds, flags) (a GNU extension, hidden from Swift's Glibc); 0, or -1 and errno on failure.
int clamina_pipe2(int fds[2], int flags);

/// malloc_trim(pad) (glibc, declared in <malloc.h>, which Swift's Glibc module leaves out): returns
/// freed heap memory to the system; 1 when some was released, else 0.
int clamina_malloc_trim(size_t pad);
/// getsockopt(fd, SOL_SOCKET, SO_PEERCRED) (struct ucred is GNU-only); 0, or -1 and errno on failure.
int clamina_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);
#endif
