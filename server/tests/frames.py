"""WebSocket frames written and read by hand over a plain socket, for the tests that need what a library client
does not send (an unmasked frame, a message of an exact size, a control-frame flood) or a client that stops reading.
RFC 6455 §5.2 framing."""
import base64
import os
import socket
import struct


def ws_frame(payload: bytes, opcode: int = 0x1, fin: bool = True, mask: bool = True) -> bytes:
    """One client frame (masked unless ``mask`` is False, which RFC 6455 §5.1 forbids a client)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def raw_ws(port: int, rcvbuf: int = 0) -> socket.socket:
    """A WebSocket connection to 127.0.0.1:``port``/ws, the opening handshake done (its answer read up to the
    blank line); ``rcvbuf``: a small receive buffer, set before connecting."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        byte = s.recv(1)
        if not byte:
            raise ConnectionError("closed during the handshake")
        answer += byte
    if not answer.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(answer.decode("latin-1"))
    return s


def read_frames(sock: socket.socket, seconds: float):
    """The server's frames received within ``seconds`` or until it closes: [(opcode, payload)]."""
    sock.settimeout(seconds)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionError):
        pass
    frames, i = [], 0
    while i + 2 <= len(data):
        n, j = data[i + 1] & 0x7F, i + 2
        if n == 126:
            n, j = struct.unpack("!H", data[j:j + 2])[0], j + 2
        elif n == 127:
            n, j = struct.unpack("!Q", data[j:j + 8])[0], j + 8
        if j + n > len(data):
            break
        frames.append((data[i] & 0x0F, data[j:j + n]))
        i = j + n
    return frames


def close_code(frames):
    """The code of the server's close frame among ``frames``, or None if it sent none."""
    for opcode, payload in frames:
        if opcode == 0x8:
            return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    return None
