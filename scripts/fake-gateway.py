#!/usr/bin/env python3
"""A UPnP internet gateway that misbehaves on purpose, for the port-mapping tests (run in the lab's router
namespace, in place of miniupnpd): it answers an M-SEARCH on UDP 1900 with the LOCATION of its description and
serves the description and the SOAP control URL over HTTP, in one of these ways (MODE):

  shared      the outside address is 100.64.1.2 (carrier-grade NAT)
  private     the outside address is 192.168.0.5 (a second router)
  refuse      AddPortMapping fails: 606 Action not authorized
  hostile     AddPortMapping fails with a description full of terminal controls, a forged line and 300 more
              characters; the outside address it reports carries controls too
  permanent   AddPortMapping with a lease fails: 725 OnlyPermanentLeasesSupported; without one it works
  taken       outside port 7177 fails: 718 ConflictInMappingEntry; any other works
  elsewhere   the LOCATION names another host (198.51.101.2): a client must not go there
  huge        the description claims a 100 MB body
  silent      the HTTP server accepts and never answers
  pcp-short   no UPnP; PCP MAP requests are granted for 4 s only (so a client renews within seconds)
  pcp-reboot  as pcp-short, but every answer after the first has an epoch that went back (the router rebooted)

  scripts/fake-gateway.py MODE ADDRESS LOG

It listens on ADDRESS (UDP 1900, TCP 5000) and appends one line per request to LOG: "ssdp", "GET /desc.xml",
"SOAP AddPortMapping port=7177 lease=1200", "SOAP DeletePortMapping port=7177", ... It answers nothing on the
NAT-PMP/PCP port. Stop it with SIGTERM.
"""
import re
import socket
import sys
import threading

MODE, ADDRESS, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
HTTP_PORT = 5000
SERVICE = "urn:schemas-upnp-org:service:WANIPConnection:1"

DESCRIPTION = f"""<?xml version="1.0"?>
<root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
<device><deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><friendlyName>fake</friendlyName>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType>
<deviceList><device><deviceType>urn:schemas-upnp-org:device:WANConnectionDevice:1</deviceType>
<serviceList><service><serviceType>{SERVICE}</serviceType><serviceId>urn:upnp-org:serviceId:WANIPConn1</serviceId>
<controlURL>/ctl/IPConn</controlURL><eventSubURL>/evt/IPConn</eventSubURL><SCPDURL>/WANIPCn.xml</SCPDURL></service>
</serviceList></device></deviceList></device></deviceList></device></root>
"""

lock = threading.Lock()


def log(line):
    with lock, open(LOG, "a") as out:
        out.write(line + "\n")


def ssdp():
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((ADDRESS, 1900))
    host = "198.51.101.2" if MODE == "elsewhere" else ADDRESS
    while True:
        data, peer = server.recvfrom(4096)
        if b"M-SEARCH" not in data:
            continue
        log("ssdp")
        answer = (
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\n"
            "ST: urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\n"
            f"USN: uuid:fake::urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\nEXT:\r\n"
            f"LOCATION: http://{host}:{HTTP_PORT}/desc.xml\r\n\r\n"
        )
        server.sendto(answer.encode(), peer)


def pcp():
    """PCP (RFC 6887) MAP answers on UDP 5351, for the pcp-* modes; NAT-PMP requests get nothing."""
    import struct
    import time

    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind((ADDRESS, 5351))
    started = time.monotonic()
    answered = 0
    while True:
        data, peer = server.recvfrom(1100)
        if len(data) < 60 or data[0] != 2 or data[1] != 1:
            continue
        lifetime = struct.unpack(">I", data[4:8])[0]
        nonce, internal, suggested = data[24:36], data[40:42], data[42:44]
        epoch = 1000 + int(time.monotonic() - started)
        if MODE == "pcp-reboot" and answered > 0:
            epoch = 5
        log(f"pcp map lifetime={lifetime}")
        granted = min(lifetime, 4)
        answer = bytes([2, 0x81, 0, 0]) + struct.pack(">II", granted, epoch) + bytes(12)
        answer += nonce + bytes([6, 0, 0, 0]) + internal + (suggested if suggested != bytes(2) else internal)
        answer += bytes(10) + b"\xff\xff" + bytes([198, 51, 101, 1])
        server.sendto(answer, peer)
        answered += 1


