// NAT-PMP (RFC 6886) through libnatpmp (libnatpmp-dev): one request and its answer, to the gateway given (never
// the one libnatpmp would guess), within a deadline. The library retries as the RFC says (250 ms, doubling).
#ifndef TICTACTOE_CNATPMP_SHIM_H
#define TICTACTOE_CNATPMP_SHIM_H
#include <poll.h>
#include <string.h>
#include <sys/time.h>
#define ENABLE_STRNATPMPERR 1
#include <natpmp.h>

/// The answer: `result` is 0, or a libnatpmp error (negative; strnatpmperr names it).
typedef struct {
  int result;
  uint32_t epoch;
  uint16_t private_port;
  uint16_t public_port;
  uint32_t lifetime;
  uint32_t public_address;  // network order, for a public address request
} tictactoe_natpmp_answer;

static inline long tictactoe_natpmp_ms(void) {
  struct timeval now;
  gettimeofday(&now, NULL);
  return now.tv_sec * 1000L + now.tv_usec / 1000;
}

/// Asks `gateway` (network order) to map TCP `private_port` to `public_port` for `lifetime` seconds (0 removes
/// it), or, with `address_only`, for its public address; waits at most `timeout_ms`.
static inline tictactoe_natpmp_answer tictactoe_natpmp_request(
    in_addr_t gateway, int address_only, uint16_t private_port, uint16_t public_port, uint32_t lifetime,
    int timeout_ms) {
  tictactoe_natpmp_answer answer;
  memset(&answer, 0, sizeof answer);
  natpmp_t natpmp;
  int status = initnatpmp(&natpmp, 1, gateway);
  if (status < 0) { answer.result = status; return answer; }
  status = address_only ? sendpublicaddressrequest(&natpmp)
                        : sendnewportmappingrequest(&natpmp, NATPMP_PROTOCOL_TCP, private_port, public_port, lifetime);
  if (status < 0) { answer.result = status; closenatpmp(&natpmp); return answer; }
  long deadline = tictactoe_natpmp_ms() + timeout_ms;
  natpmpresp_t response;
  for (;;) {
    status = readnatpmpresponseorretry(&natpmp, &response);
    if (status != NATPMP_TRYAGAIN) break;
    struct timeval wait;
    getnatpmprequesttimeout(&natpmp, &wait);
    long left = deadline - tictactoe_natpmp_ms();
    if (left <= 0) break;
    long ms = wait.tv_sec * 1000L + wait.tv_usec / 1000;
    if (ms > left) ms = left;
    if (ms < 1) ms = 1;
    struct pollfd fd = { natpmp.s, POLLIN, 0 };
    poll(&fd, 1, (int)ms);
  }
  answer.result = status;
  if (status >= 0) {
    answer.epoch = response.epoch;
    if (response.type == NATPMP_RESPTYPE_PUBLICADDRESS) {
      answer.public_address = response.pnu.publicaddress.addr.s_addr;
    } else {
      answer.private_port = response.pnu.newportmapping.privateport;
      answer.public_port = response.pnu.newportmapping.mappedpublicport;
      answer.lifetime = response.pnu.newportmapping.lifetime;
    }
  }
  closenatpmp(&natpmp);
  return answer;
}

#endif
