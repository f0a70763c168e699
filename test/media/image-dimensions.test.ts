import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/encoding/bytes';
import { imageDimensions } from '../../src/media/image-dimensions';
import { unknownImageSide } from '../../src/model/media-tokens';
import { apngOf, gifOf, jpegOf, pngOf, webpOf } from '../helpers/media-samples';

// The largest size any decoder could render from an image's bytes: every frame of a GIF, WebP or APNG
// at its offset and every frame header of a JPEG, not just the size the first header declares (which
// is all `image-size` reads), measured by the bytes' own signature.

describe('GIF', () => {
  it('reads a plain GIF’s screen', () => {
    expect(imageDimensions(gifOf(640, 480), 'image/gif')).toMatchObject({
      width: 640,
      height: 480,
      basis: 'read',
    });
  });

  it('prices a 1×1 screen holding a 4000×4000 frame as at least 4000×4000', () => {
    const gif = gifOf(1, 1, [{ width: 4000, height: 4000 }]);
    expect(imageDimensions(gif, 'image/gif')).toMatchObject({ width: 4000, height: 4000, basis: 'bounded' });
  });

  it('adds a frame’s offset to its size: left 3000 and width 1000 reach 4000', () => {
    const gif = gifOf(1000, 1000, [{ left: 3000, top: 20, width: 1000, height: 1000 }]);
    expect(imageDimensions(gif, 'image/gif')).toMatchObject({ width: 4000, height: 1020 });
  });

  it('walks many frames in work linear in the file: 4× the frames, at most 4.5× the steps', () => {
    const frames = (n: number) => Array.from({ length: n }, (_, i) => ({ left: i, width: 10, height: 10 }));
    const [small, large] = [gifOf(10, 10, frames(500)), gifOf(10, 10, frames(2000))];
    const [a, b] = [imageDimensions(small, 'image/gif'), imageDimensions(large, 'image/gif')];
    expect(b.width).toBe(2009);
    expect(b.steps).toBeGreaterThanOrEqual(2000);
    expect(b.steps / a.steps).toBeLessThanOrEqual(4.5);
    expect(b.steps).toBeLessThanOrEqual(large.length);
  });
});

describe('JPEG', () => {
  it('reads a plain JPEG’s frame header', () => {
    expect(imageDimensions(jpegOf([[1600, 1200]]), 'image/jpeg')).toMatchObject({
      width: 1600,
      height: 1200,
      basis: 'read',
    });
  });

  it('takes the largest of a small first frame header and a larger later one', () => {
    const jpeg = jpegOf([
      [100, 100],
      [5000, 3000],
    ]);
    expect(imageDimensions(jpeg, 'image/jpeg')).toMatchObject({
      width: 5000,
      height: 3000,
      basis: 'bounded',
    });
  });

  it('takes a larger picture appended after the first one’s end, as an MPO holds', () => {
    const jpeg = concatBytes(jpegOf([[100, 100]]), new Uint8Array([1, 2, 3]), jpegOf([[3000, 2000]]));
    expect(imageDimensions(jpeg, 'image/jpeg')).toMatchObject({ width: 3000, height: 2000 });
  });

  it('does not read an EXIF thumbnail inside APP1 as the image, since decoders render the main frame', () => {
    const jpeg = jpegOf([[800, 600]], [9000, 9000]);
    expect(imageDimensions(jpeg, 'image/jpeg')).toMatchObject({ width: 800, height: 600, basis: 'read' });
  });

  it('scans entropy-coded data in work linear in the file', () => {
    const withScan = (bytes: number) => {
      const jpeg = jpegOf([[100, 100]]);
      return concatBytes(jpeg.subarray(0, -2), new Uint8Array(bytes).fill(0x55), jpeg.subarray(-2));
    };
    const [a, b] = [
      imageDimensions(withScan(10_000), 'image/jpeg'),
      imageDimensions(withScan(40_000), 'image/jpeg'),
    ];
    expect(b.steps / a.steps).toBeLessThanOrEqual(4.5);
    expect(b.steps).toBeLessThanOrEqual(40_100);
  });
});

describe('WebP and APNG', () => {
  it('reads a lone VP8L bitstream’s size', () => {
    expect(imageDimensions(webpOf(300, 200), 'image/webp')).toMatchObject({
      width: 300,
      height: 200,
      basis: 'read',
    });
  });

  it('takes an animation frame that reaches past the canvas: a 100×100 canvas, a frame at x 3000 of 1000×1000', () => {
    const webp = webpOf(100, 100, [{ left: 3000, width: 1000, height: 1000 }]);
    expect(imageDimensions(webp, 'image/webp')).toMatchObject({
      width: 4000,
      height: 1000,
      basis: 'bounded',
    });
  });

  it('takes an APNG frame larger than its IHDR, which the spec forbids and a decoder may not check', () => {
    const apng = apngOf(10, 10, { left: 5, top: 0, width: 3000, height: 2000 });
    expect(imageDimensions(apng, 'image/png')).toMatchObject({ width: 3005, height: 2000, basis: 'bounded' });
  });
});

describe('what the bytes are', () => {
  it('measures PNG bytes labelled image/gif as the PNG they are, and says so', () => {
    const measured = imageDimensions(pngOf(1600, 1200), 'image/gif');
    expect(measured).toMatchObject({ width: 1600, height: 1200, basis: 'read' });
    expect(measured.why).toContain('PNG');
    expect(measured.why).toContain('declared image/gif');
  });

  it('prices bytes of no image format at the largest size a provider accepts', () => {
    const junk = imageDimensions(new Uint8Array([1, 2, 3, 4]), 'image/png');
    expect(junk).toMatchObject({ width: unknownImageSide, height: unknownImageSide, basis: 'limit' });
    expect(unknownImageSide).toBe(8000);
  });
});
