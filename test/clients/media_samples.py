"""Small real media files for the Python client tests, made here so no binary is committed: a PNG
(a real image, its pixels deflated), a PDF of a few pages with text on the first, and a WAV of a tone.
The same kinds as test/helpers/media-samples.ts makes for the TypeScript tests.
"""

import base64
import io
import math
import struct
import wave
import zlib


def png(width=64, height=48):
    """An RGB PNG of a gradient, width × height."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    rows = b"".join(
        b"\x00" + bytes(channel for x in range(width) for channel in (x * 255 // width, y * 255 // height, 128))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def pdf(pages=1, text="Invoice 42: total 100 EUR"):
    """A PDF of `pages` pages, with `text` on the first, its cross-reference table included."""
    stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET"
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ] + [
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        + (" /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >>" if i == 0 else "")
        + " >>"
        for i in range(pages)
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n{body}\nendobj\n".encode())
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def wav(seconds=1.0, rate=8000, hz=440):
    """A 16-bit mono WAV of a sine tone."""
    frames = b"".join(
        struct.pack("<h", int(12000 * math.sin(2 * math.pi * hz * i / rate))) for i in range(int(seconds * rate))
    )
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(frames)
    return out.getvalue()


def b64(data):
    return base64.b64encode(data).decode("ascii")


def data_url(mime_type, data):
    return f"data:{mime_type};base64,{b64(data)}"
