// libminiupnpc (libminiupnpc-dev) is used only to parse what a gateway sends: the device description and SOAP
// replies. The program does SSDP and HTTP itself, with a deadline and a size limit (the library's own reads have
// neither), and only ever to the gateway's own address.
#ifndef TICTACTOE_CMINIUPNPC_SHIM_H
#define TICTACTOE_CMINIUPNPC_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <miniupnpc/miniupnpc.h>
#include <miniupnpc/igd_desc_parse.h>
#include <miniupnpc/upnpreplyparse.h>

/// What the program needs of a parsed device description.
typedef struct {
  struct IGDdatas data;
} tictactoe_igd;

/// Parses a root device description (`length` bytes of XML).
static inline void tictactoe_igd_parse(const char *xml, int length, tictactoe_igd *out) {
  memset(out, 0, sizeof *out);
  parserootdesc(xml, length, &out->data);
}

/// 0 URLBase, 1 the first WAN connection service's control URL, 2 its service type, 3 the IPv6 firewall
/// control URL, 4 its service type, 5 the second WAN connection service's control URL, 6 its service type.
static inline const char *tictactoe_igd_field(const tictactoe_igd *igd, int which) {
  switch (which) {
  case 0: return igd->data.urlbase;
  case 1: return igd->data.first.controlurl;
  case 2: return igd->data.first.servicetype;
  case 3: return igd->data.IPv6FC.controlurl;
  case 4: return igd->data.IPv6FC.servicetype;
  case 5: return igd->data.second.controlurl;
  case 6: return igd->data.second.servicetype;
  default: return "";
  }
}

/// The value of the element `name` in a SOAP reply, copied (free it), or NULL.
static inline char *tictactoe_soap_value(const char *xml, int length, const char *name) {
  struct NameValueParserData data;
  ParseNameValue(xml, length, &data);
  char *value = GetValueFromNameValueList(&data, name);
  char *copy = value ? strdup(value) : NULL;
  ClearNameValueList(&data);
  return copy;
}

#endif
