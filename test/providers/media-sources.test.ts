import { describe, expect, it } from 'vitest';
import { mediaModalities } from '../../src/contracts/media-part';
import { acceptsMimeType, acceptsSource, type SourceKind } from '../../src/model/media-sources';
import { providerKinds } from '../../src/model/provider-kind';

// The table of src/model/media-sources.ts, as the providers' documentation gives it (the citations
// are in that file). Planning reads it; the adapters refuse anything outside it before sending.

const sources: SourceKind[] = ['base64', 'url', 'fileId'];

function table(): Record<string, Record<string, string[]>> {
  return Object.fromEntries(
    providerKinds.map((kind) => [
      kind,
      Object.fromEntries(
        mediaModalities
          .map(
            (modality) =>
              [modality, sources.filter((source) => acceptsSource(kind, modality, source))] as const,
          )
          .filter(([, taken]) => taken.length > 0),
      ),
    ]),
  );
}

describe('media sources by provider kind', () => {
  it('is the documented table', () => {
    expect(table()).toEqual({
      openai: { image: ['base64', 'url'], audio: ['base64'], pdf: ['base64', 'fileId'] },
      anthropic: { image: ['base64', 'url', 'fileId'], pdf: ['base64', 'url', 'fileId'] },
      gemini: {
        image: ['base64', 'url', 'fileId'],
        audio: ['base64', 'url', 'fileId'],
        pdf: ['base64', 'url', 'fileId'],
      },
      'workers-ai': { image: ['base64'] },
      sim: { image: ['base64'], audio: ['base64'], pdf: ['base64'] },
    });
  });

  it('takes bytes of every modality a kind reads', () => {
    for (const kind of providerKinds) {
      for (const modality of mediaModalities) {
        const reads = sources.some((source) => acceptsSource(kind, modality, source));
        expect(acceptsSource(kind, modality, 'base64')).toBe(reads);
      }
    }
  });

  it('names the MIME types each kind reads: no GIF for Gemini, nothing for a modality a kind does not read', () => {
    expect(acceptsMimeType('gemini', 'image', 'image/gif')).toBe(false);
    expect(acceptsMimeType('gemini', 'image', 'image/webp')).toBe(true);
    expect(acceptsMimeType('gemini', 'audio', 'audio/mpeg')).toBe(true);
    for (const kind of ['openai', 'anthropic', 'workers-ai', 'sim'] as const) {
      expect(acceptsMimeType(kind, 'image', 'image/gif')).toBe(true);
    }
    expect(acceptsMimeType('openai', 'audio', 'audio/wav')).toBe(true);
    expect(acceptsMimeType('anthropic', 'audio', 'audio/wav')).toBe(false);
    expect(acceptsMimeType('workers-ai', 'pdf', 'application/pdf')).toBe(false);
    // A type outside the contract is read by nobody, whatever the kind.
    for (const kind of providerKinds) expect(acceptsMimeType(kind, 'image', 'image/tiff')).toBe(false);
  });
});
