/** Tiny but real media files the everything server returns: a PNG and a WAV, as base64. */

/** A 1×1 red pixel: an 8-bit RGBA PNG (IHDR, one zlib IDAT, IEND; every chunk CRC valid). */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** The same PNG as a `data:` URI, for icons that need no server. */
export const PNG_DATA_URI = `data:image/png;base64,${PNG_BASE64}`;

/** The raw bytes of {@link PNG_BASE64}. */
export const PNG_BYTES: Uint8Array = Uint8Array.from(Buffer.from(PNG_BASE64, "base64"));

/**
 * A RIFF/WAVE file of 8-bit mono PCM samples: the 44-byte canonical header (`fmt ` chunk of 16
 * bytes, format 1 = PCM) and a `data` chunk, padded to an even size as RIFF requires.
 */
function wav(samples: Uint8Array, sampleRate: number): Uint8Array {
  const pad = samples.length % 2;
  const out = Buffer.alloc(44 + samples.length + pad);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + samples.length + pad, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16); // size of the fmt chunk
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // channels
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate, 28); // byte rate = rate × channels × bytes per sample
  out.writeUInt16LE(1, 32); // block align
  out.writeUInt16LE(8, 34); // bits per sample
  out.write("data", 36, "ascii");
  out.writeUInt32LE(samples.length, 40);
  out.set(samples, 44);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** 10 ms of a 440 Hz tone at 8 kHz, unsigned 8-bit (silence is 128). */
function tone(): Uint8Array {
  const rate = 8000;
  const samples = new Uint8Array(rate / 100);
  for (let i = 0; i < samples.length; i++) {
    samples[i] = 128 + Math.round(100 * Math.sin((2 * Math.PI * 440 * i) / rate));
  }
  return samples;
}

/** A short beep as `audio/wav`. */
export const WAV_BASE64 = Buffer.from(wav(tone(), 8000)).toString("base64");
