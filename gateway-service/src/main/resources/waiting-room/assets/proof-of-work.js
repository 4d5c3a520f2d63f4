/*
 * The waiting page's proof-of-work solver, run as a Web Worker (docs/design/abuse/proof-of-work.md). Given an ALTCHA
 * challenge {challenge, salt, max}, finds the number n in 0..max whose SHA-256 of salt + n, in hex, is the challenge.
 * Hashes with WebCrypto, many digests in flight at once; where WebCrypto is missing (a page served over plain http
 * from another host than localhost is not a secure context), with the small SHA-256 below. Posts {progress} (the
 * share of the range searched so far), then {number, took} or {error}. Talks to nobody but the page.
 */
(function () {
  'use strict';
  var BATCH = 1000;
  var encoder = new TextEncoder();
  var subtle = self.crypto && self.crypto.subtle;

  function bytesOf(hex) {
    var bytes = new Uint8Array(hex.length / 2);
    for (var i = 0; i < bytes.length; i++) {
      bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    }
    return bytes;
  }

  function same(buffer, target) {
    var bytes = new Uint8Array(buffer);
    for (var i = 0; i < target.length; i++) {
      if (bytes[i] !== target[i]) { return false; }
    }
    return true;
  }

  /* SHA-256 (FIPS 180-4) of a short message, for browsers without WebCrypto here. */
  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
  var W = new Uint32Array(64);

  function sha256(message) {
    var length = message.length;
    var blocks = Math.ceil((length + 9) / 64);
    var padded = new Uint8Array(blocks * 64);
    padded.set(message);
    padded[length] = 0x80;
    var bits = length * 8;
    padded[padded.length - 4] = (bits >>> 24) & 0xff;
    padded[padded.length - 3] = (bits >>> 16) & 0xff;
    padded[padded.length - 2] = (bits >>> 8) & 0xff;
    padded[padded.length - 1] = bits & 0xff;
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    for (var block = 0; block < blocks; block++) {
      var o = block * 64;
      for (var t = 0; t < 16; t++) {
        W[t] = (padded[o + t * 4] << 24) | (padded[o + t * 4 + 1] << 16) | (padded[o + t * 4 + 2] << 8) |
          padded[o + t * 4 + 3];
      }
      for (t = 16; t < 64; t++) {
        var w15 = W[t - 15];
        var w2 = W[t - 2];
        var s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
        var s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
        W[t] = (W[t - 16] + s0 + W[t - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    var out = new Uint8Array(32);
    for (var i = 0; i < 8; i++) {
      out[i * 4] = h[i] >>> 24; out[i * 4 + 1] = (h[i] >>> 16) & 0xff;
      out[i * 4 + 2] = (h[i] >>> 8) & 0xff; out[i * 4 + 3] = h[i] & 0xff;
    }
    return out.buffer;
  }

  function digest(text) {
    var bytes = encoder.encode(text);
    return subtle ? subtle.digest('SHA-256', bytes) : Promise.resolve(sha256(bytes));
  }

  self.onmessage = function (message) {
    var task = message.data || {};
    if (task.selfTest) { /* for tests: the fallback against WebCrypto on one input */
      Promise.all([digest(task.selfTest), Promise.resolve(sha256(encoder.encode(task.selfTest)))])
        .then(function (both) { self.postMessage({ selfTest: same(both[0], new Uint8Array(both[1])) }); });
      return;
    }
    if (task.fallback) { subtle = null; }
    var target = bytesOf(String(task.challenge).toLowerCase());
    var max = Number(task.max);
    var salt = String(task.salt);
    var started = Date.now();
    function search(from) {
      var to = Math.min(max, from + BATCH - 1);
      var pending = [];
      for (var n = from; n <= to; n++) {
        pending.push(digest(salt + n));
      }
      Promise.all(pending).then(function (hashes) {
        for (var i = 0; i < hashes.length; i++) {
          if (same(hashes[i], target)) {
            self.postMessage({ number: from + i, took: Date.now() - started });
            return;
          }
        }
        if (to >= max) {
          self.postMessage({ error: 'no number in range' });
          return;
        }
        self.postMessage({ progress: (to + 1) / (max + 1) });
        search(to + 1);
      }, function (error) {
        self.postMessage({ error: String(error) });
      });
    }
    search(0);
  };
}());