def reply(connection, status, body, content_type="text/xml"):
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    connection.sendall(head.encode() + body)


def soap_reply(action, values):
    fields = "".join(f"<{name}>{value}</{name}>" for name, value in values)
    return (
        '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
        's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
        f'<u:{action}Response xmlns:u="{SERVICE}">{fields}</u:{action}Response></s:Body></s:Envelope>'
    ).encode()


def soap_fault(code, words):
    return (
        '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
        's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><s:Fault>'
        "<faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>"
        '<UPnPError xmlns="urn:schemas-upnp-org:control-1-0">'
        f"<errorCode>{code}</errorCode><errorDescription>{words}</errorDescription></UPnPError>"
        "</detail></s:Fault></s:Body></s:Envelope>"
    ).encode()


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    match = re.search(rb"Content-Length:\s*(\d+)", head, re.IGNORECASE)
    length = int(match.group(1)) if match else 0
    while len(body) < length:
        chunk = connection.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def field(body, name):
    match = re.search(rf"<{name}>([^<]*)</{name}>".encode(), body)
    return match.group(1).decode() if match else ""


def serve(connection):
    with connection:
        request = read_request(connection)
        line = request.split(b"\r\n", 1)[0].decode(errors="replace")
        if MODE == "silent":
            log("held " + line)
            threading.Event().wait(30)
            return
        if line.startswith("GET "):
            log("GET " + line.split()[1])
            if MODE == "huge":
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n" + b"<" * 70000)
                return
            reply(connection, "200 OK", DESCRIPTION.encode())
            return
        action = re.search(rb'SOAPAction:\s*"[^#]*#(\w+)"', request, re.IGNORECASE)
        action = action.group(1).decode() if action else "?"
        port = field(request, "NewExternalPort")
        lease = field(request, "NewLeaseDuration")
        log(" ".join([f"SOAP {action}"] + ([f"port={port}"] if port else []) + ([f"lease={lease}"] if lease else [])))
        if action == "GetExternalIPAddress":
            address = {"shared": "100.64.1.2", "private": "192.168.0.5", "hostile": "198.51.101.1\x1b[2J"}.get(
                MODE, "198.51.101.1")
            reply(connection, "200 OK", soap_reply(action, [("NewExternalIPAddress", address)]))
        elif action == "AddPortMapping" and MODE == "refuse":
            reply(connection, "500 Internal Server Error", soap_fault(606, "Action not authorized"))
        elif action == "AddPortMapping" and MODE == "hostile":
            words = "Action\x1b]2;pwned\x07 not\r\nFAKE: you won\x9b31m authorized " + "A" * 300
            reply(connection, "500 Internal Server Error", soap_fault(606, words))
        elif action == "AddPortMapping" and MODE == "permanent" and lease != "0":
            reply(connection, "500 Internal Server Error", soap_fault(725, "OnlyPermanentLeasesSupported"))
        elif action == "AddPortMapping" and MODE == "taken" and port == "7177":
            reply(connection, "500 Internal Server Error", soap_fault(718, "ConflictInMappingEntry"))
        else:
            reply(connection, "200 OK", soap_reply(action, []))


def http():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((ADDRESS, HTTP_PORT))
    server.listen(16)
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if MODE.startswith("pcp-"):
    threading.Thread(target=pcp, daemon=True).start()
    log("ready")
    threading.Event().wait()
threading.Thread(target=ssdp, daemon=True).start()
log("ready")
http()
