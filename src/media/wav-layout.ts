import { ascii, byteAt, uint16le, uint32be, uint32le } from './read-bytes';

// The chunks of a RIFF/WAVE file that decide how long it plays: every `fmt ` chunk before the first
// `data` chunk, and where that data chunk's payload starts. The walk follows the declared chunk sizes,
// as a decoder does, and stops at the first `data` chunk: from there a decoder may read to the end of
// the file (a size of 0 or 0xFFFFFFFF means just that to ffmpeg, and some readers go on to a second
// data chunk), so the declared data size is only reported, never used as a bound.

export interface WavFormat {
  /** The format tag, or for WAVE_FORMAT_EXTENSIBLE the tag its sub-format GUID names (else 0xFFFE). */
  tag: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
}

export interface WavLayout {
  formats: WavFormat[];
  /** Where the first `data` chunk's payload starts, if there is one. */
  dataStart: number | undefined;
  /** That chunk's declared size. */
  dataSize: number;
  steps: number;
}

const extensible = 0xfffe;
/** The chunk ids `data` and `fmt ` as big-endian numbers: compared without making a string per chunk. */
const dataId = 0x64617461;
const fmtId = 0x666d7420;
/** The last 14 bytes of KSDATAFORMAT_SUBTYPE_PCM, _IEEE_FLOAT and every GUID built on a format tag. */
const tagGuidTail = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

function extensibleTag(bytes: Uint8Array, guid: number): number {
  const builtOnTag = tagGuidTail.every((byte, i) => byteAt(bytes, guid + 2 + i) === byte);
  return builtOnTag ? uint16le(bytes, guid) : extensible;
}

function readFormat(bytes: Uint8Array, at: number, size: number): WavFormat {
  const tag = uint16le(bytes, at);
  return {
    tag: tag === extensible && size >= 40 ? extensibleTag(bytes, at + 24) : tag,
    channels: uint16le(bytes, at + 2),
    sampleRate: uint32le(bytes, at + 4),
    byteRate: uint32le(bytes, at + 8),
    blockAlign: uint16le(bytes, at + 12),
    bitsPerSample: uint16le(bytes, at + 14),
  };
}

/** The file's WAV layout, or undefined when it is not RIFF/RF64/BW64 WAVE. */
export function readWavLayout(bytes: Uint8Array): WavLayout | undefined {
  if (!['RIFF', 'RF64', 'BW64'].includes(ascii(bytes, 0, 4)) || ascii(bytes, 8, 4) !== 'WAVE')
    return undefined;
  const layout: WavLayout = { formats: [], dataStart: undefined, dataSize: 0, steps: 0 };
  for (let at = 12; at + 8 <= bytes.length; ) {
    layout.steps++;
    const id = uint32be(bytes, at);
    const size = uint32le(bytes, at + 4);
    if (id === dataId) {
      layout.dataStart = at + 8;
      layout.dataSize = size;
      break;
    }
    if (id === fmtId && size >= 16 && at + 24 <= bytes.length)
      layout.formats.push(readFormat(bytes, at + 8, size));
    at += 8 + size + (size % 2);
  }
  return layout;
}
